import { Temporal } from 'temporal-polyfill'
import { type EventTiming, eventWindowEpochMs } from './event'
import type { SlotPackage } from './schedule'
import { bandOfHour, type TimeOfDayBand } from './slots'

// Where an advertiser's plays may go on a billboard (docs/decisions/023). Shouts come first and
// never compete with ads: every slot of an event keeps its shouts' places (playsPerSlot plays of
// secondsPerShout, evenly spread, sold or not: schedule.ts playsOfSlot). The rest of the time is
// free. Each local hour of the billboard is cut into 15-second cells; a cell that overlaps no
// shout's place is free, and an even spread of a share of the hour's free cells (the event's
// `adSharePercent`, or the server's default) are the hour's ad cells: the only cells an ad play may
// take, each at most once (the database's key on billboard and start). The other free cells are the
// house card's, so the billboard still sells shouts. At a time no event covers, the whole hour is
// free and the default share applies. A sold shout never moves an ad play, and an ad play never
// sits on a shout's place, whatever is sold after a booking.

/** An ad play lasts 15 seconds (catalogue-format: the IAB multiplier is per 15-second play). */
export const AD_PLAY_MS = 15_000
/** The share of an hour's free time ads may take when the event names none (AD_FREE_TIME_SHARE). */
export const DEFAULT_AD_SHARE_PERCENT = 50

/** An event of the billboard, as the ad rules need it. */
export type AdTimeEvent = EventTiming &
  SlotPackage & {
    /** catalogue-format `adSharePercent` (0-100), or null for the server's default. */
    adSharePercent: number | null
  }

/** A billboard's events and its zone: what fixes its ad cells. */
export type AdTimeBillboard = {
  timeZoneId: string
  events: readonly AdTimeEvent[]
}

/** A local hour of the billboard (real time; the repeated hour of a fall-back night counts twice). */
export type LocalHour = {
  startEpochMs: number
  endEpochMs: number
  /** The hour on the wall clock, 0-23. */
  hour: number
  /** The local date, yyyy-MM-dd. */
  date: string
}

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const EPOCH_DAY = Temporal.PlainDate.from('1970-01-01')

/** The local hours that overlap [fromEpochMs, toEpochMs), first to last. */
export function localHours(
  timeZoneId: string,
  fromEpochMs: number,
  toEpochMs: number,
): LocalHour[] {
  const hours: LocalHour[] = []
  if (toEpochMs <= fromEpochMs) return hours
  let zoned = Temporal.Instant.fromEpochMilliseconds(fromEpochMs)
    .toZonedDateTimeISO(timeZoneId)
    .round({ smallestUnit: 'hour', roundingMode: 'floor' })
  let start = zoned.epochMilliseconds
  let day = Number.NaN
  let date = ''
  while (start < toEpochMs) {
    // an hour is an hour of real time; the wall clock's offset holds until the zone's next
    // transition, so the hours up to it are counted without asking the time zone again (a quarter
    // of hours in one call, not one zone lookup an hour)
    const offsetMs = zoned.offsetNanoseconds / 1e6
    const transition = zoned.getTimeZoneTransition('next')?.epochMilliseconds ?? Infinity
    const until = Math.min(toEpochMs, transition)
    for (; start < until; start += HOUR_MS) {
      const local = start + offsetMs
      const localDay = Math.floor(local / DAY_MS)
      if (localDay !== day) {
        day = localDay
        date = EPOCH_DAY.add({ days: localDay }).toString()
      }
      hours.push({
        startEpochMs: start,
        endEpochMs: start + HOUR_MS,
        hour: Math.floor((local - localDay * DAY_MS) / HOUR_MS),
        date,
      })
    }
    if (start < toEpochMs)
      zoned = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(timeZoneId)
  }
  return hours
}

/** A billboard's events with their windows in its zone, worked out once for many hours. */
type PlacedEvent = { event: AdTimeEvent; startEpochMs: number; endEpochMs: number }

function placedEvents(billboard: AdTimeBillboard): PlacedEvent[] {
  return billboard.events.map((event) => ({
    event,
    ...eventWindowEpochMs(event, billboard.timeZoneId),
  }))
}

