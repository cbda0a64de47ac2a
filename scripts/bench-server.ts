// The server that `npm run bench` measures: the real server (startServer) in its own process, so
// that its memory is its own. It serves the app too (its pages are measured): `npm run bench` builds
// it first.
import { startServer } from '../src/server/main.ts'
import { sql } from '../src/server/platform/db/sql.ts'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: bench-server.ts DATA_DIR')
const server = await startServer({ port: 0, dataDir, serveApp: true })
// Player links for the schedule scenario, handed to the bench over its own pipe.
const devices = await server.deps.database.query(
  sql<{ id: string }>`select device_id as id from devices`,
)
for (const { id } of devices) {
  const linked = await server.deps.player.link(id)
  if (linked.ok) process.stderr.write(`PLAYER ${id} ${linked.value.token}\n`)
}
process.stderr.write(`READY ${server.url}\n`)
process.once('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
})
