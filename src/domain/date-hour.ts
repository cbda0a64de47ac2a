// The spec's date-hour strings and time zone names, read and checked without Temporal: the app
// validates every API answer with the contract's schemas (src/contract) on its first screen, and
// the Temporal polyfill (about 20 KB gzipped) should load only with the screens that compute times
// (first-screen budget). dates.ts builds Temporal values on top of these. Calendar:
// proleptic Gregorian (ISO 8601), as Temporal's.
import { RuleError } from './problems'

export const DAY_MS = 86_400_000

// spec §5 and §9: yyyy-MM-dd optionally followed by _HH, _HH-mm or _HH-mm-ss.
export const DATE_HOUR_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:_(\d{2})(?:-(\d{2})(?:-(\d{2}))?)?)?$/
// The event catalogue format: yyyy-MM-dd_HH exactly.
export const EVENT_DATE_HOUR_PATTERN = /^\d{4}-\d{2}-\d{2}_\d{2}$/

export class DateFormatError extends RuleError {
  override readonly name = 'DateFormatError'
  constructor(readonly value: string) {
    super({ code: 'date_format_invalid', params: { value } })
  }
}

export type DateHourParts = {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

const part = (value: string | undefined): number => (value === undefined ? 0 : Number(value))

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/** The parts of a date-hour string, or null when it is not one or names no real calendar date and hour. */
export function readDateHour(value: string): DateHourParts | null {
  const match = DATE_HOUR_PATTERN.exec(value)
  if (!match) return null
  const [, year, month, day, hour, minute, second] = match
  const parts = {
    year: part(year),
    month: part(month),
    day: part(day),
    hour: part(hour),
    minute: part(minute),
    second: part(second),
  }
  const valid =
    parts.month >= 1 &&
    parts.month <= 12 &&
    parts.day >= 1 &&
    parts.day <= daysInMonth(parts.year, parts.month) &&
    parts.hour <= 23 &&
    parts.minute <= 59 &&
    parts.second <= 59
  return valid ? parts : null
}

export function isDateHour(value: string): boolean {
  return readDateHour(value) !== null
}

/** Negative, zero or positive as a is before, equal to or after b (both must be date-hours). */
export function compareDateHour(a: string, b: string): number {
  const x = readDateHour(a)
  const y = readDateHour(b)
  if (!x || !y) throw new DateFormatError(x ? b : a)
  for (const key of ['year', 'month', 'day', 'hour', 'minute', 'second'] as const) {
    if (x[key] !== y[key]) return x[key] - y[key]
  }
  return 0
}

const knownZones = new Map<string, boolean>()

/**
 * True for an IANA time zone name ('Europe/Paris'); offsets like '+02:00' are not names. Asked of the
 * platform's Intl, whose zone data Temporal uses too.
 */
export function isValidTimeZone(timeZoneId: string): boolean {
  if (!/^[A-Za-z]/.test(timeZoneId)) return false
  let known = knownZones.get(timeZoneId)
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: timeZoneId })
      known = true
    } catch {
      known = false
    }
    if (knownZones.size > 1000) knownZones.clear()
    knownZones.set(timeZoneId, known)
  }
  return known
}
