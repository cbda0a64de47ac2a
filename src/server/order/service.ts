import type { OrderDefaults, OrderStatus, OrderSummary } from '../../contract/index.ts'
import { orderContent } from '../content/reads.ts'
import { contentImageUrl } from '../content/storage.ts'
import type { PaymentService } from '../payment/service.ts'
import type { Database } from '../platform/db/client.ts'
import type { AppEnv } from '../platform/env.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { playsOfOrder } from '../player/reads.ts'
import type { PromoService } from '../promo/service.ts'
import type { CatalogueReads } from '../spotlight/service.ts'
import type { SoldSlots } from '../spotlight/sold-slots.ts'
import type { OrderError } from './errors.ts'
import { createOrderLifetime } from './lifetime.ts'
import { createPlacing } from './place.ts'
import { createProcessing } from './processing.ts'
import { createRecovery } from './recovery.ts'
import { orderOfEvent } from './repo.ts'
import { orderSummary, type SummaryOf } from './summary.ts'

// api-v1 "Order": defaults, placing an order (place.ts), processing it (processing.ts: Processing →
// Confirmed, UnderReview or Failed), recovering what a gone instance left (recovery.ts), its status
// and its summary. The card it pays with is the payment module's. Answers are results and typed
// errors (errors.ts); the routes (routes.ts) give each error its status and the spec's text.

export type { OrderError, SlotProblem } from './errors.ts'
export { orderTypeFor, requestHash } from './place.ts'

export type OrderService = ReturnType<typeof createOrderService>

export function createOrderService(deps: {
  database: Database
  catalogue: CatalogueReads
  promo: PromoService
  soldSlots: SoldSlots
  payment: PaymentService
  appEnv: AppEnv
  log: Logger
  now: () => number
  /** This instance's id and the length of its leases on orders in Processing. */
  lease: LeaseSettings
  /** ORDER_CONTENT_TTL_DAYS in milliseconds: an order's personal data goes this long after its last slot. */
  orderDataTtlMs: number
}) {
  const { database: db, catalogue } = deps
  const processing = createProcessing(deps)
  const placing = createPlacing({ ...deps, process: processing.schedule })
  const recovery = createRecovery({ ...deps, processing })
  const lifetime = createOrderLifetime(deps)

  async function status(
    eventSlug: string,
    guid: string,
  ): Promise<Result<SummaryOf<OrderStatus>, OrderError>> {
    const order = await orderOfEvent(db, eventSlug, guid)
    if (!order) return err({ code: 'order_not_found' })
    return ok({
      orderState: order.state,
      problems: order.errors,
      confirmationDateEpochMs: order.confirmationDateEpochMs,
    })
  }

  async function summary(
    eventSlug: string,
    guid: string,
  ): Promise<Result<SummaryOf<OrderSummary>, OrderError>> {
    const order = await orderOfEvent(db, eventSlug, guid)
    const event = order ? await catalogue.event(order.eventSlug) : null
    const device = order && event ? await catalogue.eventDevice(event.slug, order.deviceId) : null
    if (!order || !event || !device) return err({ code: 'order_not_found' })
    const [content, plays] = await Promise.all([
      orderContent(db, order.executionContentKey),
      playsOfOrder(db, order.guid),
    ])
    return ok(
      orderSummary(
        {
          ...order,
          contentUrl: content?.url ?? null,
          contentType: content?.type ?? null,
          contentImageUrl: content ? contentImageUrl(content) : null,
          plays,
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
  ): Promise<Result<OrderDefaults, OrderError>> {
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
    summary,
    defaults,
    /** Finishes the orders a gone instance left Processing (the `order-recovery` job, jobs.ts). */
    recover: recovery.recover,
    takeOverLeases: recovery.takeOver,
    /** Waits for the orders being processed here and hands their leases back. */
    drain: recovery.drain,
    /** An order's personal data's lifetime: when it goes, the sweep, each module's part (lifetime.ts). */
    lifetime,
  }
}
