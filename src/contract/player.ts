import * as v from 'valibot'
import {
  ContentTypeSchema,
  CurrencySchema,
  EpochMsSchema,
  EventSlugSchema,
  issue,
  LocaleSchema,
  nonNegativeInt,
  positiveInt,
  queryNumber,
  TimeZoneIdSchema,
  text,
} from './common'
import { endpoint } from './endpoint'

// api-v1 "Player (billboards)": the schedule a billboard plays (JSON for our web player, SMIL 3.0
// for off-the-shelf signage players) and its proof of play. Every call carries the billboard's
// player token: `Authorization: Bearer TOKEN`, or `?token=TOKEN` for players that can only open a URL.

/** The schedule's window (api-v1: now → now + 24 h by default, at most 48 h; src/domain/schedule.ts). */
export const ScheduleQuerySchema = v.object({
  fromEpochMs: v.optional(queryNumber(0, Number.MAX_SAFE_INTEGER)),
  toEpochMs: v.optional(queryNumber(0, Number.MAX_SAFE_INTEGER)),
  // The token as a query parameter, for players that can only open a URL; never logged (the request
  // log writes the path only).
  token: v.optional(v.string()),
})
export type ScheduleQuery = v.InferOutput<typeof ScheduleQuerySchema>

export const PlayerQuerySchema = v.object({ token: v.optional(v.string()) })

/** The house card's version (a hash of what it shows): a changed card is a new address. */
export const HouseCardQuerySchema = v.object({ v: v.optional(v.string()) })

/**
 * A play of the schedule: a shout's (`orderGuid`, `slotNumber`, `playIndex` of the slot) or a
 * campaign's (`campaignId`, no `orderGuid`; `playIndex` is the play's 15-second cell counted from
 * the epoch, src/domain/ad-playout.ts). Optional fields rather than a union, so a player that knows
 * only shouts reads the same shape.
 */
export const ScheduleItemSchema = v.object({
  orderGuid: v.optional(text()),
  slotNumber: v.optional(nonNegativeInt()),
  campaignId: v.optional(text()),
  playIndex: nonNegativeInt(),
  startEpochMs: EpochMsSchema,
  endEpochMs: EpochMsSchema,
  content: v.object({
    /** Absolute: a player may run on another origin than the shop (SMIL players always do). */
    url: v.pipe(v.string(), v.url()),
    type: ContentTypeSchema,
    widthPx: positiveInt(),
    heightPx: positiveInt(),
    durationSeconds: v.nullable(v.number()),
  }),
})
export type ScheduleItem = v.InferOutput<typeof ScheduleItemSchema>

/** What the screen shows between plays: the billboard sells its own next slot. */
export const HouseCardSchema = v.object({
  eventSlug: EventSlugSchema,
  eventName: text(),
  locale: LocaleSchema,
  valueCentsPerSlot: nonNegativeInt(),
  currency: CurrencySchema,
  /** The absolute QR entry `/{eventSlug}?device={deviceId}`. */
  shopUrl: v.pipe(v.string(), v.url()),
})
export type HouseCard = v.InferOutput<typeof HouseCardSchema>

export const ScheduleSchema = v.object({
  deviceId: text(),
  timeZoneId: TimeZoneIdSchema,
  widthPx: positiveInt(),
  heightPx: positiveInt(),
  fromEpochMs: EpochMsSchema,
  toEpochMs: EpochMsSchema,
  generatedAtEpochMs: EpochMsSchema,
  house: HouseCardSchema,
  items: v.array(ScheduleItemSchema),
})
export type Schedule = v.InferOutput<typeof ScheduleSchema>

/** A proof of play: of a shout (`orderGuid` and `slotNumber`) or of a campaign's ad (`campaignId`). */
export const PlaySchema = v.pipe(
  v.strictObject({
    playId: v.pipe(v.string(), v.uuid(issue('uuid_invalid'))),
    orderGuid: v.optional(text()),
    slotNumber: v.optional(nonNegativeInt()),
    campaignId: v.optional(text()),
    playIndex: nonNegativeInt(),
    startedAtEpochMs: EpochMsSchema,
    endedAtEpochMs: EpochMsSchema,
  }),
  v.check(
    (p) =>
      p.campaignId !== undefined
        ? p.orderGuid === undefined && p.slotNumber === undefined
        : p.orderGuid !== undefined && p.slotNumber !== undefined,
    issue('field_invalid', { detail: 'a play names orderGuid and slotNumber, or campaignId' }),
  ),
)
export type Play = v.InferOutput<typeof PlaySchema>
/** A proof of a shout's play (the schema's check: both named). */
export type ShoutPlay = Play & { orderGuid: string; slotNumber: number; campaignId?: undefined }

