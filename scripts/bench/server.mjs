// The server that `npm run bench` measures: the real server as production runs it, from the bundle
// `npm run build` makes (build/node), in its own process with no compiler loaded, so that its memory
// is the product's. It serves the app too (its pages are measured). Plain JavaScript for that reason.
import { startServer } from '../../build/node/main.mjs'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: scripts/bench/server.mjs DATA_DIR')
const server = await startServer({ port: 0, dataDir, serveApp: true })
// Player links for the schedule scenario, handed to the bench over its own pipe. The statement is
// the shape platform/db/sql.ts makes: no parameters, so no fragment of this module's own.
const devices = await server.deps.database.query({
  strings: ['select device_id as id from devices'],
  values: [],
})
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
