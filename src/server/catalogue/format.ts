import * as v from 'valibot'
import {
  ContentTypeSchema,
  CoordinatesSchema,
  CurrencySchema,
  DEFAULT_TEMPLATE_MODE,
  EventSlugSchema,
  EventTimingSchema,
  issue,
  issuesToProblems,
  PromoCodeSchema,
  TimeZoneIdSchema,
  TrafficDirectionSchema,
} from '../../contract/index.ts'
import { adPlayCostCents } from '../../domain/campaign.ts'
import { NOT_EVENTS } from '../../domain/locale.ts'
import { DEFAULT_VALUE_CENTS_PER_SLOT } from '../../domain/price.ts'
import type { ProblemData } from '../../domain/problems.ts'
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

const id = v.pipe(v.string(), v.trim(), v.minLength(1, issue('field_empty')), v.maxLength(100))
const url = v.pipe(v.string(), v.minLength(1, issue('field_empty')), v.maxLength(2000))
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
  location: v.pipe(v.string(), v.minLength(1, issue('field_empty')), v.maxLength(500)),
  city: v.pipe(v.string(), v.minLength(1, issue('field_empty')), v.maxLength(200)),
  stateAbbr: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(10))), null),
  country: v.pipe(v.string(), v.minLength(1, issue('field_empty')), v.maxLength(200)),
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
    issue('catalogue_ad_fields_apart'),
  ),
  // a play costs at least a cent: a price that rounds to nothing would sell every free cell
  v.forward(
    v.check(
      (d) =>
        d.impressionsPerPlay === null ||
        d.adCpmCents === null ||
        adPlayCostCents(d.impressionsPerPlay, d.adCpmCents) >= 1,
      issue('catalogue_ad_play_free'),
    ),
    ['adCpmCents'],
  ),
)

function unknownPlaceholders(html: string): string[] {
  const known: readonly string[] = TEMPLATE_PLACEHOLDERS
  return placeholderNames(html).filter((name) => !known.includes(name))
}

const templateName = v.pipe(v.string(), v.minLength(1, issue('field_empty')), v.maxLength(200))

const CatalogueTemplateSchema = v.strictObject({
  id,
  name: templateName,
  // its name in the shop's other languages (docs/catalogue-format.md); `name` where one has none
  names: v.optional(
    v.strictObject({
      en: v.optional(templateName),
      fr: v.optional(templateName),
      de: v.optional(templateName),
    }),
    {},
  ),
  types: v.pipe(v.array(ContentTypeSchema), v.minLength(1, issue('catalogue_types_empty'))),
  mode: v.optional(v.pipe(v.string(), v.minLength(1)), DEFAULT_TEMPLATE_MODE),
  widthPx: positiveInt,
  heightPx: positiveInt,
  previewImageUrl: url,
  examplePreviewVideoUrl: v.optional(v.nullable(url), null),
  videoMaxLengthSeconds: v.optional(v.nullable(v.pipe(v.number(), v.gtValue(0))), null),
  html: v.pipe(
    v.string(),
    v.minLength(1, issue('field_empty')),
    v.maxLength(TEMPLATE_HTML_MAX_LENGTH),
    v.rawCheck(({ dataset, addIssue }) => {
      // a pipe goes on after a failed check: html over its limit is already refused, never read further
      if (!dataset.typed || dataset.value.length > TEMPLATE_HTML_MAX_LENGTH) return
      const unknown = unknownPlaceholders(dataset.value)
      for (const name of unknown) {
        addIssue({
          message: issue('catalogue_placeholder_unknown', {
            placeholder: `{{${name}}}`,
            allowed: TEMPLATE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(' '),
          }),
        })
      }
      if (unknown.length > 0) return
      // A template the renderer cannot read would fail every shopper's generate call: refuse it at import
      // with the renderer's own reasons (catalogue-format: the supported HTML and CSS subset).
      const parsed = parseTemplateHtml(dataset.value)
      // (the checker's reasons are its own words: a template author's, in English)
      if (!parsed.ok) {
        for (const detail of parsed.errors)
          addIssue({ message: issue('field_invalid', { detail }) })
      }
    }),
  ),
})

