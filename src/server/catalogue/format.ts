import * as v from 'valibot'
import {
  ContentTypeSchema,
  CoordinatesSchema,
  CurrencySchema,
  DEFAULT_TEMPLATE_MODE,
  EventSlugSchema,
  EventTimingSchema,
  PromoCodeSchema,
  TimeZoneIdSchema,
  TrafficDirectionSchema,
} from '../../contract/index.ts'
import { adPlayCostCents } from '../../domain/campaign.ts'
import { NOT_EVENTS } from '../../domain/locale.ts'
import { DEFAULT_VALUE_CENTS_PER_SLOT } from '../../domain/price.ts'
import {
  DEFAULT_PLAYS_PER_SLOT,
  DEFAULT_SECONDS_PER_SHOUT,
  packageFitsSlot,
} from '../../domain/schedule.ts'
import { placeholderNames } from './placeholders.ts'
import { parseTemplateHtml } from './template-html.ts'

// The catalogue an operator imports (docs/catalogue-format.md): its shape and its checks. It is
// operator input, so it is checked whole before anything is written (import.ts): every problem is
// reported with its JSON path.

/** The ids already stored, which a file may refer to without defining them. */
export type KnownIds = { devices: Set<string>; templates: Set<string>; events: Set<string> }

// catalogue-format: the only placeholders a template may use; their values are escaped when rendered.
export const TEMPLATE_PLACEHOLDERS = [
  'buyerName',
  'recipientName',
  'multilineMessage',
  'photoUrl',
] as const
const TEMPLATE_HTML_MAX_LENGTH = 100_000

const id = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100))
const url = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(2000))
const positiveInt = v.pipe(v.number(), v.safeInteger(), v.minValue(1))
const fraction = v.pipe(v.number(), v.minValue(0), v.maxValue(1))
// catalogue-format "screenCorners": the screen in the billboard's photo, for the keepsake page
const ScreenCornersSchema = v.tuple([
  v.strictObject({ x: fraction, y: fraction }),
  v.strictObject({ x: fraction, y: fraction }),
  v.strictObject({ x: fraction, y: fraction }),
  v.strictObject({ x: fraction, y: fraction }),
])

const CatalogueDeviceFields = v.strictObject({
  deviceId: id,
  location: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(500)),
  city: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
  stateAbbr: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(10))), null),
  country: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
  timeZoneId: TimeZoneIdSchema,
  coordinates: CoordinatesSchema,
  viewingAreaCoordinates: v.optional(v.array(CoordinatesSchema), []),
  trafficDirection: TrafficDirectionSchema,
  screens: v.optional(positiveInt, 1),
  imageUrl: url,
  screenCorners: v.optional(v.nullable(ScreenCornersSchema), null),
  streetViewUrl: v.optional(v.nullable(url), null),
  contentWidth: positiveInt,
  contentHeight: positiveInt,
  soldOut: v.optional(v.boolean(), false),
  // catalogue-format "Advertising": sold to advertisers only with all three
  impressionsPerPlay: v.optional(v.nullable(positiveInt), null),
  adCpmCents: v.optional(v.nullable(positiveInt), null),
  adCurrency: v.optional(v.nullable(CurrencySchema), null),
})

const CatalogueDeviceSchema = v.pipe(
  CatalogueDeviceFields,
  v.check(
    (d) =>
      [d.impressionsPerPlay, d.adCpmCents, d.adCurrency].every((x) => x === null) ||
      [d.impressionsPerPlay, d.adCpmCents, d.adCurrency].every((x) => x !== null),
    'impressionsPerPlay, adCpmCents and adCurrency go together (a billboard without them is not sold to advertisers)',
  ),
  // a play costs at least a cent: a price that rounds to nothing would sell every free cell
  v.forward(
    v.check(
      (d) =>
        d.impressionsPerPlay === null ||
        d.adCpmCents === null ||
        adPlayCostCents(d.impressionsPerPlay, d.adCpmCents) >= 1,
      'impressionsPerPlay × adCpmCents / 1000 must be at least one cent a play',
    ),
    ['adCpmCents'],
  ),
)

function unknownPlaceholders(html: string): string[] {
  const known: readonly string[] = TEMPLATE_PLACEHOLDERS
  return placeholderNames(html).filter((name) => !known.includes(name))
}

