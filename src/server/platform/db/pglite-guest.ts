// A command-line tool (import, operator, player-link) run while the server holds the embedded
// database: it speaks to the server's database thread through the Unix socket that thread listens on
// in DATA_DIR (pglite-thread-main.mjs), with the same calls as the server (bridge.ts). Its statements
// and transactions take their turn with the server's, as on PostgreSQL; if it goes away mid-transaction,
// that transaction is rolled back.
import { connect, type Socket } from 'node:net'
import { deserialize, serialize } from 'node:v8'
import { type Answer, createBridge } from './bridge.ts'
import type { Database } from './client.ts'

/** Connects to the server's database thread; null when nothing answers on the socket. */
export async function openPgliteGuest(socketPath: string): Promise<Database | null> {
  const socket = await new Promise<Socket | null>((resolve) => {
    const s = connect(socketPath)
    s.once('connect', () => resolve(s))
    s.once('error', () => resolve(null))
  })
  if (!socket) return null
  const bridge = createBridge()
  let buffered = Buffer.alloc(0)
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    while (buffered.length >= 4) {
      const size = buffered.readUInt32BE(0)
      if (buffered.length < 4 + size) break
      bridge.settle(deserialize(buffered.subarray(4, 4 + size)) as Answer)
      buffered = buffered.subarray(4 + size)
    }
  })
  socket.on('error', () => undefined)
  socket.on('close', () => bridge.disconnect('the server stopped'))
  bridge.connect({
    post: (call) => {
      const body = serialize(call)
      const head = Buffer.alloc(4)
      head.writeUInt32BE(body.length)
      socket.write(Buffer.concat([head, body]))
    },
    busy: (waiting) => (waiting ? socket.ref() : socket.unref()),
  })
  socket.unref()
  return bridge.database(async () => {
    bridge.disconnect('closed')
    await new Promise<void>((resolve) => {
      if (socket.destroyed) resolve()
      else socket.end(() => resolve())
    })
    socket.destroy()
  })
}
