// What the billboard list shows of a device, apart from the modules that compute times (the location
// step is the flow's first screen and loads no Temporal polyfill).

import { countryName } from './country'

/**
 * spec §3: city plus stateAbbr, or country when there is no abbreviation, joined by a comma; the
 * country named in the reader's language when one is given ("Berlin, Allemagne").
 */
export function cityStateLabel(
  device: { city: string; stateAbbr?: string | null; country: string },
  locale?: string,
): string {
  const country = locale ? countryName(device.country, locale) : device.country
  return `${device.city}, ${device.stateAbbr || country}`
}