const CatalogueTemplateSchema = v.strictObject({
  id,
  name: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
  types: v.pipe(v.array(ContentTypeSchema), v.minLength(1, 'must name photo, video or both')),
  mode: v.optional(v.pipe(v.string(), v.minLength(1)), DEFAULT_TEMPLATE_MODE),
  widthPx: positiveInt,
  heightPx: positiveInt,
  previewImageUrl: url,
  examplePreviewVideoUrl: v.optional(v.nullable(url), null),
  videoMaxLengthSeconds: v.optional(v.nullable(v.pipe(v.number(), v.gtValue(0))), null),
  html: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(TEMPLATE_HTML_MAX_LENGTH),
    v.rawCheck(({ dataset, addIssue }) => {
      // a pipe goes on after a failed check: html over its limit is already refused, never read further
      if (!dataset.typed || dataset.value.length > TEMPLATE_HTML_MAX_LENGTH) return
      const unknown = unknownPlaceholders(dataset.value)
      for (const name of unknown) {
        addIssue({
          message: `uses the unknown placeholder {{${name}}}; allowed: ${TEMPLATE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(' ')}`,
        })
      }
      if (unknown.length > 0) return
      // A template the renderer cannot read would fail every shopper's generate call: refuse it at import
      // with the renderer's own reasons (catalogue-format: the supported HTML and CSS subset).
      const parsed = parseTemplateHtml(dataset.value)
      if (!parsed.ok) for (const message of parsed.errors) addIssue({ message })
    }),
  ),
})

const CatalogueEventSchema = v.pipe(
  v.strictObject({
    // a slug is the first segment of the event's pages: the shop's own pages keep theirs
    slug: v.pipe(
      EventSlugSchema,
      v.check((slug) => !NOT_EVENTS.has(slug), 'is an address the shop uses for another page'),
    ),
    name: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
    ...EventTimingSchema.pipe[0].entries,
    allowedContentGeneratorTypes: v.optional(
      v.pipe(v.array(ContentTypeSchema), v.minLength(1, 'must name photo, video or both')),
      ['photo'],
    ),
    // spec §9: default price per slot 4000 cents when none provided
    valueCentsPerSlot: v.optional(
      v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
      DEFAULT_VALUE_CENTS_PER_SLOT,
    ),
    currency: v.optional(CurrencySchema, 'USD'),
    branded: v.optional(v.boolean(), false),
    sponsorName: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(200))), null),
    minPresaleSlotEpochMs: v.optional(v.nullable(v.pipe(v.number(), v.safeInteger())), null),
    // (catalogue format) how often a sold shout plays in its slot, and how long each play lasts
    playsPerSlot: v.optional(
      v.pipe(v.number(), v.safeInteger(), v.minValue(1, 'must be at least 1')),
      DEFAULT_PLAYS_PER_SLOT,
    ),
    secondsPerShout: v.optional(
      v.pipe(v.number(), v.safeInteger(), v.minValue(1, 'must be at least 1')),
      DEFAULT_SECONDS_PER_SHOUT,
    ),
    // catalogue-format "Advertising": the share of each hour's free time ads may take (percent);
    // absent, the server's AD_FREE_TIME_SHARE
    adSharePercent: v.optional(
      v.nullable(
        v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(100, 'must be 0 to 100')),
      ),
      null,
    ),
    devices: v.optional(
      v.array(v.strictObject({ deviceId: id, unavailable: v.optional(v.boolean(), false) })),
      [],
    ),
    templates: v.optional(v.array(id), []),
  }),
  // The domain's start-before-end rule, reported on endDateHourLocalExclusive.
  v.forward(
    v.check(
      (e) =>
        v.is(EventTimingSchema, {
          startDateHourLocalInclusive: e.startDateHourLocalInclusive,
          endDateHourLocalExclusive: e.endDateHourLocalExclusive,
          slotWidthMS: e.slotWidthMS,
        }),
      'must be after startDateHourLocalInclusive',
    ),
    ['endDateHourLocalExclusive'],
  ),
  // catalogue-format: the plays of a slot must not overlap (src/domain/schedule.ts)
  v.forward(
    v.check(
      (e) => packageFitsSlot(e),
      (issue) => {
        const e = issue.input as {
          slotWidthMS: number
          playsPerSlot: number
          secondsPerShout: number
        }
        return `secondsPerShout × playsPerSlot (${e.secondsPerShout} × ${e.playsPerSlot} s) must fit in the slot (${e.slotWidthMS / 1000} s)`
      },
    ),
    ['secondsPerShout'],
  ),
)

