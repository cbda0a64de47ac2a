import * as v from 'valibot'
import { compareDateHour, DAY_MS, EVENT_DATE_HOUR_PATTERN, isDateHour } from '../domain/date-hour'
import { DEFAULT_PLAYS_PER_SLOT, DEFAULT_SECONDS_PER_SHOUT } from '../domain/slot-package'
import { EmailSchema } from '../domain/validation'
import {
  ContentTypeSchema,
  CoordinatesSchema,
  CurrencySchema,
  EpochMsSchema,
  EventSlugSchema,
  issue,
  nonNegativeInt,
  positiveInt,
  queryInt,
  TimeZoneIdSchema,
  text,
} from './common'
import { endpoint } from './endpoint'

// api-v1 "Spotlight": events, billboards, open slots, promo codes.

const EventDateHourSchema = v.pipe(
  v.string(),
  v.regex(EVENT_DATE_HOUR_PATTERN, issue('date_hour_invalid')),
  v.check(isDateHour, issue('date_hour_not_real')),
)

// spec §3: an event's timing. catalogue-format: start before end, slotWidthMS divides a day.
export const eventTimingEntries = {
  startDateHourLocalInclusive: EventDateHourSchema,
  endDateHourLocalExclusive: EventDateHourSchema,
  slotWidthMS: v.pipe(
    positiveInt(),
    v.check((ms) => DAY_MS % ms === 0, issue('slot_length_invalid')),
  ),
}

// An unreadable date is reported by its own field, so this check only compares readable ones.
export const startsBeforeEnd = (timing: {
  startDateHourLocalInclusive: string
  endDateHourLocalExclusive: string
}): boolean => {
  const { startDateHourLocalInclusive: start, endDateHourLocalExclusive: end } = timing
  if (!isDateHour(start) || !isDateHour(end)) return true
  return compareDateHour(start, end) < 0
}

export const END_AFTER_START = issue('end_before_start')

export const EventTimingSchema = v.pipe(
  v.object(eventTimingEntries),
  v.forward(
    v.check((e) => startsBeforeEnd(e), END_AFTER_START),
    ['endDateHourLocalExclusive'],
  ),
)

export const EventSchema = v.pipe(
  v.object({
    slug: EventSlugSchema,
    name: text(),
    ...eventTimingEntries,
    allowedContentGeneratorTypes: v.pipe(v.array(ContentTypeSchema), v.minLength(1)),
    valueCentsPerSlot: nonNegativeInt(),
    currency: CurrencySchema,
    branded: v.boolean(),
    sponsorName: v.nullable(text()),
    minPresaleSlotEpochMs: v.nullable(EpochMsSchema),
    // (catalogue format) the slot package the select-shouts step shows. Defaults when absent:
    // an event answer cached by a worker before the fields existed still parses.
    playsPerSlot: v.optional(positiveInt(), DEFAULT_PLAYS_PER_SLOT),
    secondsPerShout: v.optional(positiveInt(), DEFAULT_SECONDS_PER_SHOUT),
  }),
  v.forward(
    v.check((e) => startsBeforeEnd(e), END_AFTER_START),
    ['endDateHourLocalExclusive'],
  ),
)
export type ShoutEvent = v.InferOutput<typeof EventSchema>

export const LiveEventsSchema = v.object({ events: v.array(EventSchema) })
export type LiveEvents = v.InferOutput<typeof LiveEventsSchema>

// spec §3: traffic directions
export const TRAFFIC_DIRECTIONS = [
  'North',
  'South',
  'East',
  'West',
  'South West',
  'South East',
  'North West',
  'North East',
] as const
export const TrafficDirectionSchema = v.picklist(TRAFFIC_DIRECTIONS)
export type TrafficDirection = v.InferOutput<typeof TrafficDirectionSchema>

export const DeviceSchema = v.object({
  deviceId: text(),
  location: text(500),
  trafficDirection: TrafficDirectionSchema,
  coordinates: CoordinatesSchema,
  viewingAreaCoordinates: v.array(CoordinatesSchema),
  screens: positiveInt(),
  imageUrl: text(2000),
  streetViewUrl: v.nullable(text(2000)),
  soldOut: v.boolean(),
  unavailableForEvent: v.boolean(),
  city: text(),
  stateAbbr: v.nullable(text(10)),
  country: text(),
  /** The country's ISO 3166 code as the server reads the catalogue's words (null: none it knows):
   * the shop names the country in the reader's language from it. */
  countryCode: v.optional(v.nullable(text(2))),
  timeZoneId: TimeZoneIdSchema,
  contentWidth: positiveInt(),
  contentHeight: positiveInt(),
})
export type Device = v.InferOutput<typeof DeviceSchema>

// spec §9: device list page size 200, offset 0, sorted by id ascending.
export const DEVICE_ORDER_BY = ['id', 'city', 'location'] as const
export const SORT_DIRECTIONS = ['asc', 'desc'] as const
export const DEVICE_PAGE_LIMIT_MAX = 200

export const DevicesQuerySchema = v.object({
  limit: queryInt(DEVICE_PAGE_LIMIT_MAX, 1, DEVICE_PAGE_LIMIT_MAX),
  offset: queryInt(0, 0, Number.MAX_SAFE_INTEGER),
  orderBy: v.optional(
    v.picklist(DEVICE_ORDER_BY, `must be one of ${DEVICE_ORDER_BY.join(', ')}`),
    'id',
  ),
  sortDirection: v.optional(v.picklist(SORT_DIRECTIONS, issue('sort_direction_invalid')), 'asc'),
})
export type DevicesQuery = v.InferOutput<typeof DevicesQuerySchema>