/** The share (percent) of the hour's free time ads may take. */
function shareOfHour(
  events: readonly PlacedEvent[],
  hour: LocalHour,
  defaultSharePercent: number,
): number {
  let share: number | null = null
  for (const { event, ...window } of events) {
    if (window.endEpochMs <= hour.startEpochMs || window.startEpochMs >= hour.endEpochMs) continue
    const own = event.adSharePercent ?? defaultSharePercent
    // two events over one hour: the smaller share holds
    share = share === null ? own : Math.min(share, own)
  }
  return Math.max(0, Math.min(100, share ?? defaultSharePercent))
}

/** The shouts' places (sold or not) overlapping the hour, as [start, end) pairs. */
function shoutPlaces(events: readonly PlacedEvent[], hour: LocalHour): [number, number][] {
  const places: [number, number][] = []
  for (const { event, ...window } of events) {
    if (window.endEpochMs <= hour.startEpochMs || window.startEpochMs >= hour.endEpochMs) continue
    const slots = Math.floor((window.endEpochMs - window.startEpochMs) / event.slotWidthMS)
    const first = Math.max(
      0,
      Math.floor((hour.startEpochMs - window.startEpochMs) / event.slotWidthMS),
    )
    const last = Math.min(
      slots - 1,
      Math.floor((hour.endEpochMs - window.startEpochMs) / event.slotWidthMS),
    )
    const spacing = event.slotWidthMS / event.playsPerSlot
    const length = event.secondsPerShout * 1000
    for (let slot = first; slot <= last; slot++) {
      const slotStart = window.startEpochMs + slot * event.slotWidthMS
      // the same arithmetic as schedule.ts playsOfSlot, without its checks (hot: every hour)
      for (let k = 0; k < event.playsPerSlot; k++) {
        const start = slotStart + Math.round(k * spacing)
        places.push([start, start + length])
      }
    }
  }
  return places.sort((a, b) => a[0] - b[0])
}

/**
 * The hour's ad cells: the start of each 15-second cell ads may take, sorted. The hour is cut into
 * cells from its start; a cell overlapping a shout's place is not free; of the free cells, an even
 * spread of floor(free × share / 100) are the ad cells (cell j of k: index ⌊(j + ½) × free / k⌋).
 */
export function adCellsOfHour(
  billboard: AdTimeBillboard,
  hour: LocalHour,
  defaultSharePercent = DEFAULT_AD_SHARE_PERCENT,
): number[] {
  return cellsOfHour(placedEvents(billboard), hour, defaultSharePercent)
}

function cellsOfHour(
  events: readonly PlacedEvent[],
  hour: LocalHour,
  defaultSharePercent: number,
): number[] {
  const covered = events.some(
    (e) => e.endEpochMs > hour.startEpochMs && e.startEpochMs < hour.endEpochMs,
  )
  if (!covered) {
    // no event: every hour of that length has the same cells from its start (most hours are so)
    const offsets = freeHourOffsets(hour.endEpochMs - hour.startEpochMs, defaultSharePercent)
    return offsets.map((offset) => hour.startEpochMs + offset)
  }
  const places = shoutPlaces(events, hour)
  const free: number[] = []
  let p = 0
  for (let start = hour.startEpochMs; start + AD_PLAY_MS <= hour.endEpochMs; start += AD_PLAY_MS) {
    const end = start + AD_PLAY_MS
    while (p < places.length && (places[p] as [number, number])[1] <= start) p++
    let overlaps = false
    for (let q = p; q < places.length; q++) {
      const [from, to] = places[q] as [number, number]
      if (from >= end) break
      if (to > start) {
        overlaps = true
        break
      }
    }
    if (!overlaps) free.push(start)
  }
  const share = shareOfHour(events, hour, defaultSharePercent)
  const count = Math.floor((free.length * share) / 100)
  return spreadEvenly(free, count)
}

const freeHours = new Map<string, number[]>()

/** The ad cells of an hour no event covers, from its start: what adCellsOfHour gives then. */
function freeHourOffsets(lengthMs: number, defaultSharePercent: number): number[] {
  const share = Math.max(0, Math.min(100, defaultSharePercent))
  const key = `${lengthMs} ${share}`
  let offsets = freeHours.get(key)
  if (!offsets) {
    const free: number[] = []
    for (let at = 0; at + AD_PLAY_MS <= lengthMs; at += AD_PLAY_MS) free.push(at)
    offsets = spreadEvenly(free, Math.floor((free.length * share) / 100))
    freeHours.set(key, offsets)
  }
  return offsets
}

