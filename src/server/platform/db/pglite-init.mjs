// Creates an embedded database cluster in the directory given, then exits (see client.ts: initdb's
// memory stays with the process that ran it, so the server never runs it itself).
import { PGlite } from '@electric-sql/pglite'

const dir = process.argv[2]
if (!dir) {
  process.stderr.write('usage: node pglite-init.mjs DIR\n')
  process.exit(2)
}
const db = new PGlite({ dataDir: dir })
await db.waitReady
await db.close()
