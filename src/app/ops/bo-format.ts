// Dates and times as the console's schedule and dashboard show them: in the operator's language, a
// slot's times in its billboard's time zone.

export function dateTimeIn(epochMs: number, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(epochMs)
}

export function timeIn(epochMs: number, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone }).format(epochMs)
}
