import * as v from 'valibot'
import {
  compareDateHour,
  DAY_MS,
  EVENT_DATE_HOUR_PATTERN,
  isDateHour,
  isValidTimeZone,
} from './date-hour'
import { LOCALES } from './locale'
import { messages } from './messages'
import { EmailSchema, FirstNameSchema, LastNameSchema, PhoneSchema } from './validation'

// Schemas for every request and response of shared/api-v1.md. Request bodies are strict objects:
// api-v1 says unknown fields are rejected with 400. Responses are plain objects, so an older app
// keeps working when the server adds a field. Query strings arrive as strings and are converted here.

// ---------- building blocks ----------

const text = (max = 200) => v.pipe(v.string(), v.nonEmpty(messages.requiredField), v.maxLength(max))
const EpochMsSchema = v.pipe(v.number(), v.safeInteger('must be a whole number of milliseconds'))
const nonNegativeInt = () => v.pipe(v.number(), v.safeInteger(), v.minValue(0))
const positiveInt = () => v.pipe(v.number(), v.safeInteger(), v.minValue(1))
const unique = <T>(items: T[]) => new Set(items).size === items.length

export const CONTENT_TYPES = ['photo', 'video'] as const
export const ContentTypeSchema = v.picklist(CONTENT_TYPES)
export type ContentType = v.InferOutput<typeof ContentTypeSchema>

export { LOCALES, type Locale } from './locale'
export const LocaleSchema = v.picklist(LOCALES)

// spec §3: slugs such as 'mothers-day' or 'share-your-dragon-france'
export const EventSlugSchema = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase words joined by hyphens'),
  v.maxLength(100),
)

export const TimeZoneIdSchema = v.pipe(
  v.string(),
  v.check(isValidTimeZone, 'must be an IANA time zone name such as Europe/Paris'),
)

export const CurrencySchema = v.pipe(
  v.string(),
  v.regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code such as USD'),
)

const EventDateHourSchema = v.pipe(
  v.string(),
  v.regex(EVENT_DATE_HOUR_PATTERN, 'must be yyyy-MM-dd_HH'),
  v.check(isDateHour, 'must be a real calendar date and hour'),
)

export const CoordinatesSchema = v.object({
  lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
  lng: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
})
export type Coordinates = v.InferOutput<typeof CoordinatesSchema>

// ---------- Spotlight ----------

// spec §3: an event's timing. catalogue-format: start before end, slotWidthMS divides a day.
const eventTimingEntries = {
  startDateHourLocalInclusive: EventDateHourSchema,
  endDateHourLocalExclusive: EventDateHourSchema,
  slotWidthMS: v.pipe(
    positiveInt(),
    v.check((ms) => DAY_MS % ms === 0, 'must divide a day (86400000 ms) exactly'),
  ),
}

// An unreadable date is reported by its own field, so this check only compares readable ones.
const startsBeforeEnd = (timing: {
  startDateHourLocalInclusive: string
  endDateHourLocalExclusive: string
}): boolean => {
  const { startDateHourLocalInclusive: start, endDateHourLocalExclusive: end } = timing
  if (!isDateHour(start) || !isDateHour(end)) return true
  return compareDateHour(start, end) < 0
}

const END_AFTER_START = 'must be after startDateHourLocalInclusive'

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
  }),
  v.forward(
    v.check((e) => startsBeforeEnd(e), END_AFTER_START),
    ['endDateHourLocalExclusive'],
  ),
)
export type ShoutEvent = v.InferOutput<typeof EventSchema>

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
  timeZoneId: TimeZoneIdSchema,
  contentWidth: positiveInt(),
  contentHeight: positiveInt(),
})
export type Device = v.InferOutput<typeof DeviceSchema>

// spec §9: device list page size 200, offset 0, sorted by id ascending.
export const DEVICE_ORDER_BY = ['id', 'city', 'location'] as const
export const SORT_DIRECTIONS = ['asc', 'desc'] as const
export const DEVICE_PAGE_LIMIT_MAX = 200

