import type { LeaseSettings } from '../platform/lease.ts'
import type { Job } from '../platform/scheduler.ts'
import type { OrderService } from './service.ts'

// The order module's background work, registered in the scheduler by compose.ts.

/**
 * Finishes the orders a gone instance left Processing (recovery.ts), on every instance (each claims
 * different orders). It looks every third of a lease, so an order whose instance died is finished
 * within about a lease and a third of its last renewal; at shutdown it waits for the orders being
 * processed here and hands their leases back.
 */
export function orderRecoveryJob(orders: OrderService, lease: LeaseSettings): Job {
  return {
    name: 'order-recovery',
    everyMs: Math.max(100, Math.floor(lease.leaseMs / 3)),
    start: () => orders.takeOverLeases(),
    run: ({ signal }) => orders.recover(signal),
    stop: () => orders.drain(),
  }
}

/**
 * Forgets the personal data of orders whose lifetime ended (ORDER_CONTENT_TTL_DAYS after their last
 * slot: lifetime.ts), on one instance at a time, so nothing is forgotten twice at once.
 */
export function orderDataLifetimeJob(orders: OrderService, now: () => number): Job {
  return {
    name: 'order-data-lifetime',
    everyMs: 60 * 60_000,
    oneInstance: true,
    run: async () => {
      await orders.lifetime.sweep(now())
    },
  }
}

/**
 * Settles the orders whose wait for the cardholder ended (PAYMENT_ACTION_MINUTES): a charge the bank
 * confirmed meanwhile confirms its order, any other is cancelled and the order fails, its slots free
 * (authentication.ts). On one instance at a time; each order is settled once either way.
 */
export function authenticationTimeoutJob(orders: OrderService): Job {
  return {
    name: 'authentication-timeout',
    everyMs: 30_000,
    oneInstance: true,
    run: async ({ signal }) => {
      await orders.endWaits(signal)
    },
  }
}
