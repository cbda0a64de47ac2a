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

/** A stretch a billboard was silent: from its last report until it reported again (null: still). */
export type DarkSpell = { fromEpochMs: number; toEpochMs: number | null }

/**
 * The local days of the `days` days up to the one holding `nowEpochMs` (oldest first), each with its
 * bounds: 23 or 25 hours on a day the clocks change.
 */
export function lastLocalDays(
  nowEpochMs: number,
  timeZoneId: string,
  days: number,
): { day: string; fromEpochMs: number; toEpochMs: number }[] {
  const today = zonedDateTimeAt(nowEpochMs, timeZoneId).startOfDay()
  return Array.from({ length: days }, (_, i) => {
    const start = today.subtract({ days: days - 1 - i })
    return {
      day: start.toPlainDate().toString(),
      fromEpochMs: start.epochMilliseconds,
      toEpochMs: start.add({ days: 1 }).epochMilliseconds,
    }
  })
}

/**
 * The whole percent of [from, min(to, now)) a billboard was not dark, rounded down (a minute dark
 * never shows as 100 %); null for a day not begun yet. Dark spells may overlap: counted once.
 */
export function uptimePercent(
  day: { fromEpochMs: number; toEpochMs: number },
  dark: readonly DarkSpell[],
  nowEpochMs: number,
): number | null {
  const from = day.fromEpochMs
  const to = Math.min(day.toEpochMs, nowEpochMs)
  if (to <= from) return null
  const spells = dark
    .map((d) => [Math.max(from, d.fromEpochMs), Math.min(to, d.toEpochMs ?? nowEpochMs)] as const)
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0])
  let darkMs = 0
  let reached = from
  for (const [a, b] of spells) {
    const start = Math.max(a, reached)
    if (b > start) darkMs += b - start
    reached = Math.max(reached, b)
  }
  return Math.floor((100 * (to - from - darkMs)) / (to - from))
}
