import {
  type CountryCode,
  getExampleNumber,
  isSupportedCountry,
  type PhoneNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/min'
import examples from 'libphonenumber-js/mobile/examples'
import type { DomainProblem } from './problems'

// spec §5: a shopper's phone number, read in the billboard's country. The national forms of that
// country ("06 12 34 56 78" in France, "0151 23456789" in Germany, "555-123-4567" in the US) and any
// international number ("+44 7700 900123") are taken and kept in E.164 ("+33612345678"). The check is
// libphonenumber's minimal metadata: a number of an assigned range, or one of a mobile number's
// length (the spec's own example, 555, and the UK's drama numbers, 07700 900xxx, are never assigned).
// The server reads every order's number with this rule (the answer it keeps); the checkout step
// reads it too, to say so beside the field before the order is sent. This module is loaded by the
// checkout step's chunk only (the metadata weighs about 20 KB compressed).

/** spec §5: the example the spec gives (US billboards keep the spec's sentence and example). */
export const SPEC_PHONE_EXAMPLE = '555-123-4567'

const phoneCountry = (countryCode: string | null): CountryCode | undefined =>
  countryCode && isSupportedCountry(countryCode) ? countryCode : undefined

/** The spec's sentence for US billboards and where the country is unknown; an example elsewhere. */
const usesSpecSentence = (country: CountryCode | undefined) => !country || country === 'US'

/**
 * A mobile number of the country as its people write it ("06 12 34 56 78"), the spec's
 * 555-123-4567 for the US and where the country is unknown.
 */
export function phoneExample(countryCode: string | null): string {
  const country = phoneCountry(countryCode)
  if (!country || usesSpecSentence(country)) return SPEC_PHONE_EXAMPLE
  return getExampleNumber(country, examples)?.formatNational() ?? SPEC_PHONE_EXAMPLE
}

/**
 * A number of an unassigned range passes when it is as long as a mobile number of its country
 * (the spec's 555-123-4567, the UK's drama 07700 900123); a short one ("0151" in Germany, which
 * some local exchanges could dial) is no number a shopper can be reached at.
 */
function longEnough(number: PhoneNumber): boolean {
  const example = number.country ? getExampleNumber(number.country, examples) : undefined
  return number.nationalNumber.length >= (example?.nationalNumber.length ?? 8)
}

export type PhoneCheck = { ok: true; e164: string } | { ok: false; problem: DomainProblem }

/**
 * A phone number as typed, read in a billboard's country (ISO code, country.ts countryCodeOf; the
 * US's national forms where it is unknown):
 * its E.164 form, or the problem to show beside the field.
 */
export function checkPhone(value: string, countryCode: string | null): PhoneCheck {
  const country = phoneCountry(countryCode)
  const text = value.trim()
  // only the characters people write numbers with: a letter is no phone number (parsers read
  // "1-800-FLOWERS" and "ext."; a shopper's number has neither)
  const number = /^\+?[\d\s().\-/]{2,40}$/.test(text)
    ? parsePhoneNumberFromString(text, { defaultCountry: country ?? 'US' })
    : undefined
  if (number && (number.isValid() || (number.isPossible() && longEnough(number)))) {
    return { ok: true, e164: number.number }
  }
  return {
    ok: false,
    problem: usesSpecSentence(country)
      ? { code: 'phone_invalid' }
      : { code: 'phone_invalid_for_country', params: { example: phoneExample(countryCode) } },
  }
}
