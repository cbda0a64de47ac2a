import { AsyncLocalStorage } from 'node:async_hooks'
import type { Database } from './client.ts'

// A statement sent to the database itself (not to the transaction) from inside one of its
// transactions waits for a connection that transaction holds: on the embedded database, one session,
// it waits forever and every other statement of the server queues behind it; on PostgreSQL it reads
// outside the transaction and, with every pooled connection in such a transaction, waits forever too.
// It happens quietly when a read through some service's cache misses (its rows expired), so the
// guard refuses it at once, on both databases, with an error that says where to look. It runs outside
// production only (client.ts, decision 025): there the wait ends at a stall limit instead.

const inside = new AsyncLocalStorage<{ database: Database; open: boolean }>()

export class StatementOutsideTransaction extends Error {
  constructor() {
    super(
      'A statement was sent to the database from inside one of its transactions: it would wait for ' +
        'that transaction forever. Read it before the transaction begins, or through the transaction.',
    )
    this.name = 'StatementOutsideTransaction'
  }
}

/** The database, refusing a statement or a transaction begun inside one of its own transactions. */
export function guardTransactions(database: Database): Database {
  const guarded: Database = {
    ...database,
    query: (statement) => {
      const current = inside.getStore()
      if (current?.open && current.database === guarded) {
        return Promise.reject(new StatementOutsideTransaction())
      }
      return database.query(statement)
    },
    transaction: (fn) => {
      const current = inside.getStore()
      if (current?.open && current.database === guarded) {
        return Promise.reject(new StatementOutsideTransaction())
      }
      return database.transaction((tx) => {
        // Work the transaction started and did not wait for may go on after it ends: then it is free.
        const scope = { database: guarded, open: true }
        return inside
          .run(scope, () => fn(tx))
          .finally(() => {
            scope.open = false
          })
      })
    },
  }
  return guarded
}
