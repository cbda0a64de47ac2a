import type { Database } from '../platform/db/client.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import type { Processing } from './processing.ts'
import { claimAbandonedOrders, expireOrderLeases, releaseOrderLeases } from './repo.ts'

// Orders left Processing by an instance that is gone (crashed, killed, or this one before a restart)
// are claimed once their lease ends, and finished or failed (decision 015).

export function createRecovery(deps: {
  database: Database
  processing: Processing
  lease: LeaseSettings
  log: Logger
}) {
  const { database: db, processing, lease, log } = deps
  let stopped = false
  let sweeping: Promise<unknown> | null = null
  let sweepTimer: ReturnType<typeof setInterval> | null = null

  /** Claims and processes the abandoned orders, ten at a time. Answers how many. */
  async function recover(): Promise<number> {
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
      if (stopped) break
    }
    if (count > 0) log.info('recovered orders', { count })
    return count
  }

  // Every instance looks for abandoned orders at start and then every third of a lease, so an order
  // whose instance died is finished within about a lease and a third of its last renewal.
  const sweep = () => {
    if (sweeping || stopped) return
    sweeping = recover()
      .catch((error: unknown) => log.error('order recovery failed', { error }))
      .finally(() => {
        sweeping = null
      })
  }

  return {
    recover,
    /** Starts looking for abandoned orders (main.ts, once the server listens). */
    async start(): Promise<void> {
      // The embedded database is opened by one process at a time: what it finds held, a gone process held.
      if (db.kind === 'pglite') await expireOrderLeases(db)
      sweep()
      sweepTimer = setInterval(sweep, Math.max(100, Math.floor(lease.leaseMs / 3)))
      sweepTimer.unref()
    },
    /**
     * Stops claiming orders, waits for those being processed, and hands back any lease still held
     * (used before closing the database).
     */
    async drain(): Promise<void> {
      stopped = true
      if (sweepTimer) clearInterval(sweepTimer)
      await sweeping
      await processing.settle()
      await releaseOrderLeases(db, lease.owner)
    },
  }
}
