import { Temporal } from 'temporal-polyfill'
import { DAY_MS } from './date-hour'
import { parseDateHour } from './dates'

// spec §3: an event runs on local time wherever the billboard is; the same event starts at
// midnight in Paris and at midnight in New York. Every instant therefore needs the device's zone.

export type EventTiming = {
  startDateHourLocalInclusive: string
  endDateHourLocalExclusive: string
  slotWidthMS: number
}

export { DAY_MS } from './date-hour'

// A wall-clock time skipped by a spring-forward change is moved later (Temporal's 'compatible').
const atZone = (value: string, timeZoneId: string): Temporal.ZonedDateTime =>
  parseDateHour(value).toZonedDateTime(timeZoneId, { disambiguation: 'compatible' })

/** spec §3: the start instant (inclusive) of the event in the device's time zone. */
export function eventStart(event: EventTiming, timeZoneId: string): Temporal.ZonedDateTime {
  return atZone(event.startDateHourLocalInclusive, timeZoneId)
}

/** spec §3: the end instant (exclusive) of the event in the device's time zone. */
export function eventEnd(event: EventTiming, timeZoneId: string): Temporal.ZonedDateTime {
  return atZone(event.endDateHourLocalExclusive, timeZoneId)
}

// Zone lookups are the slow part of every slot rule (a slot label needs the window several
// times), so windows are remembered per event dates and zone. Pure: the same inputs, the same answer.
const WINDOW_CACHE_LIMIT = 256
const windowCache = new Map<string, { startEpochMs: number; endEpochMs: number }>()

export function eventWindowEpochMs(
  event: EventTiming,
  timeZoneId: string,
): { startEpochMs: number; endEpochMs: number } {
  const key = `${event.startDateHourLocalInclusive}|${event.endDateHourLocalExclusive}|${timeZoneId}`
  const cached = windowCache.get(key)
  if (cached) return { ...cached }
  const window = {
    startEpochMs: eventStart(event, timeZoneId).epochMilliseconds,
    endEpochMs: eventEnd(event, timeZoneId).epochMilliseconds,
  }
  if (windowCache.size >= WINDOW_CACHE_LIMIT) windowCache.clear()
  windowCache.set(key, window)
  return { ...window }
}

/** True while the instant is inside [start, end) of the event in that zone. */
export function isDuringEvent(event: EventTiming, timeZoneId: string, epochMs: number): boolean {
  const { startEpochMs, endEpochMs } = eventWindowEpochMs(event, timeZoneId)
  return epochMs >= startEpochMs && epochMs < endEpochMs
}

/** spec §3: slot duration (PT15M for 900000 ms). */
export function slotDuration(event: Pick<EventTiming, 'slotWidthMS'>): Temporal.Duration {
  return Temporal.Duration.from({ milliseconds: event.slotWidthMS }).round({
    largestUnit: 'hours',
  })
}

/** spec §3: a day divided by the slot width, rounded down. */
export function shoutsPerDay(event: Pick<EventTiming, 'slotWidthMS'>): number {
  return Math.floor(DAY_MS / event.slotWidthMS)
}

/**
 * spec §3: number of event days, rounded up. Counted in calendar days of the zone, so a day of
 * 23 or 25 hours (daylight saving) is still one day.
 */
export function eventDays(event: EventTiming, timeZoneId: string): number {
  const span = eventStart(event, timeZoneId).until(eventEnd(event, timeZoneId), {
    largestUnit: 'days',
  })
  const partOfDay = span.hours + span.minutes + span.seconds + span.milliseconds > 0
  return span.days + (partOfDay ? 1 : 0)
}

/** spec §3: real event duration divided by the slot width, rounded down. */
export function slotsPerDevice(event: EventTiming, timeZoneId: string): number {
  const { startEpochMs, endEpochMs } = eventWindowEpochMs(event, timeZoneId)
  return Math.max(0, Math.floor((endEpochMs - startEpochMs) / event.slotWidthMS))
}

/** The local calendar dates the event covers in the zone, first to last. */
export function eventDates(event: EventTiming, timeZoneId: string): Temporal.PlainDate[] {
  const first = eventStart(event, timeZoneId).toPlainDate()
  const last = eventEnd(event, timeZoneId).subtract({ nanoseconds: 1 }).toPlainDate()
  const dates: Temporal.PlainDate[] = []
  for (let d = first; Temporal.PlainDate.compare(d, last) <= 0; d = d.add({ days: 1 })) {
    dates.push(d)
  }
  return dates
}