export const MAX_PLAYS_PER_BATCH = 500

export const PlaysRequestSchema = v.strictObject({
  plays: v.pipe(
    v.array(PlaySchema),
    v.maxLength(MAX_PLAYS_PER_BATCH, `must hold at most ${MAX_PLAYS_PER_BATCH} plays`),
  ),
})
export type PlaysRequest = v.InferOutput<typeof PlaysRequestSchema>

export const PlaysAnswerSchema = v.object({
  accepted: nonNegativeInt(),
  duplicates: nonNegativeInt(),
  refused: nonNegativeInt(),
})
export type PlaysAnswer = v.InferOutput<typeof PlaysAnswerSchema>

/**
 * What a SMIL player's play log came to: proofs kept (`accepted`), plays already kept
 * (`duplicates`), plays refused (not scheduled for this billboard, not begun, or an id it never
 * had) and plays the player says failed (`failed`: no proof).
 */
export const PlayLogAnswerSchema = v.object({
  accepted: nonNegativeInt(),
  duplicates: nonNegativeInt(),
  refused: nonNegativeInt(),
  failed: nonNegativeInt(),
})
export type PlayLogAnswer = v.InferOutput<typeof PlayLogAnswerSchema>

/**
 * One report of signageOS's SMIL player to a custom proof-of-play endpoint (its `<meta log>`): the
 * media's popName (the player writes "media-playback" for a play, "media-download" for a download,
 * which has no playbackSuccess), its popCustomId (the play, as the playlist named it), popType and
 * when it was recorded (UTC, at the end of the playback). Other fields are kept as sent.
 */
export const PopReportSchema = v.looseObject({
  name: v.pipe(v.string(), v.maxLength(200)),
  playbackSuccess: v.optional(v.boolean()),
  errorMessage: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  customId: v.optional(v.pipe(v.string(), v.maxLength(200))),
  type: v.optional(v.pipe(v.string(), v.maxLength(50))),
  tags: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(200))), v.maxLength(50))),
  fileName: v.optional(v.pipe(v.string(), v.maxLength(500))),
  recordedAt: v.pipe(v.string(), v.isoTimestamp()),
})
export type PopReport = v.InferOutput<typeof PopReportSchema>

export const PopReportsSchema = v.pipe(
  v.array(PopReportSchema),
  v.maxLength(MAX_PLAYS_PER_BATCH, `must hold at most ${MAX_PLAYS_PER_BATCH} reports`),
)

/** The A-SMIL play log files a player PUTs: garlic names them playlog-…, IAdea playerlog-…. */
export const PLAY_LOG_FILE = /^(?:playlog|playerlog)-[\w.-]{1,80}\.xml$/

/** A proof of play as the order summary carries it (api-v1 "Player"). */
export const OrderPlaySchema = v.object({
  slotNumber: nonNegativeInt(),
  playIndex: nonNegativeInt(),
  startedAtEpochMs: EpochMsSchema,
  endedAtEpochMs: EpochMsSchema,
})
export type OrderPlay = v.InferOutput<typeof OrderPlaySchema>

/** What a billboard shows as it reports: a play of a shout, or the house card (a union, not
 * v.variant: the shop's first screen bundles this module, and variant is not dropped from it). */
export const ShowingSchema = v.union([
  v.strictObject({
    kind: v.literal('shout'),
    orderGuid: text(),
    slotNumber: nonNegativeInt(),
    playIndex: nonNegativeInt(),
  }),
  v.strictObject({
    kind: v.literal('ad'),
    campaignId: text(),
    playIndex: nonNegativeInt(),
  }),
  v.strictObject({ kind: v.literal('house') }),
])
export type Showing = v.InferOutput<typeof ShowingSchema>

/** The web player's heartbeat every minute (api-v1 "Player"): its health as it sees it. */
export const HeartbeatSchema = v.strictObject({
  /** The player's own clock when it sent the beat, uncorrected. */
  sentAtEpochMs: EpochMsSchema,
  showing: ShowingSchema,
  /** The correction it applies to its clock now (server minus player, 0 within 2 s). */
  clockCorrectionMs: v.pipe(v.number(), v.integer(), v.minValue(-1e12), v.maxValue(1e12)),
  /** The schedule window it holds, or null before its first schedule. */
  window: v.nullable(v.strictObject({ fromEpochMs: EpochMsSchema, toEpochMs: EpochMsSchema })),
  /** Content files of that window in its cache, and files that failed to load. */
  files: v.strictObject({ cached: nonNegativeInt(), failed: nonNegativeInt() }),
  /** Proofs of play waiting to be sent. */
  pendingPlays: nonNegativeInt(),
  version: text(40),
  screen: v.strictObject({ widthPx: positiveInt(), heightPx: positiveInt() }),
})
export type Heartbeat = v.InferOutput<typeof HeartbeatSchema>

