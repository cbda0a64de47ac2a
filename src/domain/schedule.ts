import { type EventTiming, eventWindowEpochMs } from './event'
import type { Locale } from './locale'
import type { OrderState } from './order-state'
import { isSlotNumberOfEvent, slotStartEpochMs } from './slots'

// Playout: when each sold slot plays on its billboard. A sold slot of a Confirmed order
// plays `playsPerSlot` times, evenly spread over the slot, `secondsPerShout` seconds each
// (catalogue-format: defaults 4 and 15; their product must fit in the slot). The server computes the
// schedule from this module, and checks each proof of play against it.

/** catalogue-format defaults for an event that names neither. */
export { DEFAULT_PLAYS_PER_SLOT, DEFAULT_SECONDS_PER_SHOUT } from './slot-package'

/** The feed's window: now → now + 24 h unless asked, at most 48 h (api-v1 "Player"). */
export const DEFAULT_SCHEDULE_WINDOW_MS = 24 * 3_600_000
export const MAX_SCHEDULE_WINDOW_MS = 48 * 3_600_000

export type SlotPackage = { playsPerSlot: number; secondsPerShout: number }
export type PlayoutEvent = EventTiming & SlotPackage

/** catalogue-format: `secondsPerShout × playsPerSlot` must fit in `slotWidthMS`. */
export function packageFitsSlot(event: Pick<PlayoutEvent, 'slotWidthMS'> & SlotPackage): boolean {
  return (
    Number.isInteger(event.playsPerSlot) &&
    event.playsPerSlot >= 1 &&
    event.secondsPerShout > 0 &&
    event.secondsPerShout * 1000 * event.playsPerSlot <= event.slotWidthMS
  )
}

export type Play = { playIndex: number; startEpochMs: number; endEpochMs: number }

/**
 * The plays of slot n: play k (0-based) starts at slotStart(n) + k × slotWidthMS / playsPerSlot and
 * lasts secondsPerShout. Slots count real elapsed time from the event's start instant, so a play is
 * never moved by a daylight-saving change (src/domain/README.md, "Time").
 */
export function playsOfSlot(event: PlayoutEvent, timeZoneId: string, slotNumber: number): Play[] {
  const start = slotStartEpochMs(event, timeZoneId, slotNumber)
  const spacing = event.slotWidthMS / event.playsPerSlot
  const length = event.secondsPerShout * 1000
  return Array.from({ length: event.playsPerSlot }, (_, playIndex) => {
    const startEpochMs = start + Math.round(playIndex * spacing)
    return { playIndex, startEpochMs, endEpochMs: startEpochMs + length }
  })
}

/**
 * Only Confirmed orders play: content under review never plays until an operator approves it;
 * Failed and Cancelled orders never play; a Processing order is not paid yet.
 */
export function mayPlay(orderState: OrderState): boolean {
  return orderState === 'Confirmed'
}

export type SoldSlot<C> = { orderGuid: string; slotNumber: number; content: C }
export type ScheduledPlay<C> = {
  orderGuid: string
  slotNumber: number
  playIndex: number
  startEpochMs: number
  endEpochMs: number
  content: C
}

/**
 * The plays of the sold slots that overlap [fromEpochMs, toEpochMs), sorted by start. A play that
 * started before the window and still runs is included (a player that starts mid-play shows it).
 */
export function schedulePlays<C>(input: {
  event: PlayoutEvent
  timeZoneId: string
  sold: readonly SoldSlot<C>[]
  fromEpochMs: number
  toEpochMs: number
}): ScheduledPlay<C>[] {
  const { event, timeZoneId, fromEpochMs, toEpochMs } = input
  const items: ScheduledPlay<C>[] = []
  for (const slot of input.sold) {
    if (!isSlotNumberOfEvent(event, timeZoneId, slot.slotNumber)) continue
    for (const play of playsOfSlot(event, timeZoneId, slot.slotNumber)) {
      if (play.endEpochMs <= fromEpochMs || play.startEpochMs >= toEpochMs) continue
      items.push({
        orderGuid: slot.orderGuid,
        slotNumber: slot.slotNumber,
        ...play,
        content: slot.content,
      })
    }
  }
  return items.sort(
    (a, b) => a.startEpochMs - b.startEpochMs || a.orderGuid.localeCompare(b.orderGuid),
  )
}

/**
 * The slot numbers whose plays may fall in [from, to): the slot of `from` minus one (its last play
 * may still run) through the slot of `to`. Lets the server ask the database for those slots only.
 */
export function slotRangeOfWindow(
  event: PlayoutEvent,
  eventStartEpochMs: number,
  fromEpochMs: number,
  toEpochMs: number,
): { first: number; last: number } {
  const first = Math.max(0, Math.floor((fromEpochMs - eventStartEpochMs) / event.slotWidthMS) - 1)
  const last = Math.floor((toEpochMs - eventStartEpochMs) / event.slotWidthMS)
  return { first, last }
}

export type WindowProblem = 'to_before_from' | 'window_too_long'

