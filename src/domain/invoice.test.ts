import { describe, expect, it } from 'vitest'
import {
  billingProblems,
  invoiceNumberLabel,
  splitGross,
  vatNumberFits,
  vatRateBasisPoints,
  vatTreatment,
} from './invoice'

const SELLER = { country: 'FR', vatRateBasisPoints: 2000 }

describe('a VAT number checked for its country', () => {
  it('takes an EU number of its country’s shape, spaces and dots as people type them', () => {
    expect(vatNumberFits('FR', 'FR 40 303 265 045')).toBe(true)
    expect(vatNumberFits('DE', 'de136695976')).toBe(true)
    expect(vatNumberFits('NL', 'NL123456789B01')).toBe(true)
    expect(vatNumberFits('GR', 'EL123456789')).toBe(true)
    expect(vatNumberFits('AT', 'ATU12345678')).toBe(true)
  })
  it('refuses an EU number of another country or of the wrong shape', () => {
    expect(vatNumberFits('DE', 'FR40303265045')).toBe(false)
    expect(vatNumberFits('DE', 'DE12345')).toBe(false)
    expect(vatNumberFits('GR', 'GR123456789')).toBe(false)
  })
  it('takes any tax number outside the EU, and none at all', () => {
    expect(vatNumberFits('CH', 'CHE123456789')).toBe(true)
    expect(
      billingProblems({ legalName: 'A', address: 'B', country: 'US', vatNumber: null }),
    ).toEqual([])
  })
  it('names the field’s fault', () => {
    expect(
      billingProblems({ legalName: 'A', address: 'B', country: 'DE', vatNumber: 'DE1' }),
    ).toEqual([{ code: 'vat_number_invalid', params: { country: 'DE' } }])
    expect(
      billingProblems({ legalName: 'A', address: 'B', country: 'de', vatNumber: null }),
    ).toEqual([{ code: 'country_unknown' }])
  })
})

describe('the VAT of a charge by where the buyer is', () => {
  it('charges the seller’s rate in the seller’s country, VAT number or not', () => {
    expect(vatTreatment(SELLER, { country: 'FR', vatNumber: 'FR40303265045' })).toEqual({
      rateBasisPoints: 2000,
      exemption: null,
    })
    expect(vatTreatment(SELLER, null)).toEqual({ rateBasisPoints: 2000, exemption: null })
  })
  it('reverse-charges an EU business of another member state', () => {
    expect(vatTreatment(SELLER, { country: 'DE', vatNumber: 'DE136695976' })).toEqual({
      rateBasisPoints: 0,
      exemption: 'reverse_charge',
    })
  })
  it('charges the seller’s rate to an EU buyer without a VAT number', () => {
    expect(vatTreatment(SELLER, { country: 'DE', vatNumber: null }).rateBasisPoints).toBe(2000)
  })
  it('charges no EU VAT outside the EU', () => {
    expect(vatTreatment(SELLER, { country: 'US', vatNumber: null })).toEqual({
      rateBasisPoints: 0,
      exemption: 'outside_eu',
    })
  })
})

describe('net and VAT out of a charge, in cents', () => {
  it('takes the VAT out of the gross, net + VAT = gross to the cent', () => {
    expect(splitGross(12_000, 2000)).toEqual({
      netCents: 10_000,
      vatCents: 2_000,
      grossCents: 12_000,
    })
    // 1000 / 1.2 = 833.33… → 833
    expect(splitGross(1_000, 2000)).toEqual({ netCents: 833, vatCents: 167, grossCents: 1_000 })
    // 5 / 1.2 = 4.1666 → 4; 3 / 1.2 = 2.5 → 3 (half away from zero)
    expect(splitGross(3, 2000)).toEqual({ netCents: 3, vatCents: 0, grossCents: 3 })
    expect(splitGross(0, 2000)).toEqual({ netCents: 0, vatCents: 0, grossCents: 0 })
  })
  it('splits a credit note as the mirror of its invoice', () => {
    const invoice = splitGross(1_000, 1900)
    expect(splitGross(-1_000, 1900)).toEqual({
      netCents: -invoice.netCents,
      vatCents: -invoice.vatCents,
      grossCents: -1_000,
    })
  })
  it('leaves the gross whole without VAT', () => {
    expect(splitGross(4_321, 0)).toEqual({ netCents: 4_321, vatCents: 0, grossCents: 4_321 })
  })
  it('reads rates as people write them', () => {
    expect(vatRateBasisPoints('20')).toBe(2000)
    expect(vatRateBasisPoints('5.5')).toBe(550)
    expect(vatRateBasisPoints('twenty')).toBeNull()
  })
  it('prints numbers on six digits after the prefix', () => {
    expect(invoiceNumberLabel('SH-2026-', 42)).toBe('SH-2026-000042')
  })
})