/** A whole number from a query string. */
const queryNumber = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  )

/** A whole number from a query string, with its default when absent. */
const queryInt = (fallback: number, min: number, max: number) =>
  v.optional(queryNumber(min, max), String(fallback))

export const DevicesQuerySchema = v.object({
  limit: queryInt(DEVICE_PAGE_LIMIT_MAX, 1, DEVICE_PAGE_LIMIT_MAX),
  offset: queryInt(0, 0, Number.MAX_SAFE_INTEGER),
  orderBy: v.optional(
    v.picklist(DEVICE_ORDER_BY, `must be one of ${DEVICE_ORDER_BY.join(', ')}`),
    'id',
  ),
  sortDirection: v.optional(v.picklist(SORT_DIRECTIONS, 'must be asc or desc'), 'asc'),
})
export type DevicesQuery = v.InferOutput<typeof DevicesQuerySchema>

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
    v.check((r) => r.endEpochMs > r.startEpochMs, messages.slotRangeInvalid),
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
  v.string(messages.promoInvalid),
  v.trim(),
  v.regex(/^[A-Za-z0-9_-]{1,64}$/, messages.promoInvalid),
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

// ---------- Content ----------

export const DEFAULT_TEMPLATE_MODE = 'DynamicHtml'

export const TemplateSchema = v.object({
  id: text(),
  name: text(),
  types: v.pipe(v.array(ContentTypeSchema), v.minLength(1)),
  mode: v.optional(text(), DEFAULT_TEMPLATE_MODE),
  widthPx: positiveInt(),
  heightPx: positiveInt(),
  previewImageUrl: text(2000),
  // spec §3: its presence marks a video template
  examplePreviewVideoUrl: v.nullable(text(2000)),
  videoMaxLengthSeconds: v.nullable(v.pipe(v.number(), v.gtValue(0))),
})
export type Template = v.InferOutput<typeof TemplateSchema>

export const GeneratorsResponseSchema = v.object({ generators: v.array(TemplateSchema) })
export type GeneratorsResponse = v.InferOutput<typeof GeneratorsResponseSchema>

/** A repeated query parameter (`types=photo&types=video`) or a single one, as a list. */
const queryList = <T extends v.GenericSchema<string>>(item: T, fallback: string[]) =>
  v.pipe(
    v.optional(v.union([v.string(), v.array(v.string())]), fallback),
    v.transform((value) => (Array.isArray(value) ? value : [value])),
    v.array(item),
  )

export const GeneratorsQuerySchema = v.object({
  types: queryList(ContentTypeSchema, [...CONTENT_TYPES]),
  widthPx: queryNumber(1, 100_000),
  heightPx: queryNumber(1, 100_000),
  modes: queryList(text(), [DEFAULT_TEMPLATE_MODE]),
})
export type GeneratorsQuery = v.InferOutput<typeof GeneratorsQuerySchema>

export const UPLOAD_STATUSES = ['processing', 'ready', 'failed'] as const
export const UploadSchema = v.object({
  id: text(),
  kind: ContentTypeSchema,
  status: v.picklist(UPLOAD_STATUSES),
  url: v.nullable(text(2000)),
  error: v.nullable(v.string()),
  // spec §5: the upload's own moderation verdict (a video's sampled frames); optional for older servers.
  flagged: v.optional(v.boolean()),
})
export type Upload = v.InferOutput<typeof UploadSchema>

export const BUYER_NAME_MAX_LENGTH = 50
export const RECIPIENT_NAME_MAX_LENGTH = 50
export const MESSAGE_MAX_LENGTH = 280

