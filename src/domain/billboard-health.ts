import { zonedDateTimeAt } from './dates'

// A billboard's health: its player's clock against the server's, and whether it reports. The web
// player beats every minute; a SMIL player's schedule fetches (every SMIL refresh) are its beats.

/** The web player beats this often. */
export const HEARTBEAT_INTERVAL_MS = 60_000
/** A player whose clock is off by more than this plays by the server's time instead. */
export const CLOCK_TOLERANCE_MS = 2_000
/** A billboard that has not reported for this long past its usual beat is stale. */
export const STALE_AFTER_MS = 2 * 60_000
/** BILLBOARD_OFFLINE_MINUTES's default: a billboard silent this long is offline. */
export const DEFAULT_OFFLINE_MINUTES = 10

/**
 * How far the server's clock is ahead of the player's (ms), from one exchange: the server's time
 * is taken to be at the middle of the round trip the player measured with its own clock.
 */
export function measuredClockOffset(exchange: {
  sentAtEpochMs: number
  receivedAtEpochMs: number
  serverEpochMs: number
}): number {
  return Math.round(
    exchange.serverEpochMs - (exchange.sentAtEpochMs + exchange.receivedAtEpochMs) / 2,
  )
}

/**
 * The correction a player applies to its clock after a measurement: none while its clock is within
 * the tolerance; the measured offset beyond it. A correction in force is kept while new measurements
 * stay within the tolerance of it, so network jitter does not move the schedule every minute.
 */
export function clockCorrection(currentMs: number, measuredMs: number): number {
  if (Math.abs(measuredMs - currentMs) <= CLOCK_TOLERANCE_MS) return currentMs
  return Math.abs(measuredMs) <= CLOCK_TOLERANCE_MS ? 0 : measuredMs
}

export type HeartbeatSource = 'web' | 'smil'

export type BillboardState =
  | { kind: 'never' }
  | { kind: 'playing'; sinceEpochMs: number }
  | { kind: 'stale'; lastSeenEpochMs: number }
  | { kind: 'offline'; sinceEpochMs: number }

/**
 * What the console says of a billboard: never connected; playing while it reports on time; stale
 * when it is more than two minutes late for its usual beat (a minute for our page, the playlist's
 * refresh for a SMIL player); offline once silent for `offlineMinutes`, since its last report.
 */
export function billboardState(
  last: { seenAtEpochMs: number; source: HeartbeatSource } | null,
  nowEpochMs: number,
  options: { offlineMinutes: number; smilRefreshMs: number },
): BillboardState {
  if (!last) return { kind: 'never' }
  const silent = nowEpochMs - last.seenAtEpochMs
  if (silent >= options.offlineMinutes * 60_000)
    return { kind: 'offline', sinceEpochMs: last.seenAtEpochMs }
  const usual = last.source === 'smil' ? options.smilRefreshMs : HEARTBEAT_INTERVAL_MS
  if (silent > usual + STALE_AFTER_MS) return { kind: 'stale', lastSeenEpochMs: last.seenAtEpochMs }
  return { kind: 'playing', sinceEpochMs: last.seenAtEpochMs }
}

/** The billboard's local day that holds `epochMs`: [its midnight, the next midnight), as instants. */
export function localDayBounds(
  epochMs: number,
  timeZoneId: string,
): { fromEpochMs: number; toEpochMs: number } {
  const start = zonedDateTimeAt(epochMs, timeZoneId).startOfDay()
  return {
    fromEpochMs: start.epochMilliseconds,
    toEpochMs: start.add({ days: 1 }).epochMilliseconds,
  }
}
