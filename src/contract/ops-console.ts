import * as v from 'valibot'
import {
  ContentTypeSchema,
  CurrencySchema,
  EpochMsSchema,
  EventSlugSchema,
  issue,
  nonNegativeInt,
  ParamsSchema,
  TimeZoneIdSchema,
  text,
} from './common'
import { endpoint } from './endpoint'

// The console's second part (api-v1 "Operations"): the schedule of a billboard's day with
// its proofs of play, player links, the catalogue upload (preview, then apply), and the dashboard.
// Every call needs an operator's session; `access` says the least role (the guard of src/server/ops).

/** A local calendar date, YYYY-MM-DD (the billboard's zone for a schedule). */
export const CalendarDateSchema = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, issue('date_invalid')),
  // Date.parse rolls 2027-02-30 over into March: a real date reads back as itself
  v.check((s) => {
    const at = Date.parse(`${s}T00:00:00Z`)
    return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === s
  }, issue('date_not_real')),
)

// ---------- billboards and their day ----------

export const PlayerLinkStateSchema = v.object({
  /** A live (unrevoked) link exists; its token is never shown again. */
  active: v.boolean(),
  createdAtEpochMs: v.nullable(EpochMsSchema),
})
export type PlayerLinkState = v.InferOutput<typeof PlayerLinkStateSchema>

export const OpsBillboardSchema = v.object({
  deviceId: text(),
  location: v.string(),
  city: v.string(),
  timeZoneId: TimeZoneIdSchema,
  /** The events that show it, by slug. */
  eventSlugs: v.array(EventSlugSchema),
  /** Today in the billboard's zone: the schedule's default day. */
  today: CalendarDateSchema,
  playerLink: PlayerLinkStateSchema,
})
export type OpsBillboard = v.InferOutput<typeof OpsBillboardSchema>

export const OpsBillboardsSchema = v.object({ billboards: v.array(OpsBillboardSchema) })

export const ScheduleDayQuerySchema = v.object({
  /** Default: today in the billboard's zone. */
  day: v.optional(CalendarDateSchema),
})

/**
 * A play of a sold slot and its proof: `proved` (the billboard reported it), `missing` (it should
 * have ended and no proof came: the console marks it), `upcoming` (not over yet), `not-playing` (the
 * order may not play: under review, failed, cancelled).
 */
export const PlayProofSchema = v.picklist(['proved', 'missing', 'upcoming', 'not-playing'])
export type PlayProof = v.InferOutput<typeof PlayProofSchema>

export const OpsSlotSchema = v.object({
  slotNumber: nonNegativeInt(),
  startEpochMs: EpochMsSchema,
  endEpochMs: EpochMsSchema,
  /** free; held (an order being paid); sold (Confirmed or under review). */
  status: v.picklist(['free', 'held', 'sold']),
  order: v.nullable(
    v.object({
      guid: v.string(),
      state: v.string(),
      email: v.string(),
      content: v.nullable(v.object({ url: v.string(), type: ContentTypeSchema })),
    }),
  ),
  plays: v.array(
    v.object({
      playIndex: nonNegativeInt(),
      startEpochMs: EpochMsSchema,
      endEpochMs: EpochMsSchema,
      proof: PlayProofSchema,
      provedAtEpochMs: v.nullable(EpochMsSchema),
    }),
  ),
})
export type OpsSlot = v.InferOutput<typeof OpsSlotSchema>

export const OpsScheduleDaySchema = v.object({
  deviceId: text(),
  location: v.string(),
  timeZoneId: TimeZoneIdSchema,
  day: CalendarDateSchema,
  previousDay: CalendarDateSchema,
  nextDay: CalendarDateSchema,
  generatedAtEpochMs: EpochMsSchema,
  playerLink: PlayerLinkStateSchema,
  events: v.array(
    v.object({
      slug: EventSlugSchema,
      name: v.string(),
      playsPerSlot: nonNegativeInt(),
      secondsPerShout: nonNegativeInt(),
      /** The event's slots that start on this day (none when the event does not run that day). */
      slots: v.array(OpsSlotSchema),
    }),
  ),
  totals: v.object({
    slots: nonNegativeInt(),
    sold: nonNegativeInt(),
    held: nonNegativeInt(),
    free: nonNegativeInt(),
    proved: nonNegativeInt(),
    missing: nonNegativeInt(),
  }),
})
export type OpsScheduleDay = v.InferOutput<typeof OpsScheduleDaySchema>

export const PlayerLinkSchema = v.object({
  deviceId: text(),
  /** The player's full address with its new token: shown once, never stored. */
  url: v.string(),
  createdAtEpochMs: EpochMsSchema,
})
export type PlayerLink = v.InferOutput<typeof PlayerLinkSchema>

// ---------- catalogue ----------

/** A catalogue file is at most this big (the body limit of the upload; templates are 100 KB each). */
export const MAX_CATALOGUE_BYTES = 2 * 1024 * 1024

export const CataloguePreviewRequestSchema = v.strictObject({
  /** The file's text, as the operator chose it. */
  text: v.pipe(v.string(), v.minLength(1, issue('field_empty'))),
})

export const Sha256Schema = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, issue('sha256_invalid')))

export const CatalogueApplyRequestSchema = v.strictObject({
  text: v.pipe(v.string(), v.minLength(1, issue('field_empty'))),
  /** The preview's sha256: what is applied is exactly what was previewed. */
  sha256: Sha256Schema,
})

