import { describe, expect, it } from 'vitest'
import { formatMoney, minorUnitDigits, parseAmount } from './money'

// Intl writes a narrow no-break space in French thousands and a no-break space before the symbol.
const NNBSP = '\u202f'
const NBSP = '\u00a0'

describe('formatMoney in English (spec §9: $ in front with a space, comma thousands, 2 decimals)', () => {
  it("shows USD as '$ 1,234.56'", () => {
    expect(formatMoney(123_456)).toBe('$ 1,234.56')
    expect(formatMoney(123_456, { currency: 'USD', locale: 'en' })).toBe('$ 1,234.56')
    expect(formatMoney(123_456, { locale: 'en-US' })).toBe('$ 1,234.56')
  })
  it('shows zero as $ 0.00 and small amounts with two decimals', () => {
    expect(formatMoney(0)).toBe('$ 0.00')
    expect(formatMoney(5)).toBe('$ 0.05')
    expect(formatMoney(4000)).toBe('$ 40.00')
  })
  it('groups millions', () => {
    expect(formatMoney(123_456_789)).toBe('$ 1,234,567.89')
  })
  it('puts the minus sign before the symbol', () => {
    expect(formatMoney(-1200)).toBe('-$ 12.00')
  })
  it('writes other currencies the same way with their symbol', () => {
    expect(formatMoney(123_456, { currency: 'EUR' })).toBe('€ 1,234.56')
    expect(formatMoney(123_456, { currency: 'GBP' })).toBe('£ 1,234.56')
    expect(formatMoney(123_456, { currency: 'CAD' })).toBe('CA$ 1,234.56')
  })
  it('respects currencies without minor units', () => {
    expect(minorUnitDigits('JPY')).toBe(0)
    expect(minorUnitDigits('USD')).toBe(2)
    expect(formatMoney(123_456, { currency: 'JPY' })).toBe('¥ 123,456')
  })
  it('never goes through float cents', () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER)).toBe('$ 90,071,992,547,409.91')
    expect(() => formatMoney(10.5)).toThrow('cents must be whole cents, got 10.5')
  })
})

describe('formatMoney in French and German (spec §9: their locale format through Intl)', () => {
  it('French euro', () => {
    expect(formatMoney(123_456, { currency: 'EUR', locale: 'fr' })).toBe(`1${NNBSP}234,56${NBSP}€`)
  })
  it('German euro', () => {
    expect(formatMoney(123_456, { currency: 'EUR', locale: 'de' })).toBe(`1.234,56${NBSP}€`)
  })
  it('French and German dollars', () => {
    expect(formatMoney(4000, { currency: 'USD', locale: 'fr' })).toBe(`40,00${NBSP}$US`)
    expect(formatMoney(4000, { currency: 'USD', locale: 'de-DE' })).toBe(`40,00${NBSP}$`)
  })
})

describe('an amount a person typed', () => {
  it('reads whole amounts, decimals with a point or a comma, and grouped thousands', () => {
    expect(parseAmount('500', 'EUR')).toBe(50_000)
    expect(parseAmount(' 12,5 ', 'EUR')).toBe(1_250)
    expect(parseAmount('1 250,50', 'EUR')).toBe(125_050)
    expect(parseAmount('1,250.50', 'USD')).toBe(125_050)
    expect(parseAmount('1.250', 'EUR')).toBe(125_000)
    expect(parseAmount('300', 'JPY')).toBe(300)
  })
  it('refuses what is no amount', () => {
    for (const typed of ['', 'abc', '-5', '12.3.4', '1,2,3', '5e3']) {
      expect(parseAmount(typed, 'EUR')).toBeNull()
    }
  })
})
