// Dates, times and durations as the console shows them: in the operator's language, and a slot's
// times in its billboard's time zone (what the shopper bought).

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

/** "in 2 hours", "in 15 minutes", "3 minutes ago": how long until a moment. */
export function timeUntil(epochMs: number, nowMs: number, locale: string): string {
  const minutes = Math.round((epochMs - nowMs) / 60_000)
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute')
  const hours = Math.round(minutes / 60)
  if (Math.abs(hours) < 48) return format.format(hours, 'hour')
  return format.format(Math.round(hours / 24), 'day')
}
