import {
  type AuditEntry,
  FOUND_ORDERS_MAX,
  isDeclineCode,
  type OpsOrder,
  type OrderPlay,
} from '../../contract/index.ts'
import {
  AUTO_CANCEL_REASON,
  canApprove,
  cancelVerdict,
  chargedCents,
  paymentState,
  reviewExpired,
  slotStartEpochMs,
  slotsOfDay,
} from '../../domain/index.ts'
import type { ProblemData } from '../../domain/problems.ts'
import type { AuditFilter, AuthService, Operator } from '../auth/service.ts'
import type { CatalogueReads } from '../catalogue/service.ts'
import { contentImageUrl } from '../content/storage.ts'
import {
  billboardsOfOrders,
  type ConsoleOrderRow,
  consoleOrder,
  type DaySlots,
  findOrders,
  ordersUnderReview,
  underReviewSlots,
} from '../order/console-reads.ts'
import type { Actor, OrderService } from '../order/service.ts'
import type { SoldSlots } from '../order/sold-slots.ts'
import { orderSummary, type SummaryOf } from '../order/summary.ts'
import type { PaymentService } from '../payment/service.ts'
import type { Database } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { playsOfOrders } from '../player/reads.ts'

// The operators' work on orders: the queue, finding an order, approving (UnderReview → Confirmed:
// it plays), cancelling (→ Cancelled: slots free, payment refunded), the `review-expiry` job that
// cancels an order still under review when its first slot begins, and the audit log. The orders are
// the order module's (changed through its service, read through its console read model), the refunds
// the payment module's, the audit rows the auth module's: a change and its refund and audit row are
// written in one transaction.
//
// A cancel and its refund (decision 017): the transaction that cancels the order also writes the
// refund it owes as pending (payment/service.ts oweRefund); the provider is then asked (sendRefund).
// A retried cancel finds the order Cancelled and only finishes that refund: the money goes back once.

export type OrdersError =
  | { code: 'order_not_found' }
  | { code: 'not_under_review' }
  | { code: 'not_cancellable' }
  | { code: 'reviewers_refuse_only' }

type OrderNotFound = { code: 'order_not_found' }
type CancelOnly = { code: 'not_cancellable' | 'reviewers_refuse_only' }

/**
 * Why a cancel is refused: an operator's for the order's state and their role; the review-expiry
 * job's when the order is no longer under review.
 */
export type CancelError<By> = By extends { operator: Operator }
  ? Exclude<OrdersError, { code: 'not_under_review' }>
  : Exclude<OrdersError, { code: 'not_cancellable' | 'reviewers_refuse_only' }>

/** An order for operators, its failures as problems (the HTTP edge writes them: routes.ts). */
export type OpsOrderOut = SummaryOf<OpsOrder>

