// @ts-check
// The embedded database's own thread (pglite-thread.ts starts it; decision 022): PGlite answers here,
// so its WebAssembly Postgres never runs on the thread that parses HTTP. Plain JavaScript, loaded
// without tsx: the thread starts in tens of milliseconds and carries no compiler.
//
// The protocol (bridge.ts), one message each way per call, structured-cloned so that dates, bytes and
// JSON keep their types: {id, op: 'query', text, values, tx?} · {id, op: 'exec', text, tx?} ·
// {id, op: 'begin', tx} · {id, op: 'end', tx, commit} · {id, op: 'close'}; each is answered by
// {id, rows} or {id, error}.
//
// A statement goes to Postgres as one pipeline of wire-protocol messages in one call into
// WebAssembly (PGlite's own query() makes six), under a name the first time its text is seen, so
// Postgres parses and plans it once (about a third of a statement's cost here); its values and rows
// are converted by node-postgres's own code, so both engines answer the same types (platform/db/
// client.ts). Those are internals none of the three packages promise to keep (pg/lib/utils.js,
// pg-protocol/dist/parser.js, execProtocolRawStream): package.json pins them exactly, and
// pglite-internals.test.ts checks each part the thread uses before a pin is raised.
// PGlite is one session: a transaction holds it from 'begin' to 'end', and a statement of anyone
// else waits for the end, so the statements of one transaction never interleave with others'. A
// statement outside a transaction runs in one synchronous call: nothing interleaves with it.
//
// The server speaks it over the thread's port. Command-line tools run beside the server (import,
// operator, player-link) speak it over a Unix socket in DATA_DIR (pglite-guest.ts), each message a
// 4-byte length and v8.serialize's bytes; a guest's transactions are rolled back when it goes away,
// or when it leaves one idle for GUEST_IDLE_MS (it would hold the server's every statement).
import { rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { deserialize, serialize as v8serialize } from 'node:v8'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import pgUtils from 'pg/lib/utils.js'
import { serialize } from 'pg-protocol'
import parserModule from 'pg-protocol/dist/parser.js'

/** @typedef {{ id: number, op: 'query', text: string, values: unknown[], tx?: number }
 *   | { id: number, op: 'exec', text: string, tx?: number }
 *   | { id: number, op: 'begin', tx: number }
 *   | { id: number, op: 'end', tx: number, commit: boolean }
 *   | { id: number, op: 'close' }} Call */
/** @typedef {Record<string, unknown>} Row */

const GUEST_IDLE_MS = 10_000
/** Statements kept prepared; past this many (texts made up at run time), new ones are not kept. */
const MAX_PREPARED = 400
// node-postgres's conversions, with bigint as a number as the PostgreSQL path has it (client.ts)
const INT8 = 20
const asNumber = (/** @type {string} */ value) => Number(value)
const parserOf = (/** @type {number} */ oid) =>
  oid === INT8 ? asNumber : pg.types.getTypeParser(oid, 'text')

if (!parentPort) throw new Error('pglite-thread-main.mjs runs as a worker thread')
const port = parentPort
/** @type {{ pgDir: string, settings: string[], socketPath: string | null, stallMs: number }} */
const { pgDir, settings, socketPath, stallMs } = workerData
// the limit is the server's (client.ts STALLED_TRANSACTION_MS): without it every wait would fail
if (typeof stallMs !== 'number' || !(stallMs > 0)) throw new Error('workerData.stallMs is required')

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

// ---- one statement, one call into Postgres

let parser = new parserModule.Parser()
/** @type {Map<string, string>} statement text -> its prepared name */
const prepared = new Map()
let nextName = 1

// PGlite's execProtocolRawSync gives Postgres's answer to PGlite's own reader, which parses every
// message once more and keeps what it parsed until a call of PGlite's query API (none is made
// here): every statement was parsed twice and its messages kept for good, so the server's memory
// grew with each one (20,000 calls of a 20-row select: 95 MB more heap, 130 µs a call, against
// 15 µs and nothing kept through the stream below). execProtocolRawStream hands the bytes to a
// callback instead; without syncToFs its work is done before it returns, and its promise only
// reports what threw inside it.
/** @type {Buffer[]} */
let answer = []
/** @type {unknown} */
let lastThrown = null
// the bytes are a view of WebAssembly's memory, which the next message overwrites: copied
const collect = (/** @type {Uint8Array} */ bytes) => void answer.push(Buffer.from(bytes))
const thrown = (/** @type {unknown} */ error) => {
  lastThrown = error
}

/** One exchange with Postgres: the bytes of its answer. */
function exchange(/** @type {Buffer} */ message) {
  answer = []
  db.execProtocolRawStream(message, { syncToFs: false, onRawData: collect }).catch(thrown)
  const chunks = answer
  answer = []
  return chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]) : Buffer.concat(chunks)
}

