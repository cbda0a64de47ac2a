import * as v from 'valibot'
import {
  ContentTypeSchema,
  EpochMsSchema,
  EventSlugSchema,
  issue,
  nonNegativeInt,
  TimeZoneIdSchema,
  text,
} from '../common'
import { endpoint } from '../endpoint'

// The operators' billboards (api-v1 "Operations"): every billboard with its player link, the schedule
// of a billboard's day with its proofs of play, and new player links (src/server/ops/billboards.ts).
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

/**
 * A play a campaign holds on the billboard, with its proof as a shout's play has it (`not-playing`:
 * the campaign is not on air, awaiting review, paused, cancelled).
 */
export const OpsAdPlaySchema = v.object({
  campaignId: v.string(),
  campaignName: v.string(),
  startEpochMs: EpochMsSchema,
  endEpochMs: EpochMsSchema,
  proof: PlayProofSchema,
})
export type OpsAdPlay = v.InferOutput<typeof OpsAdPlaySchema>

export const OpsScheduleDaySchema = v.object({
  deviceId: text(),
  location: v.string(),
  timeZoneId: TimeZoneIdSchema,
  day: CalendarDateSchema,
  /** The local day's bounds (23 or 25 hours on a day the clocks change). */
  dayStartEpochMs: EpochMsSchema,
  dayEndEpochMs: EpochMsSchema,
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
  /** Campaigns' plays that day, in time order; the rest of the day not a play is the house card. */
  adPlays: v.array(OpsAdPlaySchema),
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

const opsErrors = ['sign_in_required', 'role_forbidden', 'cross_origin'] as const

const DaySchema = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, issue('day_invalid')))

/**
 * Which proofs of play to export: a billboard's, an event's (its billboards over its window), or
 * the fleet's; over days `from` to `to` (the billboard's local days; UTC's for the fleet; the last
 * 30 days without them).
 */
export const ProofExportQuerySchema = v.object({
  deviceId: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200))),
  eventSlug: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200))),
  from: v.optional(DaySchema),
  to: v.optional(DaySchema),
})

export const opsBillboards = {
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
      "A billboard's day in its zone: each slot sold, held or free, its content, campaigns' plays, and the proof of each play",
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
  proofExport: endpoint({
    name: 'getOpsProofOfPlay',
    method: 'GET',
    path: '/ops/proof-of-play',
    summary:
      'Proof of play as CSV, streamed: one row per proven play (billboard, start and end in UTC and local, duration, order or campaign, content, proof) of a billboard, an event or the fleet over a period',
    access: 'reviewer',
    query: ProofExportQuerySchema,
    file: ['text/csv'],
    errors: [...opsErrors, 'device_not_found', 'event_not_found'],
  }),
} as const
