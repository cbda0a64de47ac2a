// The console's one way to write a moment, a day or a duration: in the operator's language, and
// always on the clock of the place the thing happens (the event's or the billboard's zone, named once
// per view with ZoneNote), never in the browser's zone. tests/lint/console-dates.test.ts keeps every
// other file of the console from formatting a date its own way.
import { shortDay } from '../lib/display-date'

/** The shop's zone for what belongs to no place (sign-ins, mails): UTC, and the view says so. */
export const NO_PLACE_ZONE = 'UTC'

/** "Nov 29, 2026, 12:00 AM" on the clock of `timeZone`. */
export function dateTimeIn(epochMs: number, locale: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(epochMs)
}

/** "12:00 AM" on the clock of `timeZone`. */
export function timeIn(epochMs: number, locale: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone }).format(epochMs)
}

/** An hour tick of a day's timeline: "6 AM", "06 h", "06 Uhr" (short enough to sit side by side). */
export function hourIn(epochMs: number, locale: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', timeZone }).format(epochMs)
}

/** "Nov 29, 2026, 12:00 AM – Dec 12, 2026, 11:00 PM": the range as the language writes one. */
export function rangeIn(startMs: number, endMs: number, locale: string, timeZone: string): string {
  const format = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  })
  return endMs < startMs ? format.format(startMs) : format.formatRange(startMs, endMs)
}

/** A calendar day (YYYY-MM-DD; it has no zone of its own) as the language writes it. */
export function dayIn(isoDay: string, locale: string): string {
  const at = Date.parse(`${isoDay}T12:00:00Z`)
  if (Number.isNaN(at)) return isoDay
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(at)
}

/** A calendar day as a short chart label: "Nov 25", "25 nov.", "25. Nov.". */
export const shortDayIn = shortDay

/** The calendar day (YYYY-MM-DD) of a moment on the clock of `timeZone`. */
export function isoDayIn(epochMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(epochMs)
}

/** "in 2 hours", "in 15 minutes", "3 minutes ago": how long until a moment. */
export function timeUntil(epochMs: number, nowMs: number, locale: string): string {
  const minutes = Math.round((epochMs - nowMs) / 60_000)
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute')
  const hours = Math.round(minutes / 60)
  if (Math.abs(hours) < 48) return format.format(hours, 'hour')
  return format.format(Math.round(hours / 24), 'day')
}

/** "2 h 5 min", "45 min", "30 s": how long something lasted. */
export function durationIn(ms: number, locale: string): string {
  const unit = (value: number, u: 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: u, unitDisplay: 'narrow' }).format(value)
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 60) return unit(seconds, 'second')
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return unit(minutes, 'minute')
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest === 0 ? unit(hours, 'hour') : `${unit(hours, 'hour')} ${unit(rest, 'minute')}`
}

/** The distinct zones of a view, in the order met. */
export function zonesOf(zones: readonly string[]): string[] {
  return [...new Set(zones)]
}
