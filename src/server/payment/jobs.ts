import type { Job } from '../platform/scheduler.ts'
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
