import type { Database, Transaction } from '../../platform/db/client.ts'

// What the schedule shows of campaigns changes when a campaign moves (approved, paused, resumed,
// cancelled, rejected) or its plays are reserved or freed. The composition root makes one AirChanges
// and hands its `changed` to the services that make those changes, which call it once their
// transaction committed (airTransactions): a change rolled back (a booking that lost a race, an
// error) tells nobody, and a read made while the change was still open cannot be kept past it. The
// schedule's kept reads of ad plays (on-air.ts) made before a change are not used again, so a change
// made through this server shows at the next fetch. Another instance's changes show within the kept
// reads' lifetime (one second), as its sold slots do (player/playout-cache.ts).

/** Tells that a change of what billboards show of campaigns committed. */
export type AirChanged = () => void

export type AirChanges = {
  changed: AirChanged
  /** How many changes were told: a read made under an older number is stale. */
  generation(): number
  /** Calls `listener` after each change told (the kept reads are dropped already). */
  onChange(listener: () => void): void
}

export function createAirChanges(): AirChanges {
  let generation = 0
  const listeners: (() => void)[] = []
  return {
    changed() {
      generation++
      for (const listener of listeners) listener()
    },
    generation: () => generation,
    onChange(listener) {
      listeners.push(listener)
    },
  }
}

/**
 * `database.transaction` that tells `changed` once the transaction committed; not when it threw
 * (rolled back). One that committed without changing anything tells too: it only drops kept reads.
 */
export function airTransactions(database: Database, changed: AirChanged) {
  return async <R>(work: (tx: Transaction) => Promise<R>): Promise<R> => {
    const result = await database.transaction(work)
    changed()
    return result
  }
}
