// A billboard's country is written in the catalogue as people write it ("France", "United Kingdom",
// "USA") or as its ISO 3166 code ("FR"). The rules that depend on the country (phone numbers) and the
// words that name it in the shopper's language need the code: it is read here, once.

import { regionName } from './device'

const ALIASES: Readonly<Record<string, string>> = {
  usa: 'US',
  'united states of america': 'US',
  america: 'US',
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  holland: 'NL',
  deutschland: 'DE',
  españa: 'ES',
  italia: 'IT',
  schweiz: 'CH',
  suisse: 'CH',
  österreich: 'AT',
  belgique: 'BE',
  belgië: 'BE',
}

const key = (name: string) => name.trim().toLowerCase().replace(/\s+/g, ' ')

let namesToCodes: Map<string, string> | null = null

/**
 * Every region's English name (Intl's), lower case, to its code: built once, on first use (under a
 * millisecond: only a name met twice asks which of its codes is today's, DD or DE, FX or FR).
 */
function englishNames(): Map<string, string> {
  if (namesToCodes) return namesToCodes
  const names = new Map<string, string>()
  const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })
  const current = (code: string) => Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`
  const A = 'A'.charCodeAt(0)
  for (let i = 0; i < 26; i++) {
    for (let j = 0; j < 26; j++) {
      const code = String.fromCharCode(A + i, A + j)
      const name = display.of(code)
      if (!name || name === code) continue
      const seen = names.get(key(name))
      // an old code (DD, FX, UK) canonicalises to today's (DE, FR, GB): today's names the country
      if (seen === undefined || (!current(seen) && current(code))) names.set(key(name), code)
    }
  }
  namesToCodes = names
  return names
}

/**
 * The ISO 3166-1 alpha-2 code of a country as the catalogue writes it ("France", "fr", "USA",
 * "United Kingdom"), or null when the name is no country Intl or the aliases know.
 */
export function countryCodeOf(country: string): string | null {
  const name = key(country)
  if (!name) return null
  if (/^[a-z]{2}$/.test(name)) {
    const english = regionName(name.toUpperCase(), 'en')
    return english ? (englishNames().get(key(english)) ?? null) : null
  }
  return ALIASES[name] ?? englishNames().get(name) ?? null
}

/**
 * The country's name in a language ("Allemagne" for "Germany" in French), as Intl.DisplayNames
 * writes it; the catalogue's own words when the country has no code Intl knows.
 */
export function countryName(country: string, locale: string): string {
  const code = countryCodeOf(country)
  return (code && regionName(code, locale)) || country
}

/** A device with its country's code read from the catalogue's words (null: none known). */
export function withCountryCode<T extends { country: string; countryCode?: string | null }>(
  device: T,
): T & { countryCode: string | null } {
  return { ...device, countryCode: device.countryCode ?? countryCodeOf(device.country) }
}
