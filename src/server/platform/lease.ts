import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'

// The lease discipline shared by content jobs (content/job-queue.ts) and orders in Processing
// (order/service.ts). An instance claims a row by writing its id and an expiry computed by the
// database's clock (instances' clocks may differ; the database's is one), renews the expiry while it
// works, and writes the outcome only while it still owns the row. Another instance takes over a row
// only once its lease has ended: the owner died or stalled for longer than the lease.

export type LeaseSettings = {
  /** Who holds a lease: unique per running instance. */
  owner: string
  /** How long a lease lasts without renewal. */
  leaseMs: number
}

/** A new instance id: the host, the process and a random part (a restarted pid is a new instance). */
export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
}

/**
 * Renews a lease every third of its length until stopped; `renew` answers false when the lease was
 * lost (taken over after a stall), and then `onLost` is called once.
 */
export function heartbeat(
  leaseMs: number,
  renew: () => Promise<boolean>,
  onLost: () => void,
  onError: (error: unknown) => void,
): () => void {
  let stopped = false
  const timer = setInterval(
    () => {
      renew().then(
        (held) => {
          if (!held && !stopped) {
            stopped = true
            clearInterval(timer)
            onLost()
          }
        },
        (error: unknown) => onError(error),
      )
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  )
  timer.unref()
  return () => {
    stopped = true
    clearInterval(timer)
  }
}
