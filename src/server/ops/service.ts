import { type AuditEntry, FOUND_ORDERS_MAX, type OpsOrder } from '../../contract/index.ts'
import {
  AUTO_CANCEL_REASON,
  canApprove,
  cancelVerdict,
  chargedCents,
  reviewExpired,
  slotStartEpochMs,
  slotsOfDay,
} from '../../domain/index.ts'
import type { ProblemData } from '../../domain/problems.ts'
import { auditEntries, type Operator, recordAudit } from '../auth/repo.ts'
import { contentImageUrl } from '../content/storage.ts'
import { orderSummary, type SummaryOf } from '../order/summary.ts'
import type { PaymentService } from '../payment/service.ts'
import type { Database } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import type { CatalogueReads } from '../spotlight/service.ts'
import type { SoldSlots } from '../spotlight/sold-slots.ts'
import {
  type Actor,
  approveOrder,
  billboardsOfOrders,
  cancelOrder,
  type DaySlots,
  findOrders,
  insertPendingRefund,
  lockOrder,
  markRefundAttemptFailed,
  markRefunded,
  type OpsOrderRow,
  opsOrder,
  ordersUnderReview,
  pendingRefund,
  stalePendingRefunds,
  underReviewSlots,
} from './repo.ts'

// The operators' work on orders: the queue, finding an order,
// approving (UnderReview → Confirmed: it plays), cancelling (→ Cancelled: slots free, payment
// refunded), and the sweep that cancels an order still under review when its first slot begins.
//
// A cancel and its refund (decision 017): the transaction that cancels the order also writes the
// refund it owes as `pending`; the provider is then asked under the refund's idempotency key, and the
// row marked done. A crash in between leaves a pending row that the sweep sends again with the same
// key, and a retried cancel finds the order Cancelled and only finishes that refund: the money goes
// back exactly once.

export type OpsError =
  | { code: 'order_not_found' }
  | { code: 'not_under_review' }
  | { code: 'not_cancellable' }
  | { code: 'reviewers_refuse_only' }

/** A refund is tried this many times (cancel, then the sweep) before it is shown as failed. */
const REFUND_MAX_ATTEMPTS = 10
/** The sweep leaves a fresh pending refund to the cancel that wrote it. */
const REFUND_RETRY_AFTER_MS = 30_000

/** An order for operators, its failures as problems (the HTTP edge writes them: routes.ts). */
export type OpsOrderOut = SummaryOf<OpsOrder>

export type OpsService = ReturnType<typeof createOpsService>

