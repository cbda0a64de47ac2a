import { eventWindowEpochMs } from '../../domain/event.ts'
import { lastDecidableSlot, makeGoodOfSlots, slotDecisions } from '../../domain/make-good.ts'
import { chargedCents } from '../../domain/ops.ts'
import { devicesOfEvent, recentEventSlugs } from '../catalogue/reads.ts'
import type { CatalogueReads } from '../catalogue/service.ts'
import { type DecidableBound, ordersForPlays, ordersWithEndedSlots } from '../order/reads.ts'
import type { OrderService } from '../order/service.ts'
import type { PaymentService } from '../payment/service.ts'
import type { Database } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { playsOfOrder } from '../player/reads.ts'
import { decidedSlots, insertSlotDecisions, type SlotRecord, undecided } from './repo.ts'

// Make-goods (src/domain/make-good.ts): a shout that did not play is not paid for. The `make-goods`
// job (jobs.ts) finds the Confirmed orders with a slot that ended MAKE_GOOD_GRACE_HOURS ago and is
// not decided, and decides those slots once, in one transaction with the order locked: each is
// recorded from the proofs there are, and the refund each owes is written pending through the
// payment module (keyed `make-good-{guid}-{slot}`, decision 017). Then the provider is asked; a crash
// in between leaves the pending refunds to the `refund-retry` job, under the same keys, so the money
// goes back once. However many instances run it, the order's lock and the (order, slot) primary key
// make one decision per slot; a proof that arrives later is stored as proof but the decision, and
// the money, stay as they were.

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

  /**
   * Decides once each slot of an order of the event numbered `upTo` or before that is not decided
   * yet; answers what they refund (null: nothing left to decide).
   */
  async function decide(
    guid: string,
    eventSlug: string,
    upTo: number,
  ): Promise<{ refundCents: number } | null> {
    // Read before the transaction: the catalogue's cache may go to the database, which would wait
    // for this transaction's connection.
    const event = await catalogue.event(eventSlug)
    if (!event) return null
    const decided = await db.transaction(async (tx) => {
      const locked = await deps.orders.lockForChange(tx, guid)
      if (locked?.state !== 'Confirmed' || locked.eventSlug !== eventSlug) return null
      const [order] = await ordersForPlays(tx, [guid])
      if (!order) return null
      const done = await decidedSlots(tx, guid)
      const orderSlots = [...new Set(order.slotNumbers)]
      const deciding = orderSlots.filter((n) => n <= upTo && !done.has(n))
      if (deciding.length === 0) return null
      const paid = chargedCents({
        paymentId: locked.paymentId,
        totalCents: locked.totalCents,
        states: [locked.state],
      })
      const { provider, paymentId } = locked
      const slots: SlotRecord[] = slotDecisions({
        totalCents: paid,
        slotNumbers: orderSlots,
        playsPerSlot: event.playsPerSlot,
        proofs: await playsOfOrder(tx, guid),
        deciding,
      }).map((d) => ({
        ...d,
        refundKey:
          d.refundCents > 0 && provider !== null && paymentId !== null
            ? `make-good-${guid}-${d.slotNumber}`
            : null,
      }))
      const recorded = {
        orderGuid: guid,
        eventSlug: locked.eventSlug,
        orderSlots: orderSlots.length,
        currency: locked.currency,
      }
      await insertSlotDecisions(tx, recorded, slots, now())
      for (const slot of slots) {
        if (slot.refundKey === null || provider === null || paymentId === null) continue
        await deps.payment.oweRefund(tx, {
          orderGuid: guid,
          provider,
          paymentId,
          amountCents: slot.refundCents,
          currency: locked.currency,
          idempotencyKey: slot.refundKey,
        })
      }
      return makeGoodOfSlots(slots)
    })
    if (!decided) return null
    log.info('make-good decided', {
      guid,
      missedSlots: decided.slots.length,
      playsDue: decided.playsDue,
      playsProven: decided.playsProven,
      refundCents: decided.refundCents,
    })
    if (decided.refundCents > 0) await deps.payment.sendRefund(guid)
    return { refundCents: decided.refundCents }
  }

  /** One pass of the `make-goods` job: every slot now due, each decided once. */
  async function decideDue(): Promise<number> {
    const due = await ordersWithEndedSlots(db, await bounds(), undecided, BATCH)
    let decided = 0
    for (const { guid, eventSlug, upTo } of due) {
      if (await decide(guid, eventSlug, upTo)) decided++
    }
    return decided
  }

  return { decide, decideDue }
}
