import type {
  OrderDefaults,
  OrderPlay,
  OrderState,
  OrderStatus,
  OrderSummary,
  PaymentAction,
} from '../../contract/index.ts'
import type { ProblemData } from '../../domain/problems.ts'
import type { PromoCheck } from '../catalogue/promos.ts'
import type { CatalogueReads } from '../catalogue/service.ts'
import { orderContent } from '../content/reads.ts'
import { contentImageUrl } from '../content/storage.ts'
import type { PaymentService } from '../payment/service.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import type { AppEnv } from '../platform/env.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { createAuthentication } from './authentication.ts'
import { waitingOrder } from './finish-repo.ts'
import { createOrderLifetime } from './lifetime.ts'
import { createPlacing } from './place.ts'
import { createProcessing } from './processing.ts'
import { createRecovery } from './recovery.ts'
import {
  type Actor,
  approveOrder,
  cancelOrder,
  type LockedOrder,
  lockOrder,
  type OrderRow,
  orderOfEvent,
} from './repo.ts'
import type { SoldSlots } from './sold-slots.ts'
import { orderSummary, type SummaryOf } from './summary.ts'

// api-v1 "Order": defaults, placing an order (place.ts), processing it (processing.ts: Processing →
// Confirmed, UnderReview or Failed), recovering what a gone instance left (recovery.ts), its status
// and its summary. The card it pays with is the payment module's. Answers are results and typed
// errors (errors.ts); the routes (routes.ts) give each error its status and the spec's text.

export type { OrderError, SlotProblem } from './errors.ts'

/** No order of the event by this guid. */
type OrderNotFound = { code: 'order_not_found' }

export { requestHash } from './place.ts'
export type { Actor, LockedOrder } from './repo.ts'

export type OrderService = ReturnType<typeof createOrderService>