export function createOpsService(deps: {
  database: Database
  catalogue: CatalogueReads
  soldSlots: SoldSlots
  payment: PaymentService
  log: Logger
  now: () => number
}) {
  const { database: db, catalogue, soldSlots, payment, log, now } = deps

  /** The wire shape of an order for operators: its summary (as the shopper sees it) and the rest. */
  async function toOpsOrder(row: OpsOrderRow): Promise<OpsOrderOut> {
    const event = await catalogue.event(row.eventSlug)
    const device = event ? await catalogue.eventDevice(event.slug, row.deviceId) : null
    const summary = orderSummary(
      {
        ...row,
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
      payment: {
        provider: row.provider,
        paymentId: row.paymentId,
        brand: row.cardBrand,
        last4: row.cardLast4,
        chargedCents: chargedCents({
          paymentId: row.paymentId,
          totalCents: row.totalCents,
          states: row.history.map((h) => h.state),
        }),
        refundedCents: refund?.status === 'succeeded' ? refund.amountCents : 0,
        refund: refund
          ? {
              status: refund.status,
              amountCents: refund.amountCents,
              error: refund.error,
              createdAtEpochMs: Number(refund.createdAtEpochMs),
              completedAtEpochMs:
                refund.completedAtEpochMs === null ? null : Number(refund.completedAtEpochMs),
            }
          : null,
      },
      history: row.history.map((h) => ({ ...h, atEpochMs: Number(h.atEpochMs) })),
    }
  }

  async function order(guid: string): Promise<Result<OpsOrderOut, OpsError>> {
    const row = await opsOrder(db, guid)
    return row ? ok(await toOpsOrder(row)) : err({ code: 'order_not_found' })
  }

  async function reviewQueue(): Promise<OpsOrderOut[]> {
    const rows = await ordersUnderReview(db)
    return Promise.all(rows.map(toOpsOrder))
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
  async function find(query: string, day?: string): Promise<OpsOrderOut[]> {
    const rows = await findOrders(
      db,
      query,
      FOUND_ORDERS_MAX,
      day ? await daySlots(query, day) : undefined,
    )
    return Promise.all(rows.map(toOpsOrder))
  }

  async function approve(guid: string, operator: Operator): Promise<Result<OpsOrderOut, OpsError>> {
    const outcome = await db.transaction(async (tx) => {
      const locked = await lockOrder(tx, guid)
      if (!locked) return err({ code: 'order_not_found' as const })
      if (!canApprove(locked.state)) return err({ code: 'not_under_review' as const })
      await approveOrder(tx, guid, { kind: 'operator', operatorId: operator.id })
      await recordAudit(tx, { operator, action: 'approve', orderGuid: guid }, now())
      return ok(locked)
    })
    if (!outcome.ok) return outcome
    // the slots stay sold, and now play: the billboard's schedule reads them afresh
    soldSlots.changed(outcome.value.eventSlug, outcome.value.deviceId)
    return order(guid)
  }

  /**
   * Cancels an order with a reason (an operator's refusal or cancel, or the sweep's), frees its
   * slots and refunds what it paid. A retry of a cancel already made only finishes its refund.
   */
  async function cancel(
    guid: string,
    reason: ProblemData,
    by: { operator: Operator } | { system: 'review_expired' },
  ): Promise<Result<OpsOrderOut, OpsError>> {
    const actor: Actor =
      'operator' in by ? { kind: 'operator', operatorId: by.operator.id } : { kind: 'system' }
    const outcome = await db.transaction(async (tx) => {
      const locked = await lockOrder(tx, guid)
      if (!locked) return err({ code: 'order_not_found' as const })
      if (locked.state === 'Cancelled') return ok({ ...locked, changed: false })
      if ('operator' in by) {
        const verdict = cancelVerdict(by.operator.role, locked.state)
        if (!verdict.allowed) return err({ code: verdict.reason })
      } else if (locked.state !== 'UnderReview') {
        return err({ code: 'not_under_review' as const })
      }
      await cancelOrder(tx, guid, locked.state, reason, actor)
      // A live order (Confirmed or UnderReview, checked above): its present state stands for its
      // history. A charge is made only with the checkout's card setup (order/service.ts fails an
      // order without one), so a charged order has its provider; the check narrows the types.
      const owedCents = chargedCents({
        paymentId: locked.paymentId,
        totalCents: locked.totalCents,
        states: [locked.state],
      })
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
      if (refund) await insertPendingRefund(tx, refund)
      await recordAudit(
        tx,
        {
          operator: 'operator' in by ? by.operator : null,
          action: 'operator' in by ? 'cancel' : 'auto_cancel',
          orderGuid: guid,
          detail: { reason, from: locked.state, refundCents: refund?.amountCents ?? 0 },
        },
        now(),
      )
      return ok({ ...locked, changed: true })
    })
    if (!outcome.ok) return outcome
    if (outcome.value.changed) {
      soldSlots.changed(outcome.value.eventSlug, outcome.value.deviceId)
      log.info('order cancelled', { guid, by: 'operator' in by ? by.operator.id : by.system })
    }
    await sendRefund(guid)
    return order(guid)
  }

  /** Asks the provider for a pending refund, under its idempotency key; records the outcome. */
  async function sendRefund(guid: string): Promise<void> {
    const refund = await pendingRefund(db, guid)
    if (!refund) return
    if (refund.provider !== payment.name) {
      await markRefundAttemptFailed(
        db,
        guid,
        {
          code: 'refund_provider_mismatch',
          params: { provider: refund.provider, current: payment.name },
        },
        REFUND_MAX_ATTEMPTS,
      )
      return
    }
    try {
      const made = await payment.refund({
        orderGuid: guid,
        paymentId: refund.paymentId,
        amountCents: refund.amountCents,
        currency: refund.currency,
        idempotencyKey: refund.idempotencyKey,
      })
      await markRefunded(db, guid, made.refundId)
      log.info('order refunded', { guid, amountCents: refund.amountCents })
    } catch (error) {
      log.warn('refund failed', { guid, attempt: refund.attempts + 1, error })
      await markRefundAttemptFailed(
        db,
        guid,
        { code: 'refund_failed', params: { reason: (error as Error).message || String(error) } },
        REFUND_MAX_ATTEMPTS,
      )
    }
  }

  /**
   * Cancels and refunds the orders whose first slot began while still under review, and
   * sends again the refunds a crash or an outage left pending. Safe on several instances at once:
   * each cancel locks its order and changes it only from UnderReview; a refund is keyed.
   */
  async function sweep(): Promise<{ cancelled: string[]; refundsRetried: number }> {
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
    const stale = await stalePendingRefunds(db, nowMs, REFUND_RETRY_AFTER_MS)
    for (const guid of stale) await sendRefund(guid)
    return { cancelled, refundsRetried: stale.length }
  }

  async function audit(query: {
    limit: number
    before?: number | undefined
    orderGuid?: string | undefined
  }): Promise<AuditEntry[]> {
    return auditEntries(db, query)
  }

  return {
    order,
    reviewQueue,
    find,
    approve,
    cancel,
    sweep,
    audit,
  }
}