/**
 * Sends messages and reads Postgres's answer: the rows (converted), whether a Parse succeeded, the
 * command's tag, or the error it raised. An answer without its closing ReadyForQuery is an error:
 * PGlite threw in the middle of it.
 * @param {Buffer[]} messages
 */
function roundTrip(messages) {
  const reply = exchange(Buffer.concat(messages))
  /** @type {{ name: string, parse: (v: string) => unknown }[]} */
  let columns = []
  /** @type {Row[]} */
  const rows = []
  /** @type {unknown} */
  let error = null
  let parsed = false
  let command = ''
  let ready = false
  parser.parse(reply, (message) => {
    switch (message.name) {
      case 'parseComplete':
        parsed = true
        break
      case 'rowDescription':
        columns = message.fields.map((f) => ({ name: f.name, parse: parserOf(f.dataTypeID) }))
        break
      case 'dataRow': {
        /** @type {Row} */
        const row = {}
        for (let i = 0; i < columns.length; i++) {
          const column = /** @type {(typeof columns)[number]} */ (columns[i])
          const value = message.fields[i]
          row[column.name] = value === null || value === undefined ? null : column.parse(value)
        }
        rows.push(row)
        break
      }
      case 'commandComplete':
        command = message.text
        break
      case 'error':
        error = message
        break
      case 'readyForQuery':
        ready = true
        break
    }
  })
  if (!ready) {
    parser = new parserModule.Parser() // not to read the rest of a broken answer into the next
    const cause = lastThrown instanceof Error ? `: ${lastThrown.message}` : ''
    throw new Error(`The embedded database stopped in the middle of its answer${cause}`)
  }
  return { rows, error, parsed, command }
}

