import { describe, expect, it } from 'vitest'
import { countryCodeOf, countryName } from './country'
import { checkPhone, phoneExample } from './phone'

describe("a shopper's phone number, read in the billboard's country", () => {
  it.each([
    ['FR', '06 12 34 56 78', '+33612345678'],
    ['FR', '0612345678', '+33612345678'],
    ['DE', '0151 23456789', '+4915123456789'],
    ['GB', '07700 900123', '+447700900123'],
    ['US', '555-123-4567', '+15551234567'],
    ['US', '(555) 123-4567', '+15551234567'],
    // any international number, whatever the billboard's country
    ['FR', '+49 151 23456789', '+4915123456789'],
    ['DE', '+33 6 12 34 56 78', '+33612345678'],
    ['US', '+44 7700 900123', '+447700900123'],
    // a country nobody could read: the US's national forms, and international ones
    [null, '555-123-4567', '+15551234567'],
    [null, '+33 6 12 34 56 78', '+33612345678'],
  ])('in %s takes %j and keeps %s', (country, typed, e164) => {
    expect(checkPhone(typed, country)).toEqual({ ok: true, e164 })
  })

  it.each([
    ['FR', '06 12 34 56'],
    ['FR', '555-123-4567'],
    ['DE', '0151'],
    ['GB', '+44 7700'],
    ['FR', 'call me'],
  ])("in %s refuses %j with the country's example", (country, typed) => {
    const check = checkPhone(typed, country)
    expect(check).toEqual({
      ok: false,
      problem: { code: 'phone_invalid_for_country', params: { example: phoneExample(country) } },
    })
  })

  it("keeps the spec's sentence (XXX-XXX-XXXX) for US billboards and unknown countries", () => {
    expect(checkPhone('12345', 'US')).toEqual({ ok: false, problem: { code: 'phone_invalid' } })
    expect(checkPhone('06 12', null)).toEqual({ ok: false, problem: { code: 'phone_invalid' } })
  })

  it('gives a mobile example as people of the country write it', () => {
    expect(phoneExample('FR')).toBe('06 12 34 56 78')
    expect(phoneExample('DE')).toMatch(/^01\d{3} \d+$/)
    expect(phoneExample('GB')).toMatch(/^07\d{3} \d{6}$/)
    expect(phoneExample('US')).toBe('555-123-4567')
    expect(phoneExample(null)).toBe('555-123-4567')
  })
})

describe('a billboard country, as the catalogue writes it', () => {
  it.each([
    ['France', 'FR'],
    ['Germany', 'DE'],
    ['United Kingdom', 'GB'],
    ['UK', 'GB'],
    ['United States', 'US'],
    ['USA', 'US'],
    ['fr', 'FR'],
    [' united   kingdom ', 'GB'],
    ['Atlantis', null],
    ['', null],
  ])('reads %j as %s', (country, code) => {
    expect(countryCodeOf(country)).toBe(code)
  })

  it("is named in the shopper's language, or as written when unknown", () => {
    expect(countryName('Germany', 'fr')).toBe('Allemagne')
    expect(countryName('United Kingdom', 'de')).toBe('Vereinigtes Königreich')
    expect(countryName('USA', 'en')).toBe('United States')
    expect(countryName('Atlantis', 'fr')).toBe('Atlantis')
  })
})
