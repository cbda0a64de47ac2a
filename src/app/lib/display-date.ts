import { formatDisplayDateTimeAt } from '../../domain/dates'

/**
 * A date and time the shopper reads, on the billboard's clock. English pages use spec §9's display
 * format (MM-dd-yyyy hh:mm a, the domain's formatter); French and German readers put the day first
 * and use a 24-hour clock, so their pages use their own short format (docs/spec.md says where the
 * shop departs from the spec).
 */
export function displayDateTime(epochMs: number, timeZoneId: string, locale: string): string {
  if (locale === 'en') return formatDisplayDateTimeAt(epochMs, timeZoneId)
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone: timeZoneId,
  }).format(epochMs)
}

/** A calendar day (YYYY-MM-DD) as a short label in the reader's language: "Nov 25", "25 nov.",
 * "25. Nov." (the charts' days, the shop's and the console's alike). */
export function shortDay(isoDay: string, locale: string): string {
  const at = Date.parse(`${isoDay}T12:00:00Z`)
  if (Number.isNaN(at)) return isoDay
  return new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(at)
}