export const ContentGenerationRequestSchema = v.strictObject({
  generatorId: text(),
  deviceId: text(),
  eventSlug: text(),
  uploadId: v.nullable(text()),
  buyerName: v.pipe(v.string(), v.trim(), v.maxLength(BUYER_NAME_MAX_LENGTH)),
  recipientName: v.pipe(v.string(), v.trim(), v.maxLength(RECIPIENT_NAME_MAX_LENGTH)),
  multilineMessage: v.pipe(v.string(), v.maxLength(MESSAGE_MAX_LENGTH)),
})
export type ContentGenerationRequest = v.InferOutput<typeof ContentGenerationRequestSchema>

export const GenerateRequestSchema = v.strictObject({
  contentGenerationRequest: ContentGenerationRequestSchema,
  async: v.boolean(),
})
export type GenerateRequest = v.InferOutput<typeof GenerateRequestSchema>

export const GeneratedContentSchema = v.object({
  key: text(),
  url: text(2000),
  type: ContentTypeSchema,
  widthPx: positiveInt(),
  heightPx: positiveInt(),
  // spec §5: inappropriate content is flagged (the app opens the ProhibitedContent modal; the order is
  // placed UnderReview). Optional: absent means not flagged.
  flagged: v.optional(v.boolean()),
})
export type GeneratedContent = v.InferOutput<typeof GeneratedContentSchema>

export const GenerateResponseSchema = v.object({
  success: v.boolean(),
  generatedContent: v.nullable(GeneratedContentSchema),
  error: v.nullable(v.string()),
  asyncPublicToken: v.nullable(v.string()),
})
export type GenerateResponse = v.InferOutput<typeof GenerateResponseSchema>

export const DaemonStatusSchema = v.object({
  error: v.nullable(v.string()),
  completedEpochMS: v.nullable(EpochMsSchema),
  link: v.nullable(v.string()),
})
export type DaemonStatus = v.InferOutput<typeof DaemonStatusSchema>

export const DaemonResultSchema = v.object({ newKey: text() })
export type DaemonResult = v.InferOutput<typeof DaemonResultSchema>

export const ContentEntrySchema = v.object({
  url: text(2000),
  type: ContentTypeSchema,
  widthPx: positiveInt(),
  heightPx: positiveInt(),
  durationSeconds: v.nullable(v.pipe(v.number(), v.minValue(0))),
  // spec §5, as in GeneratedContentSchema.
  flagged: v.optional(v.boolean()),
})
export type ContentEntry = v.InferOutput<typeof ContentEntrySchema>

export const ContentEntriesSchema = v.object({ entries: v.array(ContentEntrySchema) })
export type ContentEntries = v.InferOutput<typeof ContentEntriesSchema>

const FlagSetSchema = v.record(v.string(), v.boolean())
export const FeatureFlagsSchema = v.object({
  local: FlagSetSchema,
  dev: FlagSetSchema,
  prod: FlagSetSchema,
})
export type FeatureFlags = v.InferOutput<typeof FeatureFlagsSchema>

// ---------- Order ----------

export const OrderDefaultsQuerySchema = v.object({ deviceId: text(), eventSlug: text() })
export type OrderDefaultsQuery = v.InferOutput<typeof OrderDefaultsQuerySchema>

export const OrderDefaultsSchema = v.object({
  marketingAcknowledgement: v.object({ willReceive: v.boolean() }),
  isShareInfoWithSponsorVisible: v.boolean(),
})
export type OrderDefaults = v.InferOutput<typeof OrderDefaultsSchema>

export const PAYMENT_PROVIDERS = ['stripe', 'local'] as const
export const SetupIntentResponseSchema = v.object({
  provider: v.picklist(PAYMENT_PROVIDERS),
  publishableKey: v.nullable(v.string()),
  clientSecret: text(500),
  customerId: text(),
  checkoutSecretKey: text(500),
})
export type SetupIntentResponse = v.InferOutput<typeof SetupIntentResponseSchema>

