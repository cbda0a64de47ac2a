import type { Database } from '../platform/db/client.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import type { Processing } from './processing.ts'
import { claimAbandonedOrders, expireOrderLeases, releaseOrderLeases } from './repo.ts'

// Orders left Processing by an instance that is gone (crashed, killed, or this one before a restart)
// are claimed once their lease ends, and finished or failed (decision 015). The scheduler's
// `order-recovery` job (jobs.ts) looks for them on every instance.

export function createRecovery(deps: {
  database: Database
  processing: Processing
  lease: LeaseSettings
  log: Logger
}) {
  const { database: db, processing, lease, log } = deps

  return {
    /** Claims and processes the abandoned orders, ten at a time, until none is left or `signal` ends. */
    async recover(signal?: AbortSignal): Promise<number> {
      let count = 0
      for (;;) {
        const guids = await claimAbandonedOrders(db, lease, 10)
        if (guids.length === 0) break
        for (const guid of guids) {
          await processing
            .processOrder(guid)
            .catch((error: unknown) => log.error('order recovery failed', { guid, error }))
        }
        count += guids.length
        if (signal?.aborted) break
      }
      if (count > 0) log.info('recovered orders', { count })
      return count
    },
    /** At start: the embedded database is opened by one process at a time, so what it finds held a gone process held. */
    async takeOver(): Promise<void> {
      if (db.kind === 'pglite') await expireOrderLeases(db)
    },
    /**
     * Waits for the orders being processed here, and hands back any lease still held (used before
     * closing the database).
     */
    async drain(): Promise<void> {
      await processing.settle()
      await releaseOrderLeases(db, lease.owner)
    },
  }
}