const CataloguePromoSchema = v.pipe(
  v.strictObject({
    promoCode: PromoCodeSchema,
    eventSlug: id,
    centsOffTotal: v.optional(
      v.pipe(v.number(), v.safeInteger(), v.minValue(1, 'must be above 0')),
    ),
    percentOffTotal: v.optional(
      v.pipe(v.number(), v.safeInteger(), v.minValue(1), v.maxValue(100, 'must be 1 to 100')),
    ),
    oncePerCustomer: v.optional(v.boolean(), false),
  }),
  v.check(
    (p) => (p.centsOffTotal === undefined) !== (p.percentOffTotal === undefined),
    'must have exactly one of centsOffTotal or percentOffTotal',
  ),
)

export const CatalogueSchema = v.strictObject({
  devices: v.optional(v.array(CatalogueDeviceSchema), []),
  templates: v.optional(v.array(CatalogueTemplateSchema), []),
  events: v.optional(v.array(CatalogueEventSchema), []),
  promos: v.optional(v.array(CataloguePromoSchema), []),
})

export type Catalogue = v.InferOutput<typeof CatalogueSchema>
export type CatalogueInput = v.InferInput<typeof CatalogueSchema>

function jsonPath(issue: v.BaseIssue<unknown>): string {
  let path = '$'
  for (const item of issue.path ?? []) {
    path += typeof item.key === 'number' ? `[${item.key}]` : `.${String(item.key)}`
  }
  return path
}

function issueText(issue: v.BaseIssue<unknown>): string {
  if (issue.type === 'strict_object' && issue.expected === 'never') return 'is not an allowed field'
  if (issue.kind === 'schema' && issue.input === undefined) return 'is required'
  return issue.message
}

export type CatalogueCheck =
  | { success: true; catalogue: Catalogue }
  | { success: false; errors: string[] }

/** The whole file checked: shape, then uniqueness and references. Every problem by JSON path. */
export function checkCatalogue(input: unknown, known?: KnownIds): CatalogueCheck {
  const parsed = v.safeParse(CatalogueSchema, input, { abortEarly: false })
  if (!parsed.success) {
    return {
      success: false,
      errors: [...new Set(parsed.issues.map((i) => `${jsonPath(i)}: ${issueText(i)}`))],
    }
  }
  const catalogue = parsed.output
  const errors: string[] = []
  const seen = (list: string[], path: (i: number) => string, what: string) => {
    const first = new Map<string, number>()
    list.forEach((value, i) => {
      const key = value.toLowerCase()
      const earlier = first.get(key)
      if (earlier === undefined) first.set(key, i)
      else errors.push(`${path(i)}: duplicate ${what} '${value}' (first at ${path(earlier)})`)
    })
  }
  seen(
    catalogue.devices.map((d) => d.deviceId),
    (i) => `$.devices[${i}].deviceId`,
    'deviceId',
  )
  seen(
    catalogue.templates.map((t) => t.id),
    (i) => `$.templates[${i}].id`,
    'template id',
  )
  seen(
    catalogue.events.map((e) => e.slug),
    (i) => `$.events[${i}].slug`,
    'event slug',
  )
  seen(
    catalogue.promos.map((p) => p.promoCode),
    (i) => `$.promos[${i}].promoCode`,
    'promoCode',
  )

  const deviceIds = new Set([
    ...(known?.devices ?? []),
    ...catalogue.devices.map((d) => d.deviceId),
  ])
  const templateIds = new Set([
    ...(known?.templates ?? []),
    ...catalogue.templates.map((t) => t.id),
  ])
  const eventSlugs = new Set([...(known?.events ?? []), ...catalogue.events.map((e) => e.slug)])

  catalogue.events.forEach((event, i) => {
    seen(
      event.devices.map((d) => d.deviceId),
      (j) => `$.events[${i}].devices[${j}].deviceId`,
      'deviceId',
    )
    seen(event.templates, (j) => `$.events[${i}].templates[${j}]`, 'template id')
    event.devices.forEach((d, j) => {
      if (!deviceIds.has(d.deviceId)) {
        errors.push(`$.events[${i}].devices[${j}].deviceId: unknown device '${d.deviceId}'`)
      }
    })
    event.templates.forEach((t, j) => {
      if (!templateIds.has(t))
        errors.push(`$.events[${i}].templates[${j}]: unknown template '${t}'`)
    })
  })
  catalogue.promos.forEach((promo, i) => {
    if (!eventSlugs.has(promo.eventSlug)) {
      errors.push(`$.promos[${i}].eventSlug: unknown event '${promo.eventSlug}'`)
    }
  })
  return errors.length > 0 ? { success: false, errors } : { success: true, catalogue }
}
