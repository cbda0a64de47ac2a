import { eventWindowEpochMs } from '../../domain/event.ts'
import { lastDecidableSlot, makeGoodOf } from '../../domain/make-good.ts'
import { chargedCents } from '../../domain/ops.ts'
import { devicesOfEvent, recentEventSlugs } from '../catalogue/reads.ts'
import type { CatalogueReads } from '../catalogue/service.ts'
import { type DecidableBound, ordersEndedWithin, ordersForPlays } from '../order/reads.ts'
import type { OrderService } from '../order/service.ts'
import type { PaymentService } from '../payment/service.ts'
import type { Database } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { playsOfOrder } from '../player/reads.ts'
import { insertMakeGood, undecided } from './repo.ts'

// Make-goods (src/domain/make-good.ts): a shout that did not play is not paid for. The `make-goods`
// job (jobs.ts) finds the Confirmed orders whose last slot ended MAKE_GOOD_GRACE_HOURS ago and
// decides each once, in one transaction with the order locked: the make-good is recorded from the
// proofs there are, and the refund it owes is written pending through the payment module (keyed
// `make-good-{guid}`, decision 017). Then the provider is asked; a crash in between leaves the
// pending refund to the `refund-retry` job, under the same key, so the money goes back once.
// However many instances run it, the order's lock and the record's primary key make one decision;
// a proof that arrives later is stored as proof but the decision, and the money, stay as they were.

/** Orders decided per pass (the next pass, a minute later, takes the rest). */
const BATCH = 100

export type MakeGoodService = ReturnType<typeof createMakeGoodService>

export function createMakeGoodService(deps: {
  database: Database
  catalogue: CatalogueReads
  orders: Pick<OrderService, 'lockForChange'>
  payment: Pick<PaymentService, 'oweRefund' | 'sendRefund'>
  log: Logger
  now: () => number
  /** MAKE_GOOD_GRACE_HOURS */
  graceHours: number
}) {
  const { database: db, catalogue, log, now } = deps

  /** Where each billboard of each recent event has its make-goods due now. */
  async function bounds(): Promise<DecidableBound[]> {
    const at = now()
    const found: DecidableBound[] = []
    for (const slug of await recentEventSlugs(db)) {
      const event = await catalogue.event(slug)
      if (!event) continue
      for (const device of await devicesOfEvent(db, slug)) {
        const start = eventWindowEpochMs(event, device.timeZoneId).startEpochMs
        const upTo = lastDecidableSlot(start, event.slotWidthMS, at, deps.graceHours)
        if (upTo >= 0) found.push({ eventSlug: slug, deviceId: device.deviceId, upTo })
      }
    }
    return found
  }

  /** Decides an order's make-good once; answers the refund it owes (null: decided before, or none). */
  async function decide(guid: string): Promise<{ refundCents: number } | null> {
    const decided = await db.transaction(async (tx) => {
      const locked = await deps.orders.lockForChange(tx, guid)
      if (locked?.state !== 'Confirmed') return null
      const [order] = await ordersForPlays(tx, [guid])
      const event = await catalogue.event(locked.eventSlug)
      if (!order || !event) return null
      const proofs = await playsOfOrder(tx, guid)
      const paid = chargedCents({
        paymentId: locked.paymentId,
        totalCents: locked.totalCents,
        states: [locked.state],
      })
      const made = makeGoodOf({
        totalCents: paid,
        slotNumbers: order.slotNumbers,
        playsPerSlot: event.playsPerSlot,
        proofs,
      })
      const recorded = await insertMakeGood(
        tx,
        {
          orderGuid: guid,
          eventSlug: locked.eventSlug,
          playsDue: made.playsDue,
          playsProven: made.playsProven,
          slots: made.slots,
          refundCents: made.refundCents,
          currency: locked.currency,
        },
        now(),
      )
      if (!recorded) return null
      const { provider, paymentId } = locked
      if (made.refundCents > 0 && provider !== null && paymentId !== null) {
        await deps.payment.oweRefund(tx, {
          orderGuid: guid,
          provider,
          paymentId,
          amountCents: made.refundCents,
          currency: locked.currency,
          idempotencyKey: `make-good-${guid}`,
        })
      }
      return made
    })
    if (!decided) return null
    log.info('make-good decided', {
      guid,
      playsDue: decided.playsDue,
      playsProven: decided.playsProven,
      refundCents: decided.refundCents,
    })
    if (decided.refundCents > 0) await deps.payment.sendRefund(guid)
    return { refundCents: decided.refundCents }
  }

  /** One pass of the `make-goods` job: every order now due, each decided once. */
  async function decideDue(): Promise<number> {
    const due = await ordersEndedWithin(db, await bounds(), undecided, BATCH)
    let decided = 0
    for (const { guid } of due) {
      if (await decide(guid)) decided++
    }
    return decided
  }

  return { decide, decideDue }
}