export const LocalConfirmRequestSchema = v.strictObject({
  clientSecret: text(500),
  cardNumber: v.pipe(
    v.string(messages.cardNumberInvalid),
    v.transform((n) => n.replace(/[\s-]/g, '')),
    v.regex(/^\d{12,19}$/, messages.cardNumberInvalid),
  ),
  expMonth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)),
  expYear: v.pipe(v.number(), v.integer(), v.minValue(2000), v.maxValue(2100)),
  cvc: v.pipe(v.string(), v.regex(/^\d{3,4}$/, 'must be 3 or 4 digits')),
})
export type LocalConfirmRequest = v.InferOutput<typeof LocalConfirmRequestSchema>

export const LocalConfirmResponseSchema = v.object({
  status: v.literal('succeeded'),
  card: v.object({ brand: text(), last4: v.pipe(v.string(), v.regex(/^\d{4}$/)) }),
})
export type LocalConfirmResponse = v.InferOutput<typeof LocalConfirmResponseSchema>

// spec §5: four agreements must be accepted before the order is placed
export const AGREEMENT_LABELS = {
  safetyWarning: 'safety warning',
  terms: 'terms and conditions',
  noChanges: 'no-changes acknowledgement',
  privacyPolicy: 'privacy policy',
} as const

const required = (key: keyof typeof AGREEMENT_LABELS) =>
  v.pipe(v.boolean(), v.value(true, messages.agreementRequired(AGREEMENT_LABELS[key])))

export const AgreementsSchema = v.strictObject({
  safetyWarning: required('safetyWarning'),
  terms: required('terms'),
  noChanges: required('noChanges'),
  privacyPolicy: required('privacyPolicy'),
  userGeneratedContentPolicy: v.boolean(),
  shareInfoWithSponsor: v.boolean(),
  marketingEmails: v.boolean(),
  sms: v.boolean(),
})
export type Agreements = v.InferOutput<typeof AgreementsSchema>

export const MAX_SLOTS_PER_ENTRY = 5000

export const OrderEntrySchema = v.strictObject({
  deviceId: text(),
  slots: v.pipe(
    v.array(nonNegativeInt()),
    v.minLength(1, messages.noSlotsSelected),
    v.maxLength(MAX_SLOTS_PER_ENTRY),
    v.check(unique, 'must not list a slot twice'),
  ),
})
export type OrderEntry = v.InferOutput<typeof OrderEntrySchema>

export const ORDER_TYPES = ['Standard', 'Test'] as const

// api-v1 OrderRequest: the spec's order-creation payload (§3).
export const OrderRequestSchema = v.strictObject({
  entries: v.pipe(
    v.array(OrderEntrySchema),
    v.minLength(1, messages.noSlotsSelected),
    v.check((entries) => unique(entries.map((e) => e.deviceId)), 'must not list a billboard twice'),
  ),
  eventSlug: text(),
  emailAddress: EmailSchema,
  orderType: v.picklist(ORDER_TYPES),
  customer: v.strictObject({
    firstName: FirstNameSchema,
    lastName: LastNameSchema,
    phoneNumber: PhoneSchema,
    marketingAcknowledgement: v.strictObject({ willReceive: v.boolean() }),
  }),
  // spec §8 / api-v1: a missing key is the "missing billboard content" error
  executionContentKey: v.pipe(
    v.nullish(v.string(messages.missingBillboardContent), ''),
    v.nonEmpty(messages.missingBillboardContent),
  ),
  checkout: v.strictObject({
    stripeData: v.strictObject({
      customerId: text(),
      promoCode: v.nullable(PromoCodeSchema),
      checkoutSecretKey: text(500),
    }),
    state: v.literal('New'),
  }),
  // the content-generation request the content was made from (spec §5: "content request metadata")
  contentSource: v.pipe(
    v.nullish(ContentGenerationRequestSchema, null),
    v.check((source) => source != null, messages.missingContentMetadata),
    // the check above has ruled out null and undefined
    v.transform((source) => source as ContentGenerationRequest),
  ),
  locale: LocaleSchema,
  agreements: AgreementsSchema,
})
export type OrderRequest = v.InferOutput<typeof OrderRequestSchema>
export type OrderRequestInput = v.InferInput<typeof OrderRequestSchema>

