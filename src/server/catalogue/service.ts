import * as v from 'valibot'
import {
  type CatalogueChanges,
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
import { parseTemplateHtml } from '../content/template-html.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import { placeholderNames } from './placeholders.ts'
import {
  countEvents,
  type KnownIds,
  knownIds,
  lockDemoImport,
  replacePromo,
  storedCatalogueRows,
  upsertDevice,
  upsertEvent,
  upsertTemplate,
} from './repo.ts'

// The catalogue an operator imports (docs/catalogue-format.md). It is operator input, so it is
// checked whole before anything is written: every problem is reported with its JSON path.

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

/** A value as canonical JSON: keys sorted, undefined as null, so equal rows compare equal. */
function canonical(value: unknown): string {
  if (value === undefined || value === null) return 'null'
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** An event's lists are replaced whole by an import and kept without order: compared sorted. */
function eventForComparison(e: Catalogue['events'][number]) {
  return {
    ...e,
    devices: [...e.devices].sort((a, b) => byText(a.deviceId, b.deviceId)),
    templates: [...e.templates].sort(byText),
  }
}

function promoForComparison(p: Catalogue['promos'][number]) {
  return {
    promoCode: p.promoCode,
    eventSlug: p.eventSlug,
    centsOffTotal: p.centsOffTotal ?? null,
    percentOffTotal: p.percentOffTotal ?? null,
    oncePerCustomer: p.oncePerCustomer,
  }
}

/**
 * For each row of a checked catalogue: new (no row with its id), changed (a row differs in any field
 * the import writes), or unchanged (importing it changes nothing, catalogue-format: "running it twice
 * changes nothing").
 */
export async function catalogueChanges(
  database: Database,
  catalogue: Catalogue,
): Promise<CatalogueChanges> {
  const stored = await storedCatalogueRows(database, {
    devices: catalogue.devices.map((d) => d.deviceId),
    templates: catalogue.templates.map((t) => t.id),
    events: catalogue.events.map((e) => e.slug),
    promos: catalogue.promos.map((p) => p.promoCode),
  })
  const compare = <T>(
    rows: readonly T[],
    storedRows: readonly T[],
    idOf: (row: T) => string,
    shape: (row: T) => unknown = (row) => row,
  ) => {
    const key = (row: T) => idOf(row).toLowerCase()
    const before = new Map(storedRows.map((row) => [key(row), canonical(shape(row))]))
    const result = { added: [] as string[], changed: [] as string[], unchanged: [] as string[] }
    for (const row of rows) {
      const old = before.get(key(row))
      if (old === undefined) result.added.push(idOf(row))
      else if (old === canonical(shape(row))) result.unchanged.push(idOf(row))
      else result.changed.push(idOf(row))
    }
    return result
  }
  return {
    events: compare(catalogue.events, stored.events, (e) => e.slug, eventForComparison),
    devices: compare(catalogue.devices, stored.devices, (d) => d.deviceId),
    templates: compare(catalogue.templates, stored.templates, (t) => t.id),
    promos: compare(catalogue.promos, stored.promos, (p) => p.promoCode, promoForComparison),
  }
}

/** The preview of the problems of `npm run import`, or, for a clean file, its changes. */
export async function previewCatalogue(
  database: Database,
  input: unknown,
): Promise<{ success: true; changes: CatalogueChanges } | { success: false; errors: string[] }> {
  const check = checkCatalogue(input, await knownIds(database))
  if (!check.success) return check
  return { success: true, changes: await catalogueChanges(database, check.catalogue) }
}

export type ImportCounts = { devices: number; templates: number; events: number; promos: number }

/**
 * Upsert by id in one transaction (catalogue-format: running it twice changes nothing). An event's
 * device and template lists are replaced by the file's, so removing a billboard from an event works.
 */
export async function importCatalogue(
  database: Database,
  input: unknown,
  /** Runs in the import's transaction (the console's audit row: both or neither). */
  alsoIn?: (tx: Queryable) => Promise<void>,
): Promise<{ success: true; counts: ImportCounts } | { success: false; errors: string[] }> {
  const check = checkCatalogue(input, await knownIds(database))
  if (!check.success) return check
  const c = check.catalogue
  await database.transaction(async (tx) => {
    for (const d of c.devices) await upsertDevice(tx, d)
    for (const t of c.templates) await upsertTemplate(tx, t)
    for (const e of c.events) await upsertEvent(tx, e)
    for (const p of c.promos) await replacePromo(tx, p)
    await alsoIn?.(tx)
  })
  return {
    success: true,
    counts: {
      devices: c.devices.length,
      templates: c.templates.length,
      events: c.events.length,
      promos: c.promos.length,
    },
  }
}

/**
 * A new shop starts with the demo catalogue; a shop with events keeps its own.
 * Instances starting at once on one PostgreSQL import it once: the check for an empty shop
 * and the import run in one transaction under an advisory lock (PGlite has them too).
 */
export async function seedEmptyShop(
  database: Database,
  catalogue: unknown,
): Promise<ImportCounts | null> {
  return database.transaction(async (tx) => {
    await lockDemoImport(tx)
    if ((await countEvents(tx)) > 0) return null
    const check = checkCatalogue(catalogue, await knownIds(tx))
    if (!check.success) throw new Error(`demo catalogue: ${check.errors.join('; ')}`)
    const c = check.catalogue
    for (const d of c.devices) await upsertDevice(tx, d)
    for (const t of c.templates) await upsertTemplate(tx, t)
    for (const e of c.events) await upsertEvent(tx, e)
    for (const p of c.promos) await replacePromo(tx, p)
    return {
      devices: c.devices.length,
      templates: c.templates.length,
      events: c.events.length,
      promos: c.promos.length,
    }
  })
}