/**
 * The feed's window from the query (api-v1: defaults to now → now + 24 h, at most 48 h): the window,
 * or why it is refused.
 */
export function scheduleWindow(
  query: { fromEpochMs?: number | undefined; toEpochMs?: number | undefined },
  nowEpochMs: number,
): { fromEpochMs: number; toEpochMs: number } | { problem: WindowProblem } {
  const fromEpochMs = query.fromEpochMs ?? nowEpochMs
  const toEpochMs = query.toEpochMs ?? fromEpochMs + DEFAULT_SCHEDULE_WINDOW_MS
  if (toEpochMs <= fromEpochMs) return { problem: 'to_before_from' }
  if (toEpochMs - fromEpochMs > MAX_SCHEDULE_WINDOW_MS) return { problem: 'window_too_long' }
  return { fromEpochMs, toEpochMs }
}

/** A player's own window starts at the hour (see hourlyScheduleWindow). */
export const SCHEDULE_WINDOW_ALIGN_MS = 3_600_000

/**
 * The window a player asks for: from the current whole hour, 25 h (so always at least 24 h ahead).
 * Every fetch of the same hour asks for the same window, so the server answers all of them from the
 * schedule it made for the first, and a SMIL player's playlist stays the same document all hour.
 */
export function hourlyScheduleWindow(nowEpochMs: number): {
  fromEpochMs: number
  toEpochMs: number
} {
  const fromEpochMs = Math.floor(nowEpochMs / SCHEDULE_WINDOW_ALIGN_MS) * SCHEDULE_WINDOW_ALIGN_MS
  return {
    fromEpochMs,
    toEpochMs: fromEpochMs + DEFAULT_SCHEDULE_WINDOW_MS + SCHEDULE_WINDOW_ALIGN_MS,
  }
}

/** A SMIL playlist's own window starts at 00:00 or 12:00 UTC (see smilScheduleWindow). */
export const SMIL_WINDOW_ALIGN_MS = 12 * 3_600_000

/**
 * The SMIL feed's window: as scheduleWindow, except that without `fromEpochMs` it starts at the last
 * 00:00 or 12:00 UTC and runs 36 h (so always at least 24 h ahead). A signage player fetches the
 * playlist again every few minutes and reloads it only when it changed (Last-Modified, ETag), and a
 * reload is where signageOS's player goes wrong (a sold play it is showing starts again from its
 * beginning): so the document changes twice a day and when what is sold changes, not every hour as
 * a window that started at the hour would.
 */
export function smilScheduleWindow(
  query: { fromEpochMs?: number | undefined; toEpochMs?: number | undefined },
  nowEpochMs: number,
): ReturnType<typeof scheduleWindow> {
  if (query.fromEpochMs !== undefined) return scheduleWindow(query, nowEpochMs)
  const fromEpochMs = Math.floor(nowEpochMs / SMIL_WINDOW_ALIGN_MS) * SMIL_WINDOW_ALIGN_MS
  return scheduleWindow(
    {
      fromEpochMs,
      toEpochMs: query.toEpochMs ?? fromEpochMs + DEFAULT_SCHEDULE_WINDOW_MS + SMIL_WINDOW_ALIGN_MS,
    },
    nowEpochMs,
  )
}

/**
 * The house card's language: from the billboard's country, France → fr, Germany → de, else
 * en. Countries are catalogue text, so the usual spellings and ISO codes are accepted.
 */
export function houseLocale(country: string): Locale {
  const c = country.trim().toLowerCase()
  if (['france', 'fr', 'fra', 'république française'].includes(c)) return 'fr'
  if (['germany', 'de', 'deu', 'deutschland', 'allemagne'].includes(c)) return 'de'
  return 'en'
}

/** A proof of play as the player sends it (api-v1 `Play`). */
export type PlayReport = {
  orderGuid: string
  slotNumber: number
  playIndex: number
  startedAtEpochMs: number
  endedAtEpochMs: number
}

/** How far a reported play may be from its scheduled times (a player's clock drifts a little). */
export const PLAY_TOLERANCE_MS = 2 * 60_000

/**
 * Whether a reported play is one of the schedule's (same order, slot and play index, at about its
 * time). A play that matches nothing scheduled for the device is refused, never stored as proof.
 */
export function matchesScheduledPlay(
  report: PlayReport,
  scheduled: Pick<
    ScheduledPlay<unknown>,
    'orderGuid' | 'slotNumber' | 'playIndex' | 'startEpochMs' | 'endEpochMs'
  >,
): boolean {
  return (
    report.orderGuid === scheduled.orderGuid &&
    report.slotNumber === scheduled.slotNumber &&
    report.playIndex === scheduled.playIndex &&
    report.endedAtEpochMs >= report.startedAtEpochMs &&
    Math.abs(report.startedAtEpochMs - scheduled.startEpochMs) <= PLAY_TOLERANCE_MS &&
    report.endedAtEpochMs <= scheduled.endEpochMs + PLAY_TOLERANCE_MS
  )
}