const ChangeListSchema = v.object({
  added: v.array(v.string()),
  changed: v.array(v.string()),
  unchanged: v.array(v.string()),
})
export const CatalogueChangesSchema = v.object({
  events: ChangeListSchema,
  devices: ChangeListSchema,
  templates: ChangeListSchema,
  promos: ChangeListSchema,
})
export type CatalogueChanges = v.InferOutput<typeof CatalogueChangesSchema>
export const CATALOGUE_KINDS = ['events', 'devices', 'templates', 'promos'] as const

export const CataloguePreviewSchema = v.object({
  /** SHA-256 (hex) of the file's UTF-8 text; the apply call sends it back. */
  sha256: Sha256Schema,
  /** Every problem, by JSON path (the checks of `npm run import`), in English; empty for a clean file. */
  problems: v.array(v.string()),
  /** Beside each problem its code and the values of its sentence (`field` its JSON path). */
  codes: v.array(v.string()),
  params: v.array(ParamsSchema),
  /** What applying it would add or change; null while it has problems. */
  changes: v.nullable(CatalogueChangesSchema),
})
export type CataloguePreview = v.InferOutput<typeof CataloguePreviewSchema>

export const CatalogueAppliedSchema = v.object({
  sha256: Sha256Schema,
  changes: CatalogueChangesSchema,
})
export type CatalogueApplied = v.InferOutput<typeof CatalogueAppliedSchema>

// ---------- dashboard ----------

export const DashboardEventSchema = v.object({
  slug: EventSlugSchema,
  name: v.string(),
  currency: CurrencySchema,
  startEpochMs: EpochMsSchema,
  endEpochMs: EpochMsSchema,
  /** Slots of every billboard of the event that sells (not unavailable, not sold out). */
  capacity: nonNegativeInt(),
  /** Slots held by Confirmed orders and orders under review. */
  sold: nonNegativeInt(),
  revenue: v.object({
    /** Slot prices of the orders paid (Confirmed, under review, or cancelled after payment). */
    grossCents: nonNegativeInt(),
    discountCents: nonNegativeInt(),
    refundedCents: nonNegativeInt(),
    /** gross − discounts − refunds. */
    netCents: v.number(),
  }),
  ordersByState: v.record(v.string(), nonNegativeInt()),
  reviewQueue: nonNegativeInt(),
  /** Paid orders by the local day they were placed on (the event's first billboard's zone). */
  salesPerDay: v.array(
    v.object({ day: CalendarDateSchema, orders: nonNegativeInt(), cents: v.number() }),
  ),
})
export type DashboardEvent = v.InferOutput<typeof DashboardEventSchema>

export const DashboardSchema = v.object({
  generatedAtEpochMs: EpochMsSchema,
  events: v.array(DashboardEventSchema),
})
export type Dashboard = v.InferOutput<typeof DashboardSchema>

// ---------- endpoints ----------

const opsErrors = ['sign_in_required', 'role_forbidden', 'cross_origin'] as const

export const opsConsole = {
  billboards: endpoint({
    name: 'getOpsBillboards',
    method: 'GET',
    path: '/ops/billboards',
    summary: 'Every billboard with its events and whether it has a live player link',
    access: 'reviewer',
    response: OpsBillboardsSchema,
    errors: opsErrors,
  }),
  scheduleDay: endpoint({
    name: 'getOpsScheduleDay',
    method: 'GET',
    path: '/ops/billboards/{deviceId}/schedule',
    summary:
      "A billboard's day in its zone: each slot sold, held or free, its content, and the proof of each play",
    access: 'reviewer',
    query: ScheduleDayQuerySchema,
    response: OpsScheduleDaySchema,
    errors: [...opsErrors, 'device_not_found'],
  }),
  playerLink: endpoint({
    name: 'postOpsPlayerLink',
    method: 'POST',
    path: '/ops/billboards/{deviceId}/player-link',
    summary: 'Makes a new player link for the billboard (shown once); the old one stops working',
    access: 'admin',
    body: v.strictObject({}),
    response: PlayerLinkSchema,
    status: 201,
    errors: [...opsErrors, 'device_not_found'],
  }),
  cataloguePreview: endpoint({
    name: 'postOpsCataloguePreview',
    method: 'POST',
    path: '/ops/catalogue/preview',
    summary:
      'Checks a catalogue file as `npm run import` does: every problem by JSON path, or what it would add and change',
    access: 'admin',
    body: CataloguePreviewRequestSchema,
    response: CataloguePreviewSchema,
    errors: [...opsErrors, 'body_too_large'],
  }),
  catalogueApply: endpoint({
    name: 'postOpsCatalogueApply',
    method: 'POST',
    path: '/ops/catalogue/apply',
    summary: 'Imports the previewed file (its sha256 must match); nothing is written on a problem',
    access: 'admin',
    body: CatalogueApplyRequestSchema,
    response: CatalogueAppliedSchema,
    errors: [
      ...opsErrors,
      'catalogue_not_json',
      'catalogue_invalid',
      'catalogue_not_previewed',
      'body_too_large',
    ],
  }),
  dashboard: endpoint({
    name: 'getOpsDashboard',
    method: 'GET',
    path: '/ops/dashboard',
    summary:
      'Per live event: slots sold of capacity, revenue, orders by state, review queue, sales per day',
    access: 'admin',
    response: DashboardSchema,
    errors: opsErrors,
  }),
} as const