/** `count` items of `items`, spread evenly (item j of count: index ⌊(j + ½) × length / count⌋). */
export function spreadEvenly<T>(items: ArrayLike<T>, count: number): T[] {
  const n = Math.max(0, Math.min(items.length, Math.floor(count)))
  const picked: T[] = []
  for (let j = 0; j < n; j++) {
    picked.push(items[Math.floor(((j + 0.5) * items.length) / n)] as T)
  }
  return picked
}

/** Whether a play may start at this instant on the billboard: the start of one of its ad cells. */
export function isAdCell(
  billboard: AdTimeBillboard,
  startEpochMs: number,
  defaultSharePercent = DEFAULT_AD_SHARE_PERCENT,
): boolean {
  const [hour] = localHours(billboard.timeZoneId, startEpochMs, startEpochMs + 1)
  return hour ? adCellsOfHour(billboard, hour, defaultSharePercent).includes(startEpochMs) : false
}

/**
 * Whether every start is the start of one of the billboard's ad cells (isAdCell for many plays:
 * the hours between the first and the last worked out once, each hour's cells once).
 */
export function allAdCells(
  billboard: AdTimeBillboard,
  starts: readonly number[],
  defaultSharePercent = DEFAULT_AD_SHARE_PERCENT,
): boolean {
  if (starts.length === 0) return true
  const first = Math.min(...starts)
  const hours = localHours(billboard.timeZoneId, first, Math.max(...starts) + 1)
  const firstHour = hours[0]
  if (!firstHour) return false
  const events = placedEvents(billboard)
  const cells = new Map<number, Set<number>>()
  for (const start of starts) {
    // hours follow each other an hour of real time apart
    const hour = hours[Math.floor((start - firstHour.startEpochMs) / HOUR_MS)]
    if (!hour) return false
    let ofHour = cells.get(hour.startEpochMs)
    if (!ofHour) {
      ofHour = new Set(cellsOfHour(events, hour, defaultSharePercent))
      cells.set(hour.startEpochMs, ofHour)
    }
    if (!ofHour.has(start)) return false
  }
  return true
}

/** What a campaign asks of one billboard's time. */
export type AdTimeRequest = {
  startEpochMs: number
  endEpochMs: number
  /** The spec's time-of-day bands, in the billboard's local time. */
  dayparts: readonly TimeOfDayBand[]
  /** No play starts before this (now plus the lead the schedule rules ask). */
  notBeforeEpochMs: number
  /** Starts held already (other campaigns', or this one's own when it is extended). */
  taken: ReadonlySet<number>
}

/**
 * The ad cells a campaign may still take on a billboard, sorted: inside the flight (whole plays),
 * in its dayparts, not before `notBeforeEpochMs`, not taken.
 */
export function openAdCells(
  billboard: AdTimeBillboard,
  request: AdTimeRequest,
  defaultSharePercent = DEFAULT_AD_SHARE_PERCENT,
): number[] {
  const from = Math.max(request.startEpochMs, request.notBeforeEpochMs)
  const dayparts = new Set(request.dayparts)
  const events = placedEvents(billboard)
  const cells: number[] = []
  for (const hour of localHours(billboard.timeZoneId, from, request.endEpochMs)) {
    if (!dayparts.has(bandOfHour(hour.hour))) continue
    for (const start of cellsOfHour(events, hour, defaultSharePercent)) {
      if (start < from || start + AD_PLAY_MS > request.endEpochMs) continue
      if (!request.taken.has(start)) cells.push(start)
    }
  }
  return cells
}

/**
 * [from, to) cut into pieces of about `pieceMs`, each computed on its own (the openAdCells of the
 * pieces, put end to end, are those of the whole): a long window's work done a piece at a time.
 * Inner bounds fall on whole hours of real time, so no 15-second cell straddles two pieces (a
 * zone's hour starts on a quarter of an hour).
 */
export function adTimePieces(
  fromEpochMs: number,
  toEpochMs: number,
  pieceMs = 7 * DAY_MS,
): [number, number][] {
  const pieces: [number, number][] = []
  let from = fromEpochMs
  while (from < toEpochMs) {
    const bound = Math.ceil((from + pieceMs) / HOUR_MS) * HOUR_MS
    const to = Math.min(toEpochMs, bound)
    pieces.push([from, to])
    from = to
  }
  return pieces
}
