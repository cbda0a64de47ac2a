// Statements sent to the embedded database's thread and their answers matched back, as a Database
// (client.ts): used by the server, which owns the thread (pglite-thread.ts), and by a command-line
// tool run beside it, which reaches the same thread through its socket (pglite-guest.ts). The
// protocol is pglite-thread-main.mjs's.
import type { Database, Transaction } from './client.ts'
import { compile, type Row, type Sql } from './sql.ts'

export type Call =
  | { op: 'query'; text: string; values: unknown[]; tx?: number | undefined }
  | { op: 'exec'; text: string; tx?: number | undefined }
  | { op: 'begin'; tx: number }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' }

export type ErrorFields = Record<string, unknown> & { message: string }

export type Answer = { id: number; rows: Row[] } | { id: number; error: ErrorFields }

/** An error with PostgreSQL's fields (code, constraint...), as both drivers report theirs. */
export function databaseError(fields: ErrorFields): Error {
  return Object.assign(new Error(fields.message), fields)
}

/** What every statement fails with while the database is not there: a connection failure. */
export function unavailable(why: string): Error {
  return Object.assign(new Error(`The embedded database is not running (${why})`), {
    code: '08006',
  })
}

export type Channel = {
  /** Sends one call; throws when it cannot be sent (a value that cannot be cloned). */
  post(call: Call & { id: number }): void
  /** Something is waiting for an answer (ref), or nothing is (unref: the process may exit). */
  busy(waiting: boolean): void
}

export type Bridge = {
  /** The channel statements go through, or null while there is none (the reason why). */
  connect(channel: Channel): void
  disconnect(why: string): void
  settle(answer: Answer): void
  send(call: Call): Promise<Row[]>
  /** A Database over this bridge (close is the owner's). */
  database(close: () => Promise<void>): Database
}

export function createBridge(): Bridge {
  let channel: Channel | null = null
  let down = 'not started'
  /** Bumped at each connection: a transaction begun on a thread that died cannot go on on the next. */
  let generation = 0
  let nextId = 1
  let nextTx = 1
  const waiting = new Map<number, { resolve: (rows: Row[]) => void; reject: (e: Error) => void }>()

  const send = (call: Call): Promise<Row[]> => {
    const current = channel
    if (!current) return Promise.reject(unavailable(down))
    return new Promise<Row[]>((resolve, reject) => {
      const id = nextId++
      waiting.set(id, { resolve, reject })
      if (waiting.size === 1) current.busy(true)
      try {
        current.post({ ...call, id })
      } catch (error) {
        waiting.delete(id)
        if (waiting.size === 0) current.busy(false)
        reject(error as Error)
      }
    })
  }

  const run = async <T extends Row>(statement: Sql<T>, tx?: number): Promise<T[]> => {
    const { text, values } = compile(statement)
    return (await send({ op: 'query', text, values, tx })) as T[]
  }

  return {
    connect(next) {
      channel = next
      generation++
    },
    disconnect(why) {
      channel?.busy(false)
      channel = null
      down = why
      const failed = [...waiting.values()]
      waiting.clear()
      for (const call of failed) call.reject(unavailable(why))
    },
    settle(answer) {
      const call = waiting.get(answer.id)
      if (!call) return
      waiting.delete(answer.id)
      if (waiting.size === 0) channel?.busy(false)
      if ('rows' in answer) call.resolve(answer.rows)
      else call.reject(databaseError(answer.error))
    },
    send,
    database: (close) => ({
      kind: 'pglite',
      query: (statement) => run(statement),
      transaction: async <R>(fn: (tx: Transaction) => Promise<R>): Promise<R> => {
        const tx = nextTx++
        await send({ op: 'begin', tx })
        const begunOn = generation
        const alive = () => {
          if (generation !== begunOn) throw unavailable('started again during a transaction')
        }
        let result: R
        try {
          result = await fn({
            query: async (statement) => {
              alive()
              return run(statement, tx)
            },
            exec: async (script) => {
              alive()
              await send({ op: 'exec', text: script, tx })
            },
          })
        } catch (error) {
          if (generation === begunOn) {
            await send({ op: 'end', tx, commit: false }).catch(() => undefined)
          }
          throw error
        }
        alive()
        await send({ op: 'end', tx, commit: true })
        return result
      },
      close,
    }),
  }
}
