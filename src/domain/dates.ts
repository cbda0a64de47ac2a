import { Temporal } from 'temporal-polyfill'
import { DateFormatError, EVENT_DATE_HOUR_PATTERN, readDateHour } from './date-hour'
import { RuleError } from './problems'

export {
  compareDateHour,
  DATE_HOUR_PATTERN,
  DateFormatError,
  type DateHourParts,
  EVENT_DATE_HOUR_PATTERN,
  isDateHour,
  isValidTimeZone,
  readDateHour,
} from './date-hour'

/** Parses the spec's date formats into a wall-clock date-time; a calendar-impossible date is a format error too. */
export function parseDateHour(value: string): Temporal.PlainDateTime {
  const parts = readDateHour(value)
  if (!parts) throw new DateFormatError(value)
  try {
    return Temporal.PlainDateTime.from(parts, { overflow: 'reject' })
  } catch {
    throw new DateFormatError(value)
  }
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0')

type WallClock = Pick<
  Temporal.PlainDateTime,
  'year' | 'month' | 'day' | 'hour' | 'minute' | 'second'
>

/** yyyy-MM-dd_HH (the event format); minutes and seconds are dropped. */
export function formatDateHour(value: WallClock): string {
  return `${pad(value.year, 4)}-${pad(value.month)}-${pad(value.day)}_${pad(value.hour)}`
}

/** yyyy-MM-dd_HH-mm */
export function formatDateHourMinute(value: WallClock): string {
  return `${formatDateHour(value)}-${pad(value.minute)}`
}

/**
 * spec §5: subtractMinutesFromDateHour requires yyyy-MM-dd_HH, default 1 minute. Wall-clock
 * arithmetic (no time zone), answered as yyyy-MM-dd_HH-mm, a format parseDateHour reads back.
 */
export function subtractMinutesFromDateHour(value: string, minutes = 1): string {
  if (!EVENT_DATE_HOUR_PATTERN.test(value)) throw new DateFormatError(value)
  if (!Number.isInteger(minutes) || minutes < 0) {
    throw new RangeError(`minutes must be a whole number of at least 0, got ${minutes}`)
  }
  return formatDateHourMinute(parseDateHour(value).subtract({ minutes }))
}

// spec §5: weekday offsets 0-6, Sunday 0.
export const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** 'Sunday' → 0 … 'Saturday' → 6; case-insensitive, three-letter abbreviations accepted. */
export function weekdayOffset(name: string): number {
  const wanted = name.trim().toLowerCase()
  const index = WEEKDAYS.findIndex(
    (day) => day.toLowerCase() === wanted || day.slice(0, 3).toLowerCase() === wanted,
  )
  if (index === -1) throw new RuleError({ code: 'bad_weekday' })
  return index
}

/** spec §5: hour of the week 0-167 (Sunday 00:00 is 0, Saturday 23:00 is 167). */
export function weekHourOffset(weekday: string, hour: number): number {
  const day = weekdayOffset(weekday)
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RuleError({ code: 'bad_hour' })
  return day * 24 + hour
}

/** spec §9: display format MM-dd-yyyy hh:mm a ('05-07-2027 06:00 PM'). */
export function formatDisplayDateTime(value: WallClock): string {
  const hour12 = value.hour % 12 === 0 ? 12 : value.hour % 12
  const meridiem = value.hour < 12 ? 'AM' : 'PM'
  return `${pad(value.month)}-${pad(value.day)}-${pad(value.year, 4)} ${pad(hour12)}:${pad(value.minute)} ${meridiem}`
}

/** spec §9's display format for an instant, on the wall clock of a time zone (the billboard's). */
export function formatDisplayDateTimeAt(epochMs: number, timeZoneId: string): string {
  return formatDisplayDateTime(zonedDateTimeAt(epochMs, timeZoneId))
}

/** spec §9: database format yyyy-MM-dd HH:mm:ss. */
export function formatDatabaseDateTime(value: WallClock): string {
  return `${pad(value.year, 4)}-${pad(value.month)}-${pad(value.day)} ${pad(value.hour)}:${pad(value.minute)}:${pad(value.second)}`
}

export function zonedDateTimeAt(epochMs: number, timeZoneId: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZoneId)
}