/** spec §9: the first page as the app asks for it (and the service worker warms). */
export const FIRST_DEVICES_PAGE = {
  limit: DEVICE_PAGE_LIMIT_MAX,
  offset: 0,
  orderBy: 'id',
  sortDirection: 'asc',
} as const

export const PaginationSchema = v.object({
  limit: positiveInt(),
  offset: nonNegativeInt(),
  orderBy: v.picklist(DEVICE_ORDER_BY),
  sortDirection: v.picklist(SORT_DIRECTIONS),
  total: nonNegativeInt(),
})
export type Pagination = v.InferOutput<typeof PaginationSchema>

export const DevicesPageSchema = v.object({
  devices: v.array(DeviceSchema),
  pagination: PaginationSchema,
})
export type DevicesPage = v.InferOutput<typeof DevicesPageSchema>

export const SlotSearchRequestSchema = v.pipe(
  v.strictObject({
    deviceId: text(),
    eventSlug: text(),
    startEpochMs: EpochMsSchema,
    endEpochMs: EpochMsSchema,
  }),
  v.forward(
    v.check((r) => r.endEpochMs > r.startEpochMs, issue('slot_range_invalid')),
    ['endEpochMs'],
  ),
)
export type SlotSearchRequest = v.InferOutput<typeof SlotSearchRequestSchema>

export const SlotSearchResponseSchema = v.object({
  openSlots: v.array(nonNegativeInt()),
  event: EventSchema,
  // null once no slot of the event can still be bought
  minAvailableSlotEpochMs: v.nullable(EpochMsSchema),
  maxAvailableSlotEpochMs: EpochMsSchema,
  minPresaleSlotEpochMs: v.nullable(EpochMsSchema),
  timeZoneId: TimeZoneIdSchema,
  valueCentsPerSlot: nonNegativeInt(),
})
export type SlotSearchResponse = v.InferOutput<typeof SlotSearchResponseSchema>

export const PromoCodeSchema = v.pipe(
  v.string(issue('promo_invalid')),
  v.trim(),
  v.regex(/^[A-Za-z0-9_-]{1,64}$/, issue('promo_invalid')),
)

// spec §3: a promo is {promoCode, centsOffTotal} or {promoCode, percentOffTotal}
export const PromoSchema = v.union([
  v.object({ promoCode: PromoCodeSchema, centsOffTotal: positiveInt() }),
  v.object({
    promoCode: PromoCodeSchema,
    percentOffTotal: v.pipe(v.number(), v.gtValue(0), v.maxValue(100)),
  }),
])
export type PromoResponse = v.InferOutput<typeof PromoSchema>

export const PromoQuerySchema = v.object({
  eventSlug: text(),
  email: v.optional(EmailSchema),
})
export type PromoQuery = v.InferOutput<typeof PromoQuerySchema>

// ---------- endpoints ----------

export const spotlight = {
  event: endpoint({
    name: 'getEvent',
    method: 'GET',
    path: '/spotlight/events/{slug}',
    summary: 'An event (spec §7 call 8)',
    response: EventSchema,
    errors: ['event_not_found'],
  }),
  liveEvents: endpoint({
    name: 'listLiveEvents',
    method: 'GET',
    path: '/spotlight/live-events',
    summary: 'Events that are not over yet, by slug (the home page)',
    response: LiveEventsSchema,
  }),
  devices: endpoint({
    name: 'listEventDevices',
    method: 'GET',
    path: '/spotlight/events/{slug}/devices',
    summary: 'The billboards of an event, paged (spec §9: 200 per page by id ascending)',
    query: DevicesQuerySchema,
    response: DevicesPageSchema,
    errors: ['event_not_found'],
  }),
  qrPng: endpoint({
    name: 'getDeviceQrPng',
    method: 'GET',
    path: '/spotlight/events/{slug}/devices/{deviceId}/qr.png',
    summary: "A billboard's QR code (512 px PNG): it opens /{slug}?device={deviceId}",
    file: ['image/png'],
    errors: ['event_not_found', 'device_not_found', 'device_not_in_event', 'host_not_allowed'],
  }),
  qrSvg: endpoint({
    name: 'getDeviceQrSvg',
    method: 'GET',
    path: '/spotlight/events/{slug}/devices/{deviceId}/qr.svg',
    summary: "A billboard's QR code as SVG: it opens /{slug}?device={deviceId}",
    file: ['image/svg+xml'],
    errors: ['event_not_found', 'device_not_found', 'device_not_in_event', 'host_not_allowed'],
  }),
  slotSearch: endpoint({
    name: 'searchSlots',
    method: 'POST',
    path: '/spotlight/slots/search',
    summary: 'Open slots of a billboard (spec §7 call 7), with the 5-hour cut-off',
    body: SlotSearchRequestSchema,
    response: SlotSearchResponseSchema,
    errors: ['event_not_found', 'device_not_found', 'slot_range_invalid'],
  }),
  promo: endpoint({
    name: 'getPromo',
    method: 'GET',
    path: '/spotlight/promos/code/{promoCode}',
    summary: 'A promo code for an event (spec §7 call 9)',
    query: PromoQuerySchema,
    response: PromoSchema,
    errors: [
      'promo_invalid',
      'promo_wrong_event',
      'promo_once_per_customer',
      'promo_too_many_lookups',
    ],
  }),
} as const