export function createConsoleOrders(deps: {
  database: Database
  catalogue: CatalogueReads
  orders: OrderService
  soldSlots: SoldSlots
  payment: PaymentService
  auth: AuthService
  log: Logger
  now: () => number
}) {
  const { database: db, catalogue, orders, soldSlots, payment, auth, log, now } = deps

  /** The wire shape of an order for operators: its summary (as the shopper sees it) and the rest. */
  async function toOpsOrder(row: ConsoleOrderRow, plays: OrderPlay[]): Promise<OpsOrderOut> {
    const event = await catalogue.event(row.eventSlug)
    const device = event ? await catalogue.eventDevice(event.slug, row.deviceId) : null
    const summary = orderSummary(
      {
        ...row,
        plays: plays.map((p) => ({
          ...p,
          startedAtEpochMs: Number(p.startedAtEpochMs),
          endedAtEpochMs: Number(p.endedAtEpochMs),
        })),
        contentImageUrl:
          row.contentUrl && row.contentType && row.contentFileName
            ? contentImageUrl({
                url: row.contentUrl,
                type: row.contentType,
                fileName: row.contentFileName,
              })
            : null,
      },
      event,
      device,
    )
    const refund = row.refund
    const charged = chargedCents({
      paymentId: row.paymentId,
      totalCents: row.totalCents,
      states: row.history.map((h) => h.state),
    })
    return {
      ...summary,
      createdAtEpochMs: row.createdAtEpochMs,
      orderType: row.orderType,
      contact: {
        email: row.email,
        firstName: row.firstName,
        lastName: row.lastName,
        phoneNumber: row.phoneNumber,
        willReceiveMarketing: row.willReceiveMarketing,
      },
      message: {
        buyerName: row.texts?.buyerName ?? '',
        recipientName: row.texts?.recipientName ?? '',
        multilineMessage: row.texts?.multilineMessage ?? '',
      },
      moderation: {
        flagged: row.flagged || row.uploadFlagReasons.length > 0,
        reasons: [
          ...new Set([...row.flagReasons, ...row.uploadFlagReasons.map((r) => `upload: ${r}`)]),
        ],
      },
      firstSlotStartEpochMs: summary.slots[0]?.startEpochMs ?? null,
      personalDataUntilEpochMs: await orders.lifetime.personalDataUntil(row),
      personalDataForgotten: row.personalDataForgotten,
      payment: {
        state: paymentState({
          totalCents: row.totalCents,
          chargedCents: charged,
          state: row.state,
          paymentRefused: row.errors.some(
            (e) =>
              isDeclineCode(e.code) ||
              e.code === 'unknown_error' ||
              // the cardholder's bank refused the charge, or was not answered in time
              e.code === 'authentication_failed' ||
              e.code === 'authentication_timed_out',
          ),
        }),
        provider: row.provider,
        paymentId: row.paymentId,
        brand: row.cardBrand,
        last4: row.cardLast4,
        chargedCents: charged,
        refundedCents: Number(row.refundedCents),
        refund: refund
          ? {
              status: refund.status,
              amountCents: refund.amountCents,
              error: refund.error,
              providerStatus: refund.providerStatus,
              createdAtEpochMs: Number(refund.createdAtEpochMs),
              completedAtEpochMs:
                refund.completedAtEpochMs === null ? null : Number(refund.completedAtEpochMs),
            }
          : null,
        disputes: row.disputes.map((d) => ({
          ...d,
          evidenceDueEpochMs: d.evidenceDueEpochMs === null ? null : Number(d.evidenceDueEpochMs),
          openedAtEpochMs: Number(d.openedAtEpochMs),
          closedAtEpochMs: d.closedAtEpochMs === null ? null : Number(d.closedAtEpochMs),
        })),
      },
      history: row.history.map((h) => ({ ...h, atEpochMs: Number(h.atEpochMs) })),
    }
  }

  /** Orders as operators see them, with their proof of play (the player module's). */
  async function toOpsOrders(rows: ConsoleOrderRow[]): Promise<OpsOrderOut[]> {
    const plays = await playsOfOrders(
      db,
      rows.map((row) => row.guid),
    )
    return Promise.all(rows.map((row) => toOpsOrder(row, plays.get(row.guid) ?? [])))
  }

  async function order(guid: string): Promise<Result<OpsOrderOut, OrderNotFound>> {
    const row = await consoleOrder(db, guid)
    if (!row) return err({ code: 'order_not_found' })
    const [found] = await toOpsOrders([row])
    return ok(found as OpsOrderOut)
  }

  async function reviewQueue(): Promise<OpsOrderOut[]> {
    return toOpsOrders(await ordersUnderReview(db))
  }

  /** The slot range of the day (YYYY-MM-DD, the billboard's local date) of each billboard found. */
  async function daySlots(query: string, day: string): Promise<DaySlots[]> {
    const ranges: DaySlots[] = []
    for (const { eventSlug, deviceId } of await billboardsOfOrders(db, query)) {
      const event = await catalogue.event(eventSlug)
      const device = event ? await catalogue.eventDevice(event.slug, deviceId) : null
      if (!event || !device) continue
      let slots: number[]
      try {
        slots = slotsOfDay(event, device.timeZoneId, day)
      } catch {
        return [] // a day the calendar does not have (2026-02-31): no order has a slot on it
      }
      const first = slots[0]
      const last = slots[slots.length - 1]
      if (first !== undefined && last !== undefined) {
        ranges.push({ eventSlug, deviceId, from: first, untilExclusive: last + 1 })
      }
    }
    return ranges
  }

  /** Orders by code, e-mail or device id, newest first; with a day, those with a slot on it. */
  /** Orders a search finds, newest first, a page at a time (`before`: after the last one shown). */
  async function find(query: string, day?: string, before?: string): Promise<OpsOrderOut[]> {
    const rows = await findOrders(
      db,
      query,
      FOUND_ORDERS_MAX,
      day ? await daySlots(query, day) : undefined,
      before,
    )
    return toOpsOrders(rows)
  }

  async function approve(
    guid: string,
    operator: Operator,
  ): Promise<Result<OpsOrderOut, Exclude<OrdersError, CancelOnly>>> {
    const outcome = await db.transaction(async (tx) => {
      const locked = await orders.lockForChange(tx, guid)
      if (!locked) return err({ code: 'order_not_found' as const })
      if (!canApprove(locked.state)) return err({ code: 'not_under_review' as const })
      await orders.approve(tx, guid, { kind: 'operator', operatorId: operator.id })
      await auth.recordAudit(tx, { operator, action: 'approve', orderGuid: guid })
      return ok(locked)
    })
    if (!outcome.ok) return outcome
    // the slots stay sold, and now play: the billboard's schedule reads them afresh
    soldSlots.changed(outcome.value.eventSlug, outcome.value.deviceId)
    return order(guid)
  }

  /**
   * Cancels an order with a reason (an operator's refusal or cancel, or the review-expiry job's),
   * frees its slots and refunds what it paid. A retry of a cancel already made only finishes its
   * refund.
   */
  async function cancel<By extends { operator: Operator } | { system: 'review_expired' }>(
    guid: string,
    reason: ProblemData,
    by: By,
  ): Promise<Result<OpsOrderOut, CancelError<By>>> {
    return (await cancelAs(guid, reason, by)) as Result<OpsOrderOut, CancelError<By>>
  }

  async function cancelAs(
    guid: string,
    reason: ProblemData,
    by: { operator: Operator } | { system: 'review_expired' },
  ): Promise<Result<OpsOrderOut, OrdersError>> {
    const actor: Actor =
      'operator' in by ? { kind: 'operator', operatorId: by.operator.id } : { kind: 'system' }
    const outcome = await db.transaction(async (tx) => {
      const locked = await orders.lockForChange(tx, guid)
      if (!locked) return err({ code: 'order_not_found' as const })
      if (locked.state === 'Cancelled') return ok({ ...locked, changed: false })
      if ('operator' in by) {
        const verdict = cancelVerdict(by.operator.role, locked.state)
        if (!verdict.allowed) return err({ code: verdict.reason })
      } else if (locked.state !== 'UnderReview') {
        return err({ code: 'not_under_review' as const })
      }
      await orders.cancel(tx, guid, locked.state, reason, actor)
      // A live order (Confirmed or UnderReview, checked above): its present state stands for its
      // history. A charge is made only with the checkout's card setup (order/processing.ts fails an
      // order without one), so a charged order has its provider; the check narrows the types.
      // what the make-goods of its slots already give back is not given twice
      const owedCents =
        chargedCents({
          paymentId: locked.paymentId,
          totalCents: locked.totalCents,
          states: [locked.state],
        }) - (await payment.refundsOwedCents(tx, guid))
      const { provider, paymentId } = locked
      const refund =
        owedCents > 0 && provider !== null && paymentId !== null
          ? {
              orderGuid: guid,
              provider,
              paymentId,
              amountCents: owedCents,
              currency: locked.currency,
              idempotencyKey: `refund-${guid}`,
            }
          : null
      if (refund) await payment.oweRefund(tx, refund)
      await auth.recordAudit(tx, {
        operator: 'operator' in by ? by.operator : null,
        action: 'operator' in by ? 'cancel' : 'auto_cancel',
        orderGuid: guid,
        detail: { reason, from: locked.state, refundCents: refund?.amountCents ?? 0 },
      })
      return ok({ ...locked, changed: true })
    })
    if (!outcome.ok) return outcome
    if (outcome.value.changed) {
      soldSlots.changed(outcome.value.eventSlug, outcome.value.deviceId)
      log.info('order cancelled', { guid, by: 'operator' in by ? by.operator.id : by.system })
    }
    await payment.sendRefund(guid)
    return order(guid)
  }

  /**
   * Cancels and refunds the orders whose first slot began while still under review (the
   * `review-expiry` job). Safe on several instances at once: each cancel locks its order and changes
   * it only from UnderReview.
   */
  async function expireReviews(): Promise<{ cancelled: string[] }> {
    const nowMs = now()
    const cancelled: string[] = []
    for (const o of await underReviewSlots(db)) {
      const event = await catalogue.event(o.eventSlug)
      const device = event ? await catalogue.eventDevice(event.slug, o.deviceId) : null
      if (!event || !device || o.slotNumbers.length === 0) continue
      const first = Math.min(
        ...o.slotNumbers.map((n) => slotStartEpochMs(event, device.timeZoneId, n)),
      )
      if (!reviewExpired('UnderReview', first, nowMs)) continue
      const done = await cancel(o.guid, AUTO_CANCEL_REASON, { system: 'review_expired' })
      if (done.ok && done.value.orderState === 'Cancelled') cancelled.push(o.guid)
    }
    return { cancelled }
  }

  async function audit(query: AuditFilter): Promise<AuditEntry[]> {
    return auth.auditEntries(query)
  }

  return { order, reviewQueue, find, approve, cancel, expireReviews, audit }
}