export const HeartbeatAnswerSchema = v.object({
  /** The server's clock as it answered: the player measures its own against it. */
  serverEpochMs: EpochMsSchema,
})
export type HeartbeatAnswer = v.InferOutput<typeof HeartbeatAnswerSchema>

export const SMIL_MEDIA_TYPE = 'application/smil+xml'

const playerErrors = ['player_token_missing', 'player_token_invalid', 'device_not_found'] as const

// ---------- endpoints ----------

export const player = {
  schedule: endpoint({
    name: 'getPlayerSchedule',
    method: 'GET',
    path: '/player/{deviceId}/schedule',
    summary: "A billboard's schedule (Confirmed orders only), now → now + 24 h unless asked",
    access: 'player',
    query: ScheduleQuerySchema,
    response: ScheduleSchema,
    errors: ['to_before_from', 'window_too_long', ...playerErrors],
  }),
  scheduleSmil: endpoint({
    name: 'getPlayerScheduleSmil',
    method: 'GET',
    path: '/player/{deviceId}/schedule.smil',
    summary:
      'The same schedule as a SMIL 3.0 playlist for signage players (the house card between); without fromEpochMs, 36 h from the last 00:00 or 12:00 UTC; ETag and Last-Modified stay while the document does (HEAD and If-None-Match/If-Modified-Since: 304)',
    access: 'player',
    query: ScheduleQuerySchema,
    file: [SMIL_MEDIA_TYPE],
    errors: ['to_before_from', 'window_too_long', ...playerErrors],
  }),
  // Public: it shows only what the billboard shows the street (event, price, the shop's QR entry),
  // and SMIL players fetch images without the playlist's credentials.
  houseCard: endpoint({
    name: 'getPlayerHouseCard',
    method: 'GET',
    path: '/player/{deviceId}/house-card.png',
    summary: 'The house card as a PNG at the billboard size (what SMIL players show between plays)',
    query: HouseCardQuerySchema,
    file: ['image/png'],
    errors: ['device_not_found', 'too_many_requests'],
  }),
  plays: endpoint({
    name: 'postPlayerPlays',
    method: 'POST',
    path: '/player/{deviceId}/plays',
    summary:
      'Proof of play, in batches; a replayed playId counts once, an unscheduled play is refused',
    access: 'player',
    query: PlayerQuerySchema,
    body: PlaysRequestSchema,
    response: PlaysAnswerSchema,
    status: 202,
    errors: ['body_too_large', ...playerErrors, 'too_many_requests'],
  }),
  // The token is a path segment: garlic-player and IAdea players PUT to their subscription's
  // `action` with a file name appended and no credentials; the request log redacts the segment.
  playLog: endpoint({
    name: 'putPlayerPlayLog',
    method: 'PUT',
    path: '/player/{deviceId}/play-logs/{token}/{fileName}',
    summary:
      "A garlic-player or IAdea play log (A-SMIL PlaylogCollection: PUT to the subscription's action + /playlog-{uuid}.xml, IAdea's also playerlog-): each contentPlayed whose contentId names a play of this billboard's schedule becomes its proof, under the rules of POST /plays; sent again, it counts once. The billboard's token is the {token} segment. Counts as a heartbeat",
    access: 'player',
    rawBody: ['application/xml', 'text/xml'],
    response: PlayLogAnswerSchema,
    errors: ['body_too_large', 'play_log_invalid', 'too_many_requests', ...playerErrors],
  }),
  popReports: endpoint({
    name: 'postPlayerPopReports',
    method: 'POST',
    path: '/player/{deviceId}/pop-reports',
    summary:
      "signageOS's proof-of-play reports (its <meta log type=manual endpoint>), one or a batch: each playback whose customId names a play of this billboard's schedule becomes its proof, under the rules of POST /plays; a failed playback is no proof. Answers a CORS preflight (OPTIONS). Counts as a heartbeat",
    access: 'player',
    cors: true,
    query: PlayerQuerySchema,
    body: PopReportsSchema,
    response: PlayLogAnswerSchema,
    errors: ['body_too_large', 'too_many_requests', ...playerErrors],
  }),
  heartbeat: endpoint({
    name: 'postPlayerHeartbeat',
    method: 'POST',
    path: '/player/{deviceId}/heartbeat',
    summary:
      "The web player's heartbeat every minute (what it shows, its clock, window, cache, pending proofs, version, screen); the answer carries the server's time. A SMIL player's schedule fetches count as its heartbeats",
    access: 'player',
    query: PlayerQuerySchema,
    body: HeartbeatSchema,
    response: HeartbeatAnswerSchema,
    errors: playerErrors,
  }),
} as const
