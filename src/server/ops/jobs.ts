import type { Job } from '../platform/scheduler.ts'
import type { OpsService } from './service.ts'

// The operators' module's background work, registered in the scheduler by compose.ts.

/**
 * Every minute, one instance at a time: cancels and refunds the orders whose first slot began while
 * still under review, and sends again the refunds a crash or an outage left pending (service.ts
 * sweep; each change is conditional, so a second instance would find nothing more to do).
 */
export function reviewExpiryJob(ops: OpsService): Job {
  return {
    name: 'review-expiry',
    everyMs: 60_000,
    oneInstance: true,
    run: () => ops.sweep(),
  }
}