/** A statement with its values, as a named prepared statement once its text was seen. */
function runStatement(/** @type {string} */ text, /** @type {unknown[]} */ values) {
  let name = prepared.get(text)
  const messages = []
  let naming = null
  if (name === undefined) {
    name = prepared.size < MAX_PREPARED ? `s${nextName++}` : ''
    naming = name || null
    messages.push(serialize.parse({ name, text }))
  }
  messages.push(
    serialize.bind({ statement: name, values: values.map((v) => pgUtils.prepareValue(v)) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  )
  const answer = roundTrip(messages)
  if (naming && answer.parsed) prepared.set(text, naming)
  if (answer.error) {
    // A table changed under a kept plan whose columns it fixed: forget it, and try once afresh.
    const code = /** @type {{ code?: string }} */ (answer.error).code
    if (!naming && code === '0A000' && prepared.delete(text)) {
      roundTrip([serialize.close({ type: 'S', name }), serialize.sync()])
      return runStatement(text, values)
    }
    throw answer.error
  }
  return answer.rows
}

/** A script of statements without values (a migration), or BEGIN / COMMIT / ROLLBACK. */
function runScript(/** @type {string} */ text) {
  const answer = roundTrip([serialize.query(text)])
  if (answer.error) throw answer.error
  return answer
}

// ---- who holds the one session

/** The transaction holding the session ({speaker, tx}) and when it last sent a statement, or null. */
/** @type {{ speaker: object, tx: number, active: number } | null} */
let holder = null
/** @type {(() => void)[]} */
let waiting = []

/**
 * Resolves at the next release of the session (callers check `holder` again, in a loop). Rejects
 * when the transaction holding it has sent nothing for `stallMs` meanwhile: it waits, it seems, for
 * this very statement, sent to the database from inside it (client.ts guards against that where the
 * guard runs; in production this ends the wait instead of every statement's, for good). The
 * statement fails as PostgreSQL's statement_timeout fails one, and its transaction rolls back when
 * the error reaches it.
 */
function released() {
  const behind = holder
  return new Promise((resolve, reject) => {
    /** @type {NodeJS.Timeout | undefined} */
    let timer
    const check = () => {
      if (holder !== behind || !behind) return
      const idle = Date.now() - behind.active
      if (idle < stallMs) {
        timer = setTimeout(check, stallMs - idle)
        return
      }
      reject(
        Object.assign(
          new Error(
            `canceling statement: it waited ${Math.round(idle / 1000)} s behind a transaction that sent nothing meanwhile (a statement sent to the database from inside one of its transactions?)`,
          ),
          { code: '57014' },
        ),
      )
    }
    if (behind) timer = setTimeout(check, Math.max(0, behind.active + stallMs - Date.now()))
    waiting.push(() => {
      clearTimeout(timer)
      resolve(undefined)
    })
  })
}

function release() {
  holder = null
  const woken = waiting
  waiting = []
  for (const wake of woken) wake()
}

/** One speaker's calls (the server's, or one guest's): transaction ids are its own. */
function session() {
  const speaker = {}
  /** @type {Set<number>} */
  const open = new Set()
  const holds = (/** @type {number | undefined} */ tx) => {
    if (tx === undefined) return false
    if (!open.has(tx) || holder?.speaker !== speaker || holder.tx !== tx) {
      throw new Error(`transaction ${tx} is not open`)
    }
    holder.active = Date.now()
    return true
  }
  const end = (/** @type {number} */ tx, /** @type {boolean} */ commit) => {
    holds(tx)
    open.delete(tx)
    try {
      const { command } = runScript(commit ? 'COMMIT' : 'ROLLBACK')
      // COMMIT of a transaction a failed statement aborted rolls back: not the commit asked for
      if (commit && command === 'ROLLBACK') {
        throw Object.assign(
          new Error('The transaction was rolled back (a statement in it failed)'),
          {
            code: '25P02',
          },
        )
      }
    } finally {
      release()
    }
    return []
  }
  return {
    open,
    /** @param {Call} call @returns {Promise<Row[]>} */
    async answer(call) {
      switch (call.op) {
        case 'query': {
          const mine = holds(call.tx)
          if (!mine) while (holder !== null) await released()
          const rows = runStatement(call.text, call.values)
          // a long statement is the transaction's work, not its idleness
          if (mine && holder) holder.active = Date.now()
          return rows
        }
        case 'exec': {
          const mine = holds(call.tx)
          if (!mine) while (holder !== null) await released()
          runScript(call.text)
          if (mine && holder) holder.active = Date.now()
          return []
        }
        case 'begin':
          // checked and taken in one continuation: every waiter is woken at a release, and one
          // that returned from a helper first would take the session a tick after another did
          while (holder !== null) await released()
          holder = { speaker, tx: call.tx, active: Date.now() }
          open.add(call.tx)
          try {
            runScript('BEGIN')
          } catch (error) {
            open.delete(call.tx)
            release()
            throw error
          }
          return []
        case 'end':
          return end(call.tx, call.commit)
        case 'close':
          throw new Error('only the server closes the database')
      }
    },
    rollBackAll() {
      for (const tx of [...open]) {
        try {
          end(tx, false)
        } catch {}
      }
    },
  }
}

// ---- command-line tools beside the server

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
      guest.rollBackAll()
    })
  })
  server.on('error', () => undefined) // no socket (a path too long, a read-only folder): no guests
  server.listen(path)
  return server
}

/** @param {import('node:net').Socket} socket @param {unknown} answer */
function reply(socket, answer) {
  if (socket.destroyed) return
  const body = v8serialize(answer)
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
            guest.rollBackAll()
          }
          server.rollBackAll()
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