export function createOrderService(deps: {
  database: Database
  catalogue: CatalogueReads
  promo: PromoCheck
  soldSlots: SoldSlots
  payment: PaymentService
  appEnv: AppEnv
  log: Logger
  now: () => number
  /** This instance's id and the length of its leases on orders in Processing. */
  lease: LeaseSettings
  /** The proof of play of an order (the player module's read model; the summary shows it). */
  playsOf: (guid: string) => Promise<OrderPlay[]>
  /** An order's make-good once decided (the make-good module's read model; the summary shows it). */
  makeGoodOf?: (guid: string) => Promise<OrderSummary['makeGood']>
  /** ORDER_CONTENT_TTL_DAYS in milliseconds: an order's personal data goes this long after its last slot. */
  orderDataTtlMs: number
  /** PAYMENT_ACTION_MINUTES in milliseconds: how long an order waits for the cardholder. */
  paymentActionMs: number
}) {
  const { database: db, catalogue } = deps
  const processing = createProcessing(deps)
  const placing = createPlacing({ ...deps, process: processing.schedule })
  const recovery = createRecovery({ ...deps, processing })
  const lifetime = createOrderLifetime(deps)
  const authentication = createAuthentication(deps)

  async function status(
    eventSlug: string,
    guid: string,
  ): Promise<Result<SummaryOf<OrderStatus>, OrderNotFound>> {
    const order = await orderOfEvent(db, eventSlug, guid)
    if (!order) return err({ code: 'order_not_found' })
    return ok({
      orderState: order.state,
      problems: order.errors,
      confirmationDateEpochMs: order.confirmationDateEpochMs,
      // only while the order waits for the cardholder
      ...(order.state === 'AwaitingAuthentication'
        ? { paymentAction: await paymentAction(order) }
        : {}),
    })
  }

  /** What Stripe.js (or the local test screen) needs while the order waits for the cardholder. */
  async function paymentAction(
    order: Pick<OrderRow, 'guid' | 'totalCents' | 'currency'>,
  ): Promise<PaymentAction | null> {
    const waiting = await waitingOrder(db, order.guid)
    if (!waiting?.action || waiting.authenticationUntilEpochMs === null) return null
    const provider = waiting.action.provider === 'stripe' ? 'stripe' : 'local'
    return {
      provider,
      publishableKey: provider === 'stripe' ? deps.payment.publishableKey : null,
      clientSecret: waiting.action.clientSecret,
      amountCents: order.totalCents,
      currency: order.currency,
      untilEpochMs: waiting.authenticationUntilEpochMs,
    }
  }

  /** The cardholder answered their bank (the app says so): the order settles by its charge. */
  async function authenticated(
    eventSlug: string,
    guid: string,
  ): Promise<Result<SummaryOf<OrderStatus>, OrderNotFound>> {
    const order = await orderOfEvent(db, eventSlug, guid)
    if (!order) return err({ code: 'order_not_found' })
    await authentication.settle(guid)
    return status(eventSlug, guid)
  }

  async function summary(
    eventSlug: string,
    guid: string,
  ): Promise<Result<SummaryOf<OrderSummary>, OrderNotFound>> {
    const order = await orderOfEvent(db, eventSlug, guid)
    const event = order ? await catalogue.event(order.eventSlug) : null
    const device = order && event ? await catalogue.eventDevice(event.slug, order.deviceId) : null
    if (!order || !event || !device) return err({ code: 'order_not_found' })
    const [content, plays, makeGood] = await Promise.all([
      orderContent(db, order.executionContentKey),
      deps.playsOf(order.guid),
      deps.makeGoodOf?.(order.guid) ?? null,
    ])
    return ok(
      orderSummary(
        {
          ...order,
          contentUrl: content?.url ?? null,
          contentType: content?.type ?? null,
          contentImageUrl: content ? contentImageUrl(content) : null,
          plays,
          makeGood,
        },
        event,
        device,
      ),
    )
  }

  // spec §7 call 10: marketing e-mails are opt-in (default off); the sponsor-sharing consent is
  // shown only for a branded event.
  async function defaults(
    eventSlug: string,
    deviceId: string,
  ): Promise<Result<OrderDefaults, { code: 'event_not_found' | 'device_not_found' }>> {
    const event = await catalogue.event(eventSlug)
    if (!event) return err({ code: 'event_not_found' })
    if (!(await catalogue.eventDevice(event.slug, deviceId))) {
      return err({ code: 'device_not_found' })
    }
    return ok({
      marketingAcknowledgement: { willReceive: false },
      isShareInfoWithSponsorVisible: event.branded,
    })
  }

  return {
    place: placing.place,
    replay: placing.replay,
    processOrder: processing.processOrder,
    status,
    authenticated,
    /**
     * Settles an order waiting for the cardholder by its charge's outcome (also for a provider's
     * event that says the charge succeeded or failed); nothing when it is not waiting.
     */
    settleAuthentication: authentication.settle,
    /** Fails the orders whose wait for the cardholder ended (the `authentication-timeout` job). */
    endWaits: authentication.endWaits,
    summary,
    defaults,
    /** Finishes the orders a gone instance left Processing (the `order-recovery` job, jobs.ts). */
    recover: recovery.recover,
    takeOverLeases: recovery.takeOver,
    /** Waits for the orders being processed here and hands their leases back. */
    drain: recovery.drain,
    // An operator's changes (ops/), each in the caller's transaction with its refund and audit row:
    /** The order, locked until the transaction ends; null when there is none. */
    lockForChange: (tx: Queryable, guid: string): Promise<LockedOrder | null> =>
      lockOrder(tx, guid),
    /** UnderReview → Confirmed with its history row; false when it was not under review. */
    approve: (tx: Queryable, guid: string, actor: Actor) => approveOrder(tx, guid, actor),
    /** → Cancelled from `fromState`, its slots and code freed, with its history row. */
    cancel: (
      tx: Queryable,
      guid: string,
      fromState: OrderState,
      reason: ProblemData,
      actor: Actor,
    ) => cancelOrder(tx, guid, fromState, reason, actor),
    /** An order's personal data's lifetime: when it goes, the sweep, each module's part (lifetime.ts). */
    lifetime,
  }
}
