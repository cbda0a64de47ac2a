import { Temporal } from 'temporal-polyfill'

// The proof-of-play export (the console's CSV, docs/console.md): one row per proven play, its
// times both in UTC and on its billboard's clock. Pure: the rows come in, text cells go out.

/** A proven play, a sold shout's or an ad's, as the export writes it. */
export type ProvenPlay = {
  deviceId: string
  timeZoneId: string
  startEpochMs: number
  endEpochMs: number
  kind: 'shout' | 'ad'
  /** the order (a shout) or the campaign (an ad) */
  orderGuid: string | null
  campaignId: string | null
  /** the content played: the order's content key, the campaign's ad */
  contentId: string | null
  /** the player's own id of the report that proved it */
  proofId: string
  /** when the report came (the server's clock) */
  reportedAtEpochMs: number | null
}

export const PROOF_COLUMNS = [
  'billboard',
  'time_zone',
  'start_utc',
  'end_utc',
  'start_local',
  'end_local',
  'duration_seconds',
  'kind',
  'order',
  'campaign',
  'content_id',
  'proven_by',
  'proof_id',
  'reported_at_utc',
] as const

const HOUR_MS = 3_600_000

/**
 * "YYYY-MM-DD HH:mm:ss" on a zone's clock, fast enough for a month of a fleet's plays: the zone's
 * offset is worked out once an hour of time (offsets change on the hour or the half hour, never
 * inside a quarter hour; a quarter is the key) and the rest is arithmetic.
 */
export function localClock(timeZoneId: string): (epochMs: number) => string {
  const offsets = new Map<number, number>()
  return (epochMs) => {
    const quarter = Math.floor(epochMs / (HOUR_MS / 4))
    let offset = offsets.get(quarter)
    if (offset === undefined) {
      offset =
        Temporal.Instant.fromEpochMilliseconds(quarter * (HOUR_MS / 4)).toZonedDateTimeISO(
          timeZoneId,
        ).offsetNanoseconds / 1e6
      offsets.set(quarter, offset)
    }
    return utcClock(epochMs + offset)
  }
}

/** "YYYY-MM-DD HH:mm:ss" in UTC. */
export function utcClock(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ')
}

/** A proven play as the export's cells, in PROOF_COLUMNS' order. */
export function proofCells(
  play: ProvenPlay,
  local: (epochMs: number) => string,
): (string | number)[] {
  return [
    play.deviceId,
    play.timeZoneId,
    utcClock(play.startEpochMs),
    utcClock(play.endEpochMs),
    local(play.startEpochMs),
    local(play.endEpochMs),
    Math.round((play.endEpochMs - play.startEpochMs) / 100) / 10,
    play.kind,
    play.orderGuid ?? '',
    play.campaignId ?? '',
    play.contentId ?? '',
    'player_report',
    play.proofId,
    play.reportedAtEpochMs === null ? '' : utcClock(play.reportedAtEpochMs),
  ]
}
