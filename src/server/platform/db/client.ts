import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import pg from 'pg'
import { sourcePath } from '../paths.ts'
import { lostConnection } from './errors.ts'
import { openPgliteGuest } from './pglite-guest.ts'
import { openPgliteThread } from './pglite-thread.ts'
import { compile, type Row, type Sql } from './sql.ts'
import { guardTransactions } from './tx-guard.ts'

export type { Row } from './sql.ts'

/** Runs statements: the database itself, or one transaction. */
export type Queryable = {
  /** One statement (its values as parameters); the rows it returns. */
  query<T extends Row>(statement: Sql<T>): Promise<T[]>
}

export type Transaction = Queryable & {
  /** A script of several statements without parameters (a migration file). */
  exec(script: string): Promise<void>
}

/**
 * The one way the server reaches its data, the same on PGlite and PostgreSQL: statements written
 * with sql`` (sql.ts), outside a transaction or inside one.
 */
export type Database = Queryable & {
  kind: 'pglite' | 'postgres'
  /** begin / commit on one connection; rollback when fn throws. */
  transaction<R>(fn: (tx: Transaction) => Promise<R>): Promise<R>
  close(): Promise<void>
  /** The embedded database's thread (PGlite only; pglite-thread.ts). */
  embedded?: {
    /** Its thread id while it runs, else null (down, restarting or closed). */
    threadId(): number | null
    /** Ends the thread at once, as a crash would (tests of what notices it). */
    crash(): Promise<void>
  }
}

/** What happens to the embedded database's thread (PGlite only): the composition root logs it. */
export type DatabaseEvents = {
  /** The thread died: every statement fails until it is back. */
  lost?(error: Error): void
  /** A new thread opened the same files. */
  restarted?(): void
  /** A new thread could not open them (it is tried again later). */
  restartFailed?(error: Error): void
}

export type OpenDatabaseOptions = {
  dataDir: string
  databaseUrl?: string | undefined
  events?: DatabaseEvents
  /**
   * A command-line tool: when a running server holds the embedded database, its statements go
   * through that server's database thread instead of being refused (pglite-guest.ts).
   */
  guest?: boolean
  /**
   * Refuse at once a statement sent to the database from inside one of its own transactions
   * (tx-guard.ts). On by default except in production: the guard follows each request's promises
   * (AsyncLocalStorage), which cost every request about 10 µs of the server's CPU (decision
   * 025). Production relies on the stall limit below instead.
   */
  guardTransactions?: boolean
  /**
   * How long a statement may wait for the database while a transaction holds what it needs and sends
   * nothing (the embedded database's one session; a pooled connection on PostgreSQL) before it fails:
   * a statement sent from inside its own transaction fails after this instead of never.
   */
  stalledTransactionMs?: number
}

/** A transaction that sent nothing for this long holds up others: as long as a tool may idle in one. */
export const STALLED_TRANSACTION_MS = 10_000

// PGlite's defaults (128 MB shared_buffers, and initdb inside the same process) put an embedded
// server above 800 MB of memory. The shop's data is small: these settings keep the server's peak
// under 400 MB (measured by `npm run bench`).
// Every statement is prepared on the embedded database's thread (pglite-thread-main.mjs), but
// PostgreSQL's default plan choice kept planning the order's writes afresh on each call (their
// custom plans looked cheaper than a generic one): about a third of a rate-limit upsert's time and
// a tenth of an order's. Plans are made once per statement here; on data this small a plan that
// does not see the values (a LIKE prefix in the console's search) costs a scan of a few thousand
// rows at most.
const PGLITE_SETTINGS = [
  'shared_buffers=8MB',
  'work_mem=2MB',
  'maintenance_work_mem=16MB',
  'temp_buffers=2MB',
  'wal_buffers=1MB',
  'effective_cache_size=64MB',
  'plan_cache_mode=force_generic_plan',
]

const INIT_SCRIPT = sourcePath('server', 'platform', 'db', 'pglite-init.mjs')

