import type { Locale } from '../../domain/locale.ts'

// An instant on a billboard's clock as a language writes it: what the play alerts and the keepsake
// page put in their messages' `{time}` and `{day}`.

const LANGUAGE_TAGS: Record<Locale, string> = { en: 'en-US', fr: 'fr-FR', de: 'de-DE' }

/** "6:01 PM", "18:01": the instant on the billboard's clock, as the language writes a time. */
export function localTime(locale: Locale, epochMs: number, timeZoneId: string): string {
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[locale], {
    timeStyle: 'short',
    timeZone: timeZoneId,
  }).format(epochMs)
}

/** "Friday, November 27" and "6:01 PM" on the billboard's clock, as the language writes them. */
export function localDayAndTime(
  locale: Locale,
  epochMs: number,
  timeZoneId: string,
): { day: string; time: string } {
  return {
    day: new Intl.DateTimeFormat(LANGUAGE_TAGS[locale], {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: timeZoneId,
    }).format(epochMs),
    time: localTime(locale, epochMs, timeZoneId),
  }
}
