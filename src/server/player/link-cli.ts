import { createSoldSlots } from '../order/sold-slots.ts'
import { openDatabase } from '../platform/db/client.ts'
import { applyMigrations } from '../platform/db/migrate.ts'
import { parseEnv } from '../platform/env.ts'
import { createPlayerService } from './service.ts'

// `npm run player-link -- DEVICE_ID`: makes a new player token for a billboard, revoking
// the one it had, and prints the player's full URL as its last line. The token is shown only here
// (the database keeps its hash). It opens the database as `npm run import` does: on the embedded
// database it may run while the server runs (platform/db/pglite-guest.ts).
async function main(argv: string[]): Promise<number> {
  const deviceId = argv[0]
  if (!deviceId || argv.length > 1) {
    process.stderr.write('usage: npm run player-link -- DEVICE_ID\n')
    return 2
  }
  const env = parseEnv(process.env)
  const origin = (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '')
  const database = await openDatabase({
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    guest: true,
  })
  try {
    await applyMigrations(database)
    const player = createPlayerService({
      database,
      now: Date.now,
      soldSlots: createSoldSlots(database),
      clockSkewMs: env.PLAYER_CLOCK_SKEW_SECONDS * 1000,
      origin: () => origin,
    })
    const linked = await player.link(deviceId)
    if (!linked.ok) {
      process.stderr.write(`${deviceId}: no such billboard (import a catalogue that lists it)\n`)
      return 1
    }
    process.stdout.write(
      `A new player link for ${deviceId}; any earlier link of this billboard stops working now.\n`,
    )
    process.stdout.write(`${linked.value.url}\n`)
    return 0
  } finally {
    await database.close()
  }
}

process.exitCode = await main(process.argv.slice(2))