export const ORDER_STATES = ['Processing', 'Confirmed', 'UnderReview', 'Failed'] as const
export const OrderStateSchema = v.picklist(ORDER_STATES)
export type OrderState = v.InferOutput<typeof OrderStateSchema>

export const OrderCreatedSchema = v.object({ guid: text(), orderState: v.literal('Processing') })
export type OrderCreated = v.InferOutput<typeof OrderCreatedSchema>

export const OrderStatusSchema = v.object({
  orderState: OrderStateSchema,
  errors: v.array(v.string()),
  confirmationDateEpochMs: v.nullable(EpochMsSchema),
})
export type OrderStatus = v.InferOutput<typeof OrderStatusSchema>

// api-v1: "the order as the confirmation page shows it". Labels are made by the app in the
// shopper's locale from slot numbers (slots.ts), so the server sends instants, not text.
export const OrderSummarySchema = v.object({
  guid: text(),
  confirmationCode: text(),
  eventSlug: text(),
  eventName: text(),
  orderState: OrderStateSchema,
  errors: v.array(v.string()),
  confirmationDateEpochMs: v.nullable(EpochMsSchema),
  device: v.object({
    deviceId: text(),
    location: text(500),
    city: text(),
    stateAbbr: v.nullable(text(10)),
    country: text(),
    timeZoneId: TimeZoneIdSchema,
  }),
  slots: v.array(
    v.object({
      slotNumber: nonNegativeInt(),
      startEpochMs: EpochMsSchema,
      endEpochMs: EpochMsSchema,
    }),
  ),
  contentUrl: v.nullable(v.string()),
  contentType: v.nullable(ContentTypeSchema),
  currency: CurrencySchema,
  subtotalCents: nonNegativeInt(),
  discountCents: nonNegativeInt(),
  totalCents: nonNegativeInt(),
  promoCode: v.nullable(v.string()),
  locale: LocaleSchema,
})
export type OrderSummary = v.InferOutput<typeof OrderSummarySchema>

// spec §3: API error body
export const ErrorBodySchema = v.object({ errors: v.array(v.string()) })
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>

// ---------- issues → error strings ----------

// The spec's own sentences; the short field suffixes are not among them.
const SPEC_MESSAGES: ReadonlySet<string> = new Set(
  Object.values(messages).filter(
    (m): m is Extract<typeof m, string> =>
      typeof m === 'string' && m !== messages.requiredField && m !== messages.unknownField,
  ),
)

/**
 * Turns valibot issues into the strings of `{errors: string[]}`: 'customer.lastName: is required',
 * 'zz: is not an allowed field'. A spec message ('Email Address is invalid') is kept verbatim,
 * because api-v1 says the spec's exact English text is used and it already names its field.
 */
export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[]): string[] {
  const errors = issues.map((issue) => {
    if (SPEC_MESSAGES.has(issue.message)) return issue.message
    const path = v.getDotPath(issue)
    return path ? `${path}: ${issueMessage(issue)}` : issueMessage(issue)
  })
  return [...new Set(errors)]
}

function issueMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.type === 'strict_object' && issue.expected === 'never') return messages.unknownField
  if (issue.kind === 'schema' && issue.input === undefined) return messages.requiredField
  return issue.message
}

/** Validates input against a schema: the output, or the errors ready for a 400 body. */
export function parseWithErrors<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
): { success: true; output: v.InferOutput<TSchema> } | { success: false; errors: string[] } {
  const result = v.safeParse(schema, input)
  return result.success
    ? { success: true, output: result.output }
    : { success: false, errors: issuesToErrors(result.issues) }
}
