import type { CatalogueReads } from '../catalogue/service.ts'
import type { PaymentService } from '../payment/service.ts'
import type { Database } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { finishOrder, waitingOrder, waitsEnded } from './finish-repo.ts'
import { paidOutcome } from './processing.ts'
import { orderToProcess } from './repo.ts'
import type { SoldSlots } from './sold-slots.ts'

// An order whose charge waits for the cardholder (3-D Secure: AwaitingAuthentication, its slots
// held) settles by the charge, asked of the provider: confirmed by the bank → Confirmed or
// UnderReview as processing would have ended; refused → Failed (authentication_failed); still
// waiting when PAYMENT_ACTION_MINUTES ended → the charge is cancelled first, so that it can no
// longer succeed, then Failed (authentication_timed_out). The app settles it right after the bank's
// answer, the `authentication-timeout` job when the wait ended; whichever writes first wins, and the
// charge is the one PaymentIntent (or payments row) keyed by the order, so nothing is charged twice.

const ENDED_BATCH = 50

export function createAuthentication(deps: {
  database: Database
  catalogue: CatalogueReads
  soldSlots: SoldSlots
  payment: PaymentService
  log: Logger
  now: () => number
  paymentActionMs: number
}) {
  const { database: db, payment, log, now, soldSlots } = deps

  /** Settles an order waiting for the cardholder, if the charge's outcome is known (or the wait ended). */
  async function settle(guid: string): Promise<void> {
    const order = await waitingOrder(db, guid)
    if (order?.state !== 'AwaitingAuthentication' || !order.action) return
    const ended =
      order.authenticationUntilEpochMs !== null && now() >= order.authenticationUntilEpochMs
    let outcome: Awaited<ReturnType<typeof payment.actionOutcome>>
    let timedOut = false
    try {
      outcome = await payment.actionOutcome(order.action)
      if (outcome === 'pending') {
        if (!ended) return
        outcome = await payment.cancelAction(order.action)
        timedOut = outcome === 'failed'
      }
    } catch (error) {
      // the provider did not answer: the order waits, the job asks again
      log.warn('charge awaiting authentication not checked', { guid, error })
      return
    }
    if (outcome === 'failed') {
      const minutes = Math.round(deps.paymentActionMs / 60_000)
      const problem = timedOut
        ? { code: 'authentication_timed_out' as const, params: { minutes } }
        : { code: 'authentication_failed' as const }
      const failed = await finishOrder(
        db,
        guid,
        { state: 'AwaitingAuthentication' },
        { state: 'Failed', errors: [problem], paymentId: null, confirmationDateEpochMs: null },
      )
      if (failed) {
        // the slots are free again
        soldSlots.changed(order.eventSlug, order.deviceId)
        log.info('order finished', { guid, state: 'Failed', errors: [problem] })
      }
      return
    }
    const paid = await orderToProcess(db, guid)
    if (!paid) return
    const event = await deps.catalogue.event(paid.eventSlug)
    const device = event ? await deps.catalogue.eventDevice(event.slug, paid.deviceId) : null
    // Paid for an event or billboard gone meanwhile: an operator decides (a cancel refunds it)
    const outcomeOf =
      event && device
        ? paidOutcome(paid, event, device, order.paymentId)
        : {
            state: 'UnderReview' as const,
            paymentId: order.paymentId,
            confirmationDateEpochMs: null,
          }
    const done = await finishOrder(
      db,
      guid,
      { state: 'AwaitingAuthentication' },
      { ...outcomeOf, errors: [] },
    )
    if (done) {
      if (outcomeOf.state === 'Confirmed') soldSlots.changed(paid.eventSlug, paid.deviceId)
      log.info('order finished', { guid, state: outcomeOf.state })
    }
  }

  return {
    settle,
    /** Settles the orders whose wait ended (the `authentication-timeout` job); answers how many. */
    async endWaits(signal?: AbortSignal): Promise<number> {
      const ended = await waitsEnded(db, now(), ENDED_BATCH)
      for (const guid of ended) {
        if (signal?.aborted) break
        await settle(guid)
      }
      return ended.length
    },
  }
}
