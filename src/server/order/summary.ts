import type {
  Device,
  OrderPlay,
  OrderState,
  OrderSummary,
  ShoutEvent,
} from '../../contract/index.ts'
import {
  type ContentType,
  confirmationCode,
  DEFAULT_PLAYS_PER_SLOT,
  DEFAULT_SECONDS_PER_SHOUT,
  slotEndEpochMs,
  slotStartEpochMs,
} from '../../domain/index.ts'
import type { ProblemData } from '../../domain/problems.ts'

// The order as its shopper sees it (spec §7 call 9, api-v1 OrderSummary), made in one place for the
// shop's summary and for the console's order, which shows the order as the shopper sees it.

/** What the order itself holds of its summary (the rest comes from the catalogue). */
export type SummaryFacts = {
  guid: string
  eventSlug: string
  deviceId: string
  state: OrderState
  /** why it failed or was cancelled (the HTTP edge writes them: platform/http/errors.ts) */
  errors: ProblemData[]
  confirmationDateEpochMs: number | null
  slotNumbers: readonly number[]
  currency: string
  subtotalCents: number
  discountCents: number
  totalCents: number
  promoCode: string | null
  locale: string
  contentUrl: string | null
  contentType: ContentType | null
  /** the photo, or the first frame of the clip (src/server/content/storage.ts contentImageUrl) */
  contentImageUrl: string | null
  plays: OrderPlay[]
  /** the make-good once decided (make-good/reads.ts), else null */
  makeGood?: OrderSummary['makeGood']
}

/**
 * An answer whose failures are problems: the HTTP edge writes them as `errors`, `codes` and `params`
 * (platform/http/errors.ts withProblemFields).
 */
export type SummaryOf<T> = Omit<T, 'errors' | 'codes' | 'params'> & { problems: ProblemData[] }

/**
 * The summary of an order, its event and billboard as the catalogue lists them. The shop answers
 * "not found" without them; the console still shows an order whose event or billboard has left the
 * catalogue, with what the order holds (no slot times without the event, UTC without the billboard).
 */
export function orderSummary(
  order: SummaryFacts,
  event: ShoutEvent | null,
  device: Device | null,
): SummaryOf<OrderSummary> {
  const timeZoneId = device?.timeZoneId ?? 'UTC'
  const slotNumbers = [...order.slotNumbers].sort((a, b) => a - b)
  return {
    guid: order.guid,
    confirmationCode: confirmationCode(order.guid),
    eventSlug: order.eventSlug,
    eventName: event?.name ?? order.eventSlug,
    orderState: order.state,
    problems: order.errors,
    confirmationDateEpochMs: order.confirmationDateEpochMs,
    device: {
      deviceId: order.deviceId,
      location: device?.location ?? order.deviceId,
      city: device?.city ?? '',
      stateAbbr: device?.stateAbbr ?? null,
      country: device?.country ?? '',
      timeZoneId,
    },
    slots: event
      ? slotNumbers.map((n) => ({
          slotNumber: n,
          startEpochMs: slotStartEpochMs(event, timeZoneId, n),
          endEpochMs: slotEndEpochMs(event, timeZoneId, n),
        }))
      : [],
    contentUrl: order.contentUrl,
    contentType: order.contentType,
    contentImageUrl: order.contentImageUrl,
    currency: order.currency,
    subtotalCents: order.subtotalCents,
    discountCents: order.discountCents,
    totalCents: order.totalCents,
    promoCode: order.promoCode,
    locale: order.locale as OrderSummary['locale'],
    playsPerSlot: event?.playsPerSlot ?? DEFAULT_PLAYS_PER_SLOT,
    secondsPerShout: event?.secondsPerShout ?? DEFAULT_SECONDS_PER_SHOUT,
    plays: order.plays,
    makeGood: order.makeGood ?? null,
  }
}
