import type { Job } from '../platform/scheduler.ts'
import type { MakeGoodService } from './service.ts'

// The make-good module's background work, registered in the scheduler by compose.ts.

/**
 * Every minute, one instance at a time: decides the slots whose make-good is now due and refunds
 * what they owe (service.ts decideDue; each slot is decided once under its order's lock, so a second
 * instance, or a pass after a crash, finds nothing more to decide).
 */
export function makeGoodsJob(makeGoods: MakeGoodService): Job {
  return {
    name: 'make-goods',
    everyMs: 60_000,
    oneInstance: true,
    run: () => makeGoods.decideDue(),
  }
}
