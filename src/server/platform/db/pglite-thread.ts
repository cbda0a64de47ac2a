// The embedded database on its own thread (decision 022). PGlite on the server's one thread took about
// 70 % of it while orders were placed; here it answers from a worker thread (pglite-thread-main.mjs)
// behind a request/answer bridge (bridge.ts), and the server's thread only sends statements and
// receives rows.
//
// A thread that dies (an uncaught error, a WebAssembly abort, terminate()) is noticed at once: every
// statement waiting on it fails, every later one fails at once with SQLSTATE 08006 (connection failure,
// as with a PostgreSQL whose server went away) so readiness answers 503, and the thread is started again
// on the same files, as a pool reconnects to a PostgreSQL that came back (at once, then after 1, 2, 5,
// 10 and every 30 seconds while it fails). Postgres's own crash recovery replays its log on that start,
// as after a kill -9 of the whole server.
import { Worker } from 'node:worker_threads'
import { sourcePath } from '../paths.ts'
import { type Answer, createBridge, databaseError, type ErrorFields } from './bridge.ts'
import type { Database, DatabaseEvents } from './client.ts'

const ENTRY = sourcePath('server', 'platform', 'db', 'pglite-thread-main.mjs')

/** Waits between restarts of a thread that keeps failing to start: the last repeats. */
const RESTART_DELAYS_MS = [0, 1_000, 2_000, 5_000, 10_000, 30_000]

type Started = { ready: true } | { failed: ErrorFields }

export type PgliteThreadOptions = {
  pgDir: string
  /** PostgreSQL settings for the embedded cluster (`name=value`). */
  settings: readonly string[]
  /** Where the thread lets command-line tools in while it runs (pglite-guest.ts), or null. */
  socketPath: string | null
  /** How long a statement waits behind a transaction that sends nothing before it fails. */
  stallMs: number
  events?: DatabaseEvents
  /** A ceiling for the thread's JavaScript heap (MB), past which it dies and is started again. */
  heapLimitMb?: number
}

/**
 * Starts the thread and opens the cluster in `pgDir` (which must exist: client.ts creates it). Resolves
 * once it answers; rejects if it cannot open.
 */
export async function openPgliteThread(options: PgliteThreadOptions): Promise<Database> {
  const events = options.events ?? {}
  const bridge = createBridge()
  let worker: Worker | null = null
  let closing = false
  let restartTimer: NodeJS.Timeout | null = null
  let failedStarts = 0

  const start = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const thread = new Worker(ENTRY, {
        workerData: {
          pgDir: options.pgDir,
          settings: options.settings,
          socketPath: options.socketPath,
          stallMs: options.stallMs,
        },
        // plain JavaScript: the server's own --import tsx is not wanted there
        execArgv: [],
        ...(options.heapLimitMb
          ? { resourceLimits: { maxOldGenerationSizeMb: options.heapLimitMb } }
          : {}),
      })
      let lastError: Error | null = null
      let ready = false
      thread.on('message', (message: Answer | Started) => {
        if ('id' in message) bridge.settle(message)
        else if ('ready' in message) {
          ready = true
          worker = thread
          bridge.connect({
            post: (call) => thread.postMessage(call),
            // an idle thread must not keep the process alive (a tool that forgot to close would hang)
            busy: (waiting) => (waiting ? thread.ref() : thread.unref()),
          })
          thread.unref()
          resolve()
        } else {
          reject(databaseError(message.failed))
          void thread.terminate()
        }
      })
      thread.on('error', (error) => {
        lastError = error
      })
      thread.on('exit', (exitCode) => {
        if (!ready) {
          reject(
            lastError ?? new Error(`the database thread exited (${exitCode}) before it opened`),
          )
          return
        }
        if (worker !== thread) return
        worker = null
        const why = closing
          ? 'closed'
          : (lastError?.message ?? `its thread exited with code ${exitCode}`)
        bridge.disconnect(why)
        if (closing) return
        events.lost?.(lastError ?? new Error(why))
        scheduleRestart()
      })
    })

  const scheduleRestart = () => {
    const delay = RESTART_DELAYS_MS[Math.min(failedStarts, RESTART_DELAYS_MS.length - 1)] ?? 30_000
    restartTimer = setTimeout(() => {
      restartTimer = null
      start().then(
        () => {
          failedStarts = 0
          if (closing) void close()
          else events.restarted?.()
        },
        (error: unknown) => {
          failedStarts++
          if (closing) return
          events.restartFailed?.(error as Error)
          scheduleRestart()
        },
      )
    }, delay)
    // a server that is shutting down does not wait for the next attempt
    restartTimer.unref()
  }

  const close = async () => {
    closing = true
    if (restartTimer) clearTimeout(restartTimer)
    const thread = worker
    if (!thread) return
    try {
      await bridge.send({ op: 'close' })
    } finally {
      await thread.terminate()
    }
  }

  await start()
  return {
    ...bridge.database(close),
    embedded: {
      threadId: () => worker?.threadId ?? null,
      crash: async () => {
        await worker?.terminate()
      },
    },
  }
}
