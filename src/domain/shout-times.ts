import { withCountryCode } from './country'
import { cityStateLabel as deviceCityStateLabel } from './device'
import type { EventTiming } from './event'
import { slotLabel, slotStartEpochMs } from './slots'

// spec §9: shout times are shown sorted as 'Mon dd @ label' in the current locale; French and German
// readers see their own way of joining a day and a time ('29 nov. à 08:00', '29. Nov., 08:00').

const INTL_LOCALES: Record<string, string> = { en: 'en-US', fr: 'fr-FR', de: 'de-DE' }
const intlLocale = (locale: string): string =>
  INTL_LOCALES[locale.toLowerCase().split(/[-_]/)[0] ?? 'en'] ?? locale

// Building an Intl formatter costs far more than using one: keep one per locale and zone.
const formats = new Map<string, Intl.DateTimeFormat>()
function monthDayFormat(locale: string, timeZoneId: string): Intl.DateTimeFormat {
  const key = `${locale}|${timeZoneId}`
  let format = formats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      month: 'short',
      day: '2-digit',
      timeZone: timeZoneId,
    })
    formats.set(key, format)
  }
  return format
}

/** Between the day and the time: the spec's '@' in English, the language's own words elsewhere. */
const DAY_TIME_JOINS: Record<string, string> = { en: ' @ ', fr: ' à ', de: ', ' }
const dayTimeJoin = (locale: string): string =>
  DAY_TIME_JOINS[locale.toLowerCase().split(/[-_]/)[0] ?? 'en'] ?? ' @ '

/** 'May 07 @ 6:00 - 6:15pm' (en), '07 mai à 18:00 - 18:15' (fr), '07. Mai, 18:00 - 18:15' (de). */
export function shoutTimeLabel(
  event: EventTiming,
  timeZoneId: string,
  slotNumber: number,
  locale = 'en',
): string {
  const day = monthDayFormat(intlLocale(locale), timeZoneId).format(
    slotStartEpochMs(event, timeZoneId, slotNumber),
  )
  return `${day}${dayTimeJoin(locale)}${slotLabel(event, timeZoneId, slotNumber, locale)}`
}

/** Every selected shout time, in play order, labelled as above; a slot listed twice shows once. */
export function shoutTimesLabel(
  event: EventTiming,
  timeZoneId: string,
  slotNumbers: Iterable<number>,
  locale = 'en',
): string[] {
  return [...new Set(slotNumbers)]
    .sort((a, b) => a - b)
    .map((n) => shoutTimeLabel(event, timeZoneId, n, locale))
}

/**
 * spec §3 city label (device.ts), the country named in the reader's language whether or not the
 * device came with its code: the mails and the later steps, which may hold a device without it.
 */
export function cityStateLabel(
  device: { city: string; stateAbbr?: string | null; country: string; countryCode?: string | null },
  locale?: string,
): string {
  return deviceCityStateLabel(locale ? withCountryCode(device) : device, locale)
}
