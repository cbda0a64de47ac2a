import { confirmationCode, confirmationFor } from '../../domain/index.ts'
import type { CatalogueReads } from '../catalogue/service.ts'
import type { PaymentService } from '../payment/service.ts'
import type { ChargeRecord } from '../payment/writes.ts'
import type { Database } from '../platform/db/client.ts'
import { heartbeat, type LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import { type Finish, finishOrder } from './finish-repo.ts'
import { claimOrder, type OrderToProcess, orderToProcess, renewOrderLease } from './repo.ts'
import type { SoldSlots } from './sold-slots.ts'

// Processing an order: Processing → Confirmed, UnderReview or Failed, charging its card on the way,
// by the instance that holds the order's lease (platform/lease.ts, decision 015), renewed while it
// works. Right after placing, the order as just written is handed over (no read back); an order a
// gone instance left is claimed by recovery (recovery.ts) and processed here as well.

export type ProcessingDeps = {
  database: Database
  catalogue: CatalogueReads
  soldSlots: SoldSlots
  payment: PaymentService
  log: Logger
  lease: LeaseSettings
  now: () => number
  /** How long an order waits for the cardholder to confirm its charge (PAYMENT_ACTION_MINUTES). */
  paymentActionMs: number
}

export type Processing = ReturnType<typeof createProcessing>

type EventOf = NonNullable<Awaited<ReturnType<CatalogueReads['event']>>>
type DeviceOf = NonNullable<Awaited<ReturnType<CatalogueReads['eventDevice']>>>

/** spec §4: a paid order is confirmed instantly, or under review (flagged content, presale slots with a date). */
export function paidOutcome(
  order: Pick<OrderToProcess, 'content' | 'slotNumbers'>,
  event: EventOf,
  device: DeviceOf,
  paymentId: string | null,
): Pick<Finish, 'state' | 'paymentId' | 'confirmationDateEpochMs'> {
  const confirmation = confirmationFor({
    event,
    timeZoneId: device.timeZoneId,
    slotNumbers: order.slotNumbers,
    minPresaleSlotEpochMs: event.minPresaleSlotEpochMs,
  })
  const review = Boolean(order.content?.flagged) || !confirmation.instant
  return {
    state: review ? 'UnderReview' : 'Confirmed',
    paymentId,
    confirmationDateEpochMs: confirmation.instant ? null : confirmation.confirmationDateEpochMs,
  }
}

export function createProcessing(deps: ProcessingDeps) {
  const { database: db, catalogue, payment, log, soldSlots, lease } = deps
  const inflight = new Set<Promise<void>>()

  async function finish(
    order: OrderToProcess,
    outcome: Partial<Finish> & Pick<Finish, 'state'>,
    /** The charge's record when the provider keeps none (written with the outcome: one commit). */
    record: ChargeRecord | null = null,
  ) {
    const errors = outcome.errors ?? []
    await finishOrder(
      db,
      order.guid,
      { state: 'Processing', owner: lease.owner },
      {
        state: outcome.state,
        errors,
        paymentId: outcome.paymentId ?? null,
        confirmationDateEpochMs: outcome.confirmationDateEpochMs ?? null,
        waiting: outcome.waiting ?? null,
      },
      record,
    )
    // Failed frees the slots; Confirmed puts them on the billboard's schedule
    if (outcome.state === 'Failed' || outcome.state === 'Confirmed')
      soldSlots.changed(order.eventSlug, order.deviceId)
    log.info('order finished', { guid: order.guid, state: outcome.state, errors })
  }

  /**
   * Processing → Confirmed, UnderReview or Failed, by the instance that holds the order's
   * lease, renewed while it works. Safe to run again after a crash: the charge is keyed by
   * the order. Right after placing, the order as just written (under this instance's lease) is handed
   * over, which spares reading it back. A failed order keeps its reason as a problem (GET status shows it).
   */
  async function processOrder(guid: string, placed?: OrderToProcess): Promise<void> {
    if (!placed && !(await claimOrder(db, guid, lease))) return
    const stopBeat = heartbeat(
      lease.leaseMs,
      () => renewOrderLease(db, guid, lease),
      // Stalled past the lease: another instance finishes the order (finishOrder writes only the
      // holder's outcome), and a charge made here meanwhile is the same charge (keyed by the order).
      () => log.warn('order lease lost', { guid }),
      (error) => log.warn('order lease not renewed', { guid, error }),
    )
    try {
      await processHeld(guid, placed)
    } finally {
      stopBeat()
    }
  }

  async function processHeld(guid: string, placed?: OrderToProcess): Promise<void> {
    const order = placed ?? (await orderToProcess(db, guid))
    if (order?.state !== 'Processing') return
    const event = await catalogue.event(order.eventSlug)
    const device = event ? await catalogue.eventDevice(event.slug, order.deviceId) : null
    if (!event || !device) {
      return finish(order, { state: 'Failed', errors: [{ code: 'event_not_found' }] })
    }
    if (!order.content) {
      return finish(order, { state: 'Failed', errors: [{ code: 'missing_billboard_content' }] })
    }

    let paymentId: string | null = null
    let record: ChargeRecord | null = null
    if (order.totalCents > 0) {
      const setup = order.setup
      if (!setup) {
        return finish(order, { state: 'Failed', errors: [{ code: 'checkout_mismatch' }] })
      }
      const result = await payment.charge({
        orderGuid: guid,
        amountCents: order.totalCents,
        currency: order.currency,
        setup,
        description: `Shouts order ${confirmationCode(guid)} (${event.name})`,
        // the shopper is at the checkout: their bank may ask them to confirm it
        onSession: true,
      })
      if (result.action) {
        // The slots stay held while the shopper confirms with their bank (authentication.ts)
        const waiting = {
          provider: payment.name,
          paymentId: result.paymentId,
          clientSecret: result.action.clientSecret,
          untilEpochMs: deps.now() + deps.paymentActionMs,
        }
        return finish(
          order,
          { state: 'AwaitingAuthentication', paymentId: result.paymentId, waiting },
          result.record ?? null,
        )
      }
      if (!result.ok) {
        return finish(
          order,
          { state: 'Failed', errors: [result.problem], paymentId: result.paymentId },
          result.record ?? null,
        )
      }
      paymentId = result.paymentId
      record = result.record ?? null
    }
    await finish(order, paidOutcome(order, event, device, paymentId), record)
  }

  /** Processes an order just placed, once the answer to its request is on its way. */
  function schedule(placed: OrderToProcess) {
    const guid = placed.guid
    const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => processOrder(guid, placed))
      .catch((error: unknown) => log.error('order processing failed', { guid, error }))
      .finally(() => inflight.delete(job))
    inflight.add(job)
  }

  return {
    processOrder,
    schedule,
    /** Waits for the orders being processed here. */
    async settle(): Promise<void> {
      while (inflight.size > 0) await Promise.allSettled([...inflight])
    },
  }
}
