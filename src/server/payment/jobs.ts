import type { Database } from '../platform/db/client.ts'
import type { Job } from '../platform/scheduler.ts'
import { deleteOldWebhookEvents } from './events-repo.ts'
import type { PaymentService } from './service.ts'

// The payment module's background work, registered in the scheduler by compose.ts.

/**
 * Every minute, one instance at a time: sends again the refunds a crash or an outage left pending
 * (service.ts retryRefunds; each refund is keyed, so the money goes back once).
 */
export function refundRetryJob(payment: PaymentService): Job {
  return {
    name: 'refund-retry',
    everyMs: 60_000,
    oneInstance: true,
    run: () => payment.retryRefunds(),
  }
}

/** Stripe delivers an event for at most 3 days; its id is kept a month to recognise a replay. */
const WEBHOOK_EVENT_TTL_MS = 30 * 86_400_000

/** Every hour, one instance: forgets the ids of Stripe's events older than a month. */
export function webhookEventsSweepJob(database: Database, now: () => number): Job {
  return {
    name: 'stripe-events-sweep',
    everyMs: 3_600_000,
    oneInstance: true,
    run: () => deleteOldWebhookEvents(database, now(), WEBHOOK_EVENT_TTL_MS),
  }
}
