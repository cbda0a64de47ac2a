import { readFileSync } from 'node:fs'
import { englishOf } from '../../contract/problems.ts'
import { openDatabase } from '../platform/db/client.ts'
import { applyMigrations } from '../platform/db/migrate.ts'
import { parseEnv } from '../platform/env.ts'
import { importCatalogue } from './service.ts'

// `npm run import -- FILE.json`: loads a catalogue (docs/catalogue-format.md) into the database that
// DATA_DIR or DATABASE_URL names. The whole file is checked first; on any problem nothing is written.
// The settings are read through the server's one schema (platform/env.ts), as `npm start` reads them.
// On the embedded database it may run while the server runs: its statements then go through the
// server's database thread (platform/db/pglite-guest.ts), and the server's catalogue cache shows the
// import within two seconds.
async function main(argv: string[]): Promise<number> {
  const file = argv[0]
  if (!file || argv.length > 1) {
    process.stderr.write('usage: npm run import -- FILE.json\n')
    return 2
  }
  let input: unknown
  try {
    input = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    process.stderr.write(`${file}: cannot read a JSON document: ${(error as Error).message}\n`)
    return 1
  }
  const env = parseEnv(process.env)
  const database = await openDatabase({
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    guest: true,
  })
  try {
    await applyMigrations(database)
    const result = await importCatalogue(database, input)
    if (!result.success) {
      process.stderr.write(
        `${file}: ${result.problems.length} problem(s), nothing imported:\n${result.problems.map((p) => `  ${englishOf(p)}`).join('\n')}\n`,
      )
      return 1
    }
    const c = result.counts
    process.stdout.write(
      `${file}: imported ${c.devices} device(s), ${c.templates} template(s), ${c.events} event(s), ${c.promos} promo code(s)\n`,
    )
    return 0
  } finally {
    await database.close()
  }
}

process.exitCode = await main(process.argv.slice(2))