const CatalogueEventSchema = v.pipe(
  v.strictObject({
    // a slug is the first segment of the event's pages: the shop's own pages keep theirs
    slug: v.pipe(
      EventSlugSchema,
      v.check((slug) => !NOT_EVENTS.has(slug), issue('catalogue_slug_reserved')),
    ),
    name: v.pipe(v.string(), v.minLength(1, issue('field_empty')), v.maxLength(200)),
    ...EventTimingSchema.pipe[0].entries,
    allowedContentGeneratorTypes: v.optional(
      v.pipe(v.array(ContentTypeSchema), v.minLength(1, issue('catalogue_types_empty'))),
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
      v.pipe(v.number(), v.safeInteger(), v.minValue(1, issue('number_too_small', { min: 1 }))),
      DEFAULT_PLAYS_PER_SLOT,
    ),
    secondsPerShout: v.optional(
      v.pipe(v.number(), v.safeInteger(), v.minValue(1, issue('number_too_small', { min: 1 }))),
      DEFAULT_SECONDS_PER_SHOUT,
    ),
    // catalogue-format "Advertising": the share of each hour's free time ads may take (percent);
    // absent, the server's AD_FREE_TIME_SHARE
    adSharePercent: v.optional(
      v.nullable(
        v.pipe(
          v.number(),
          v.safeInteger(),
          v.minValue(0),
          v.maxValue(100, issue('catalogue_number_range', { min: 0, max: 100 })),
        ),
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
      issue('end_before_start'),
    ),
    ['endDateHourLocalExclusive'],
  ),
  // catalogue-format: the plays of a slot must not overlap (src/domain/schedule.ts)
  v.forward(
    v.check(
      (e) => packageFitsSlot(e),
      (failed) => {
        const e = failed.input as {
          slotWidthMS: number
          playsPerSlot: number
          secondsPerShout: number
        }
        return issue('catalogue_plays_overflow', {
          seconds: e.secondsPerShout,
          plays: e.playsPerSlot,
          slotSeconds: e.slotWidthMS / 1000,
        })
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
      v.pipe(
        v.number(),
        v.safeInteger(),
        v.minValue(1, issue('catalogue_number_above', { min: 0 })),
      ),
    ),
    percentOffTotal: v.optional(
      v.pipe(
        v.number(),
        v.safeInteger(),
        v.minValue(1),
        v.maxValue(100, issue('catalogue_number_range', { min: 1, max: 100 })),
      ),
    ),
    oncePerCustomer: v.optional(v.boolean(), false),
  }),
  v.check(
    (p) => (p.centsOffTotal === undefined) !== (p.percentOffTotal === undefined),
    issue('catalogue_promo_discount'),
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

export type CatalogueCheck =
  | { success: true; catalogue: Catalogue }
  | { success: false; problems: ProblemData[] }

type IdKind = 'deviceId' | 'templateId' | 'eventSlug' | 'promoCode'

/** The whole file checked: shape, then uniqueness and references. Every problem by JSON path. */
export function checkCatalogue(input: unknown, known?: KnownIds): CatalogueCheck {
  const parsed = v.safeParse(CatalogueSchema, input, { abortEarly: false })
  if (!parsed.success) {
    return { success: false, problems: issuesToProblems(parsed.issues, jsonPath) }
  }
  const catalogue = parsed.output
  const problems: ProblemData[] = []
  const seen = (list: string[], path: (i: number) => string, kind: IdKind) => {
    const first = new Map<string, number>()
    list.forEach((value, i) => {
      const key = value.toLowerCase()
      const earlier = first.get(key)
      if (earlier === undefined) first.set(key, i)
      else {
        problems.push({
          code: 'catalogue_duplicate',
          params: { field: path(i), kind, value, first: path(earlier) },
        })
      }
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
    'templateId',
  )
  seen(
    catalogue.events.map((e) => e.slug),
    (i) => `$.events[${i}].slug`,
    'eventSlug',
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
    seen(event.templates, (j) => `$.events[${i}].templates[${j}]`, 'templateId')
    event.devices.forEach((d, j) => {
      if (!deviceIds.has(d.deviceId)) {
        problems.push({
          code: 'catalogue_device_unknown',
          params: { field: `$.events[${i}].devices[${j}].deviceId`, deviceId: d.deviceId },
        })
      }
    })
    event.templates.forEach((t, j) => {
      if (!templateIds.has(t)) {
        problems.push({
          code: 'catalogue_template_unknown',
          params: { field: `$.events[${i}].templates[${j}]`, templateId: t },
        })
      }
    })
  })
  catalogue.promos.forEach((promo, i) => {
    if (!eventSlugs.has(promo.eventSlug)) {
      problems.push({
        code: 'catalogue_event_unknown',
        params: { field: `$.promos[${i}].eventSlug`, eventSlug: promo.eventSlug },
      })
    }
  })
  return problems.length > 0 ? { success: false, problems } : { success: true, catalogue }
}