// initdb runs the WebAssembly Postgres twice more beside the server's own copy; its memory is never
// given back to the system. Creating the cluster in a short-lived child process keeps the server small.
function initPgliteDir(pgDir: string) {
  if (existsSync(join(pgDir, 'PG_VERSION'))) return
  mkdirSync(pgDir, { recursive: true })
  const result = spawnSync(process.execPath, [INIT_SCRIPT, pgDir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (result.status !== 0) {
    throw new Error(`Could not create the embedded database in ${pgDir}: ${result.stderr}`)
  }
}

/**
 * When a process started, as Linux counts it (clock ticks since boot, field 22 of /proc/<pid>/stat):
 * with the pid, it names one process for good, since a pid is reused but never with the same start.
 * Null where there is no /proc (or no such process).
 */
export function processStartToken(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command name (field 2) is in parentheses and may hold spaces: count from the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[19] ?? null
  } catch {
    return null
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: alive, but another user's
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Whether the lock's owner still holds it: a live process with the start token the lock recorded
 * (a stale lock naming a live but unrelated process, its pid reused, blocked the
 * start). A lock of the older form (a pid alone) counts only when that pid is a node process.
 */
function lockHeld(content: string): { pid: number } | null {
  const [pidText, token] = content.trim().split(/\s+/)
  const pid = Number(pidText)
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isAlive(pid)) return null
  const current = processStartToken(pid)
  if (current === null) return { pid } // no /proc: trust the pid alone
  if (token !== undefined) return token === current ? { pid } : null
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    return /(^|\/)node(\0|$)/.test(cmdline.split('\0')[0] ?? '') ? { pid } : null
  } catch {
    return { pid }
  }
}

/**
 * The embedded database belongs to one process at a time (two would corrupt it): a lock file with
 * the owner's pid and start token. A lock left by a process that is gone is taken over.
 */
function lockDataDir(dataDir: string): { unlock: () => void } | { heldBy: number } {
  const lock = join(dataDir, 'pglite.lock')
  mkdirSync(dataDir, { recursive: true })
  const mine = `${process.pid} ${processStartToken(process.pid) ?? ''}`.trim()
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, mine, { flag: 'wx' })
      return { unlock: () => rmSync(lock, { force: true }) }
    } catch {
      let content = ''
      try {
        content = readFileSync(lock, 'utf8')
      } catch {}
      const held = lockHeld(content)
      if (held) return { heldBy: held.pid }
      rmSync(lock, { force: true })
    }
  }
  throw new Error(`Could not lock ${lock}`)
}

/**
 * Where the owner's database thread lets command-line tools in (pglite-thread-main.mjs): a socket in
 * a folder only this user may enter (whoever reaches the socket runs any statement). Null when
 * DATA_DIR's path is too long for a Unix socket's (108 bytes on Linux): tools are then refused.
 */
function guestSocketPath(dataDir: string): string | null {
  const path = join(dataDir, 'run', 'pglite.sock')
  return Buffer.byteLength(path) < 100 ? path : null
}

function guestSocketFolder(socketPath: string): void {
  mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 })
  chmodSync(dirname(socketPath), 0o700)
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const database = await openUnguarded(options)
  const guard = options.guardTransactions ?? process.env.NODE_ENV !== 'production'
  return guard ? guardTransactions(database) : database
}

async function openUnguarded(options: OpenDatabaseOptions): Promise<Database> {
  const stallMs = options.stalledTransactionMs ?? STALLED_TRANSACTION_MS
  if (options.databaseUrl) return openPostgres(options.databaseUrl, stallMs)
  const dataDir = resolve(options.dataDir)
  const socketPath = guestSocketPath(dataDir)
  const lock = lockDataDir(dataDir)
  if ('heldBy' in lock) {
    // A command-line tool joins the server that holds it; a second server never does (it would
    // take over the first one's leases, decision 015).
    const guest = options.guest && socketPath ? await openPgliteGuest(socketPath) : null
    if (guest) return guest
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${lock.heldBy}. Stop it first (or use DATABASE_URL).`,
    )
  }
  const pgDir = join(dataDir, 'pg')
  let database: Database
  try {
    initPgliteDir(pgDir)
    if (socketPath) guestSocketFolder(socketPath)
    database = await openPgliteThread({
      pgDir,
      settings: PGLITE_SETTINGS,
      socketPath,
      stallMs,
      ...(options.events ? { events: options.events } : {}),
    })
  } catch (error) {
    lock.unlock()
    throw error
  }
  return {
    ...database,
    close: async () => {
      try {
        await database.close()
      } finally {
        lock.unlock()
      }
    },
  }
}

// PGlite answers bigint (int8) columns as numbers; node-postgres as strings by default. Every bigint of
// the shop (epoch milliseconds, byte sizes, counts) fits a double exactly, so both answer numbers.
const INT8 = 20
const pgTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
}

async function openPostgres(url: string, stallMs: number): Promise<Database> {
  // A statement waits at most stallMs for a pooled connection: were every connection held by a
  // transaction that waits for a statement of its own, sent outside it, all would wait forever.
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: pgTypes,
    connectionTimeoutMillis: stallMs,
  })
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on('error', () => undefined)
  // A statement or a connection that cannot reach the server fails as a class 08 error, as PGlite's
  // thread does (errors.ts lostConnection): the HTTP edge answers 503, not 500.
  const run = async <T extends Row>(on: pg.Pool | pg.PoolClient, statement: Sql<T>) => {
    const { text, values } = compile(statement)
    try {
      return (await on.query(text, values)).rows as T[]
    } catch (error) {
      throw lostConnection(error)
    }
  }
  return {
    kind: 'postgres',
    query: (statement) => run(pool, statement),
    transaction: async (fn) => {
      const client = await pool.connect().catch((error: unknown) => {
        throw lostConnection(error)
      })
      try {
        await client.query('begin').catch((error: unknown) => {
          throw lostConnection(error)
        })
        const result = await fn({
          query: (statement) => run(client, statement),
          exec: async (script) => {
            await client.query(script)
          },
        })
        await client.query('commit').catch((error: unknown) => {
          throw lostConnection(error)
        })
        return result
      } catch (error) {
        await client.query('rollback').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
