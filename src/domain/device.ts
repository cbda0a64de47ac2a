// What the billboard list shows of a device, apart from the modules that compute times (the location
// step is the flow's first screen and loads no Temporal polyfill), and without the reading of a
// country's name as the catalogue writes it (country.ts): the server sends its code with the device.

type Place = {
  city: string
  stateAbbr?: string | null
  country: string
  countryCode?: string | null
}

/** A region's name in a language ("Allemagne" for DE in French), or null when Intl has none. */
export function regionName(code: string, locale: string): string | null {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' }).of(code)
    return name && name !== code ? name : null
  } catch {
    return null
  }
}

/**
 * spec §3: city plus stateAbbr, or country when there is no abbreviation, joined by a comma; the
 * country named in the reader's language when a locale is given and the device carries the
 * country's code ("Berlin, Allemagne"); else as the catalogue writes it.
 */
export function cityStateLabel(device: Place, locale?: string): string {
  const named = locale && device.countryCode ? regionName(device.countryCode, locale) : null
  return `${device.city}, ${device.stateAbbr || named || device.country}`
}
