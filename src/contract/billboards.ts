import * as v from 'valibot'
import { EpochMsSchema, nonNegativeInt, positiveInt, TimeZoneIdSchema, text } from './common'
import { endpoint } from './endpoint'
import { ShowingSchema } from './player'

// The console's Billboards page (api-v1 "Operations"): each billboard's health from its last
// report (a web player's heartbeat or a SMIL player's playlist fetch).

/**
 * playing (reporting on time); stale (late for its usual beat by over two minutes); offline (silent
 * for BILLBOARD_OFFLINE_MINUTES); never (no report yet).
 */
export const BillboardStateSchema = v.picklist(['playing', 'stale', 'offline', 'never'])
export type BillboardStateName = v.InferOutput<typeof BillboardStateSchema>

export const BillboardHealthSchema = v.object({
  deviceId: text(),
  location: v.string(),
  city: v.string(),
  timeZoneId: TimeZoneIdSchema,
  /** Where it stands, from the catalogue (the fleet's map); null from an older server. */
  coordinates: v.optional(v.nullable(v.object({ lat: v.number(), lng: v.number() })), null),
  state: BillboardStateSchema,
  /** Its last report, null before the first. */
  lastSeenEpochMs: v.nullable(EpochMsSchema),
  /** What reported: our web player or a SMIL player's fetch. */
  source: v.nullable(v.picklist(['web', 'smil'])),
  /**
   * The kind of player, as its reports tell: our web player (its heartbeats), or the SMIL player
   * whose play logs came (garlic-player, IAdea, signageOS); null while a SMIL player only fetched.
   */
  player: v.optional(v.nullable(v.picklist(['web', 'garlic', 'iadea', 'signageos'])), null),
  /** When its last play log came (a SMIL player's proofs of play), null before the first. */
  lastPlayLogEpochMs: v.optional(v.nullable(EpochMsSchema), null),
  /** Server minus player clock (ms) as last measured, null when never measured (SMIL). */
  clockOffsetMs: v.nullable(v.number()),
  /** The web player's last heartbeat, kept when SMIL fetches follow; null without one. */
  beat: v.nullable(
    v.object({
      showing: ShowingSchema,
      files: v.object({ cached: nonNegativeInt(), failed: nonNegativeInt() }),
      pendingPlays: nonNegativeInt(),
      version: v.string(),
      screen: v.object({ widthPx: positiveInt(), heightPx: positiveInt() }),
    }),
  ),
  /**
   * Today's sold plays in the billboard's zone: due (every play of a Confirmed order's slot today),
   * proven (reported by the billboard), missed (ended without a proof).
   */
  today: v.optional(
    v.object({ due: nonNegativeInt(), proven: nonNegativeInt(), missed: nonNegativeInt() }),
    { due: 0, proven: 0, missed: 0 },
  ),
  /** The sold plays due in the hour ahead: what its silence would cost now. */
  nextHourDue: v.optional(nonNegativeInt(), 0),
})
export type BillboardHealth = v.InferOutput<typeof BillboardHealthSchema>

export const BillboardsHealthSchema = v.object({
  generatedAtEpochMs: EpochMsSchema,
  /** BILLBOARD_OFFLINE_MINUTES: the silence after which a billboard is offline. */
  offlineMinutes: positiveInt(),
  billboards: v.array(BillboardHealthSchema),
})
export type BillboardsHealth = v.InferOutput<typeof BillboardsHealthSchema>

const SoldPlaysSchema = v.object({
  due: nonNegativeInt(),
  proven: nonNegativeInt(),
  missed: nonNegativeInt(),
})

/**
 * A billboard's last 7 local days (its zone, oldest first, today last): the whole percent of each
 * (until now for today) it was not dark (an outage, from its last report until it reported again;
 * null before its first report), and its sold plays due, proven and missed that day; its newest
 * proofs of sold plays; its outages of the 7 days, newest first, with their duration.
 */
export const BillboardWeekSchema = v.object({
  deviceId: text(),
  timeZoneId: TimeZoneIdSchema,
  generatedAtEpochMs: EpochMsSchema,
  days: v.array(
    v.object({
      day: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
      uptimePercent: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100))),
      plays: SoldPlaysSchema,
    }),
  ),
  proofs: v.array(
    v.object({
      orderGuid: v.string(),
      startedAtEpochMs: EpochMsSchema,
      endedAtEpochMs: EpochMsSchema,
      receivedAtEpochMs: EpochMsSchema,
    }),
  ),
  outages: v.array(
    v.object({
      /** Its last report before the silence. */
      fromEpochMs: EpochMsSchema,
      /** When it reported again; null while it is still dark. */
      toEpochMs: v.nullable(EpochMsSchema),
      /** Until it came back, or until now. */
      durationMs: nonNegativeInt(),
      /** The sold plays it missed, once back (null while dark). */
      missedPlays: v.nullable(nonNegativeInt()),
    }),
  ),
})
export type BillboardWeek = v.InferOutput<typeof BillboardWeekSchema>

export const billboards = {
  health: endpoint({
    name: 'getOpsBillboardHealth',
    method: 'GET',
    path: '/ops/billboard-health',
    summary:
      "Each billboard's state from its last report (playing, stale, offline, never), when it was seen, its clock's offset and its player's last heartbeat",
    access: 'reviewer',
    response: BillboardsHealthSchema,
    errors: ['sign_in_required', 'role_forbidden', 'cross_origin'],
  }),
  week: endpoint({
    name: 'getOpsBillboardWeek',
    method: 'GET',
    path: '/ops/billboard-health/{deviceId}/week',
    summary:
      "A billboard's last 7 days in its zone: uptime and sold plays due, proven and missed each day, its newest proofs and its outages with their duration",
    access: 'reviewer',
    response: BillboardWeekSchema,
    errors: ['sign_in_required', 'role_forbidden', 'cross_origin', 'device_not_found'],
  }),
} as const