/**
 * Whether a proof of play can be true at `nowEpochMs`: the scheduled play has begun and the report
 * neither starts nor ends in the future, each allowing the billboard's clock to run `skewMs` ahead of
 * the server's. A proof sent before its play airs is refused (a player that reports what it only
 * plans to play proves nothing).
 */
export function playHasAired(
  report: Pick<PlayReport, 'startedAtEpochMs' | 'endedAtEpochMs'>,
  scheduledStartEpochMs: number,
  nowEpochMs: number,
  skewMs: number,
): boolean {
  const latest = nowEpochMs + skewMs
  return (
    scheduledStartEpochMs <= latest &&
    report.startedAtEpochMs <= latest &&
    report.endedAtEpochMs <= latest
  )
}

/**
 * Which event a billboard advertises on its house card when it belongs to several: the
 * one live at the window's start (when several are, the one that started last: a short event
 * inside a long one is the one running now); else the next one to start; else the last to end.
 * The schedule's items come from every event of the billboard: a sold slot plays whatever its event.
 */
export function houseEventOf<E extends EventTiming>(
  events: readonly E[],
  timeZoneId: string,
  atEpochMs: number,
): E | null {
  const windows = events.map((event) => ({ event, ...eventWindowEpochMs(event, timeZoneId) }))
  const live = windows
    .filter((w) => w.startEpochMs <= atEpochMs && atEpochMs < w.endEpochMs)
    .sort((a, b) => b.startEpochMs - a.startEpochMs)
  if (live[0]) return live[0].event
  const next = windows
    .filter((w) => w.startEpochMs > atEpochMs)
    .sort((a, b) => a.startEpochMs - b.startEpochMs)
  if (next[0]) return next[0].event
  const past = [...windows].sort((a, b) => b.endEpochMs - a.endEpochMs)
  return past[0]?.event ?? null
}

/** What the confirmation page says of a sold slot. */
export type SlotAiring =
  | { kind: 'upcoming' }
  | { kind: 'on-air' }
  | { kind: 'played'; played: number; firstAtEpochMs: number | null }

/**
 * "On air now" while the slot runs; once it is over (or every play is proven), how many of its plays
 * the billboard proved and when the first began. Proofs are the plays of this slot, one per play.
 */
export function slotAiring(
  slot: { startEpochMs: number; endEpochMs: number },
  proofs: readonly { playIndex: number; startedAtEpochMs: number }[],
  playsPerSlot: number,
  nowEpochMs: number,
): SlotAiring {
  const played = Math.min(playsPerSlot, new Set(proofs.map((p) => p.playIndex)).size)
  if (nowEpochMs >= slot.endEpochMs || played >= playsPerSlot) {
    const firstAtEpochMs = proofs.length ? Math.min(...proofs.map((p) => p.startedAtEpochMs)) : null
    return { kind: 'played', played, firstAtEpochMs }
  }
  return nowEpochMs >= slot.startEpochMs ? { kind: 'on-air' } : { kind: 'upcoming' }
}

/**
 * A changed SMIL document is held back this long before a sold play begins: signageOS reloads a
 * changed playlist at once and starts the item on screen again from its beginning, so a reload in a
 * play runs it past its end (measured up to 6 s). A reload this far ahead has settled before it.
 */
export const SMIL_HOLD_BEFORE_MS = 10_000
/** ... and this long after a sold play ends: a slow device shows a play up to ~1.5 s past its end. */
export const SMIL_HOLD_AFTER_MS = 3_000

/**
 * The longest stretch a change is held back for: sold plays back to back (closer than the margins
 * above) make one stretch, and a longer one is not held at all (a change there is published at
 * once, as without a hold), so a change always reaches the player hours before the plays it adds.
 */
export const SMIL_HOLD_MAX_MS = 3_600_000

/**
 * Whether a billboard's SMIL feed keeps answering the document it published before (validators and
 * body) rather than a changed one: while one of its sold plays is on screen or begins within
 * SMIL_HOLD_BEFORE_MS (and the stretch of such plays lasts at most SMIL_HOLD_MAX_MS). A sale's plays
 * begin PURCHASE_CUTOFF_HOURS ahead at the earliest (a campaign's CAMPAIGN_START_LEAD_MS), far past
 * any hold, so a held-back change never loses a play.
 */
export function smilFeedHeld(
  plays: readonly { startEpochMs: number; endEpochMs: number }[],
  nowEpochMs: number,
): boolean {
  const holds = plays
    .map((p) => ({
      from: p.startEpochMs - SMIL_HOLD_BEFORE_MS,
      to: p.endEpochMs + SMIL_HOLD_AFTER_MS,
    }))
    .sort((a, b) => a.from - b.from)
  let stretch: { from: number; to: number } | null = null
  for (const h of holds) {
    if (stretch && h.from <= stretch.to) stretch.to = Math.max(stretch.to, h.to)
    else if (stretch && stretch.to > nowEpochMs)
      break // the one holding now, or later ones only
    else stretch = { ...h }
  }
  return (
    stretch !== null &&
    stretch.from <= nowEpochMs &&
    nowEpochMs < stretch.to &&
    stretch.to - stretch.from <= SMIL_HOLD_MAX_MS
  )
}
