// @ts-check
// The embedded database's own thread (pglite-thread.ts starts it; decision 022): PGlite answers here,
// so its WebAssembly Postgres never runs on the thread that parses HTTP. Plain JavaScript, loaded
// without tsx: the thread starts in tens of milliseconds and carries no compiler.
//
// The protocol (bridge.ts), one message each way per call, structured-cloned so that dates, bytes and
// JSON keep their types: {id, op: 'query', text, values, tx?} · {id, op: 'exec', text, tx?} ·
// {id, op: 'begin', tx} · {id, op: 'end', tx, commit} · {id, op: 'close'}; each is answered by
// {id, rows} or {id, error}. PGlite is one session: a transaction holds it from 'begin' to 'end', and
// every statement sent without that transaction's id waits (PGlite's own lock), so the statements
// of one transaction never interleave with others'.
//
// The server speaks it over the thread's port. Command-line tools run beside the server (import,
// operator, player-link) speak it over a Unix socket in DATA_DIR (pglite-guest.ts), each message a
// 4-byte length and v8.serialize's bytes; a guest's transactions are rolled back when it goes away,
// or when it leaves one idle for GUEST_IDLE_MS (it would hold the server's every statement).
import { rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { deserialize, serialize } from 'node:v8'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'

/** @typedef {{ id: number, op: 'query', text: string, values: unknown[], tx?: number }
 *   | { id: number, op: 'exec', text: string, tx?: number }
 *   | { id: number, op: 'begin', tx: number }
 *   | { id: number, op: 'end', tx: number, commit: boolean }
 *   | { id: number, op: 'close' }} Call */
/** @typedef {{ tx: import('@electric-sql/pglite').Transaction, commit: () => void,
 *   rollback: (error: Error) => void, done: Promise<unknown> }} Open */

const GUEST_IDLE_MS = 10_000

if (!parentPort) throw new Error('pglite-thread-main.mjs runs as a worker thread')
const port = parentPort
/** @type {{ pgDir: string, settings: string[], socketPath: string | null }} */
const { pgDir, settings, socketPath } = workerData

/** What an error carries across: its message and PostgreSQL's fields (code, constraint...). */
function fields(/** @type {unknown} */ error) {
  /** @type {Record<string, unknown>} */
  const out = { message: error instanceof Error ? error.message : String(error) }
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (typeof value === 'string' || typeof value === 'number') out[key] = value
    }
  }
  return out
}

const db = new PGlite({
  dataDir: pgDir,
  startParams: [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])],
})
try {
  await db.waitReady
} catch (error) {
  port.postMessage({ failed: fields(error) })
  // nothing more to do here: the bridge ends the thread
  await new Promise(() => undefined)
}

/** One speaker's transactions (the server's, or one guest's): ids are its own. */
function session() {
  /** @type {Map<number, Open>} */
  const open = new Map()

  /** @param {number | undefined} tx */
  const on = (tx) => {
    if (tx === undefined) return db
    const found = open.get(tx)
    if (!found) throw new Error(`transaction ${tx} is not open`)
    return found.tx
  }

  /** Answers once PGlite has begun the transaction (after any other one ended). */
  const begin = (/** @type {number} */ id) =>
    new Promise((started, failed) => {
      let begun = false
      const done = db.transaction(
        (tx) =>
          new Promise((commit, rollback) => {
            begun = true
            open.set(id, { tx, commit: () => commit(undefined), rollback, done })
            started([])
          }),
      )
      done.catch((error) => {
        if (!begun) failed(error)
      })
    })

  /** Commits or rolls back; a failed commit is the caller's error, a rollback answers regardless. */
  const end = async (/** @type {number} */ id, /** @type {boolean} */ commit) => {
    const found = open.get(id)
    if (!found) throw new Error(`transaction ${id} is not open`)
    open.delete(id)
    if (commit) found.commit()
    else found.rollback(new Error('rolled back'))
    try {
      await found.done
    } catch (error) {
      if (commit) throw error
    }
    return []
  }

  return {
    open,
    /** @param {Call} call */
    async answer(call) {
      switch (call.op) {
        case 'query':
          return (await on(call.tx).query(call.text, call.values)).rows
        case 'exec':
          await on(call.tx).exec(call.text)
          return []
        case 'begin':
          return begin(call.tx)
        case 'end':
          return end(call.tx, call.commit)
        case 'close':
          throw new Error('only the server closes the database')
      }
    },
    async rollBackAll() {
      for (const id of [...open.keys()]) await end(id, false).catch(() => undefined)
    },
  }
}

/** @type {Map<import('node:net').Socket, ReturnType<typeof session>>} */
const guestSessions = new Map()

/** Command-line tools beside the server, over a Unix socket in a folder only this user may enter. */
function listenForGuests(/** @type {string} */ path) {
  rmSync(path, { force: true }) // a socket left by a process that is gone (we hold the lock)
  const server = createServer((socket) => {
    const guest = session()
    guestSessions.set(socket, guest)
    /** @type {NodeJS.Timeout | null} */
    let idle = null
    const watch = () => {
      if (idle) clearTimeout(idle)
      idle = guest.open.size > 0 ? setTimeout(() => socket.destroy(), GUEST_IDLE_MS) : null
    }
    let buffered = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk])
      while (buffered.length >= 4) {
        const size = buffered.readUInt32BE(0)
        if (buffered.length < 4 + size) break
        /** @type {Call} */
        const call = deserialize(buffered.subarray(4, 4 + size))
        buffered = buffered.subarray(4 + size)
        guest.answer(call).then(
          (rows) => reply(socket, { id: call.id, rows }),
          (error) => reply(socket, { id: call.id, error: fields(error) }),
        )
        watch()
      }
    })
    socket.on('error', () => undefined)
    socket.on('close', () => {
      if (idle) clearTimeout(idle)
      guestSessions.delete(socket)
      void guest.rollBackAll()
    })
  })
  server.on('error', () => undefined) // no socket (a path too long, a read-only folder): no guests
  server.listen(path)
  return server
}

/** @param {import('node:net').Socket} socket @param {unknown} answer */
function reply(socket, answer) {
  if (socket.destroyed) return
  const body = serialize(answer)
  const head = Buffer.alloc(4)
  head.writeUInt32BE(body.length)
  socket.write(Buffer.concat([head, body]))
}

const guests = socketPath ? listenForGuests(socketPath) : null
const server = session()
port.on('message', (/** @type {Call} */ call) => {
  const answering =
    call.op === 'close'
      ? (async () => {
          guests?.close()
          for (const [socket, guest] of guestSessions) {
            socket.destroy()
            await guest.rollBackAll()
          }
          await server.rollBackAll()
          await db.close()
          return []
        })()
      : server.answer(call)
  answering.then(
    (rows) => port.postMessage({ id: call.id, rows }),
    (error) => port.postMessage({ id: call.id, error: fields(error) }),
  )
})
port.postMessage({ ready: true })
