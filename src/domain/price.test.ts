import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_VALUE_CENTS_PER_SLOT, discountCents, priceOrder, promoKind } from './price'

const collect = () => {
  const lines: string[] = []
  return { lines, log: (line: string) => lines.push(line) }
}

describe('discountCents (spec §5)', () => {
  it('no promo, no discount', () => {
    expect(discountCents(12_000, null)).toBe(0)
  })
  it('a fixed centsOffTotal is taken as is', () => {
    expect(discountCents(12_000, { promoCode: 'TEN', centsOffTotal: 1000 })).toBe(1000)
  })
  it('centsOffTotal wins over percentOffTotal', () => {
    const both = { promoCode: 'BOTH', centsOffTotal: 500, percentOffTotal: 50 }
    expect(promoKind(both)).toBe('centsOff')
    expect(discountCents(12_000, both)).toBe(500)
  })
  it('percentOffTotal is a share of the subtotal, floored to whole cents', () => {
    expect(discountCents(12_000, { promoCode: 'P10', percentOffTotal: 10 })).toBe(1200)
    expect(discountCents(4_000, { promoCode: 'P33', percentOffTotal: 33 })).toBe(1320)
    // 12.5% of 3999 is 499.875: floored, never rounded up
    expect(discountCents(3_999, { promoCode: 'P125', percentOffTotal: 12.5 })).toBe(499)
    expect(discountCents(1, { promoCode: 'P99', percentOffTotal: 99 })).toBe(0)
  })
  it('a null centsOffTotal falls through to percentOffTotal', () => {
    const promo = { promoCode: 'X', centsOffTotal: null, percentOffTotal: 25 }
    expect(promoKind(promo)).toBe('percentOff')
    expect(discountCents(8_000, promo)).toBe(2000)
  })
  it('an unknown promo type gives 0 and is logged with its code', () => {
    const { lines, log } = collect()
    expect(promoKind({ promoCode: 'ODD' })).toBe('unknown')
    expect(discountCents(8_000, { promoCode: 'ODD' }, log)).toBe(0)
    expect(lines).toEqual(['Unhandled promo type for promo code ODD: no discount applied'])
  })
  describe('default logger', () => {
    afterEach(() => vi.restoreAllMocks())
    it('writes the unknown promo to console.warn', () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      expect(discountCents(8_000, { promoCode: 'ODD' })).toBe(0)
      expect(warn).toHaveBeenCalledWith(
        'Unhandled promo type for promo code ODD: no discount applied',
      )
    })
  })
  it('refuses fractional cents', () => {
    expect(() => discountCents(10.5, null)).toThrow('subtotalCents must be whole cents, got 10.5')
  })
})

describe('priceOrder (spec §5 and §9)', () => {
  it('uses 4000 cents per slot when no value is given', () => {
    expect(DEFAULT_VALUE_CENTS_PER_SLOT).toBe(4000)
    expect(priceOrder({ slotCount: 3 })).toEqual({
      subtotalCents: 12_000,
      discountCents: 0,
      totalCents: 12_000,
      paymentRequired: true,
      firstShoutFree: false,
    })
    expect(priceOrder({ slotCount: 3, valueCentsPerSlot: null }).subtotalCents).toBe(12_000)
  })
  it('uses the event value per slot', () => {
    expect(priceOrder({ slotCount: 2, valueCentsPerSlot: 2500 }).subtotalCents).toBe(5000)
  })
  it('takes the discount off the subtotal', () => {
    const price = priceOrder({ slotCount: 3, promo: { promoCode: 'P10', percentOffTotal: 10 } })
    expect(price.discountCents).toBe(1200)
    expect(price.totalCents).toBe(10_800)
    expect(price.paymentRequired).toBe(true)
  })
  it('floors the total at 0 and never takes off more than the subtotal', () => {
    const price = priceOrder({ slotCount: 1, promo: { promoCode: 'BIG', centsOffTotal: 10_000 } })
    expect(price.totalCents).toBe(0)
    expect(price.discountCents).toBe(4000)
    expect(price.paymentRequired).toBe(false)
  })
  it('payment is required only when the total is above 0', () => {
    const exact = priceOrder({ slotCount: 2, promo: { promoCode: 'E', centsOffTotal: 8000 } })
    expect(exact.totalCents).toBe(0)
    expect(exact.paymentRequired).toBe(false)
    const oneCent = priceOrder({ slotCount: 2, promo: { promoCode: 'E', centsOffTotal: 7999 } })
    expect(oneCent.totalCents).toBe(1)
    expect(oneCent.paymentRequired).toBe(true)
    expect(priceOrder({ slotCount: 0 }).paymentRequired).toBe(false)
  })
  it('the first shout is free when one slot with the promo costs 0', () => {
    const firstFree = { promoCode: 'FIRSTFREE', centsOffTotal: 4000 }
    const price = priceOrder({ slotCount: 3, promo: firstFree })
    expect(price.firstShoutFree).toBe(true)
    expect(price.totalCents).toBe(8000)
    expect(
      priceOrder({ slotCount: 3, promo: { promoCode: 'HALF', centsOffTotal: 2000 } })
        .firstShoutFree,
    ).toBe(false)
    expect(
      priceOrder({ slotCount: 3, promo: { promoCode: 'ALL', percentOffTotal: 100 } })
        .firstShoutFree,
    ).toBe(true)
    expect(priceOrder({ slotCount: 3 }).firstShoutFree).toBe(false)
  })
  it('logs an unknown promo once and charges the full price', () => {
    const { lines, log } = collect()
    const price = priceOrder({ slotCount: 2, promo: { promoCode: 'ODD' }, log })
    expect(price.totalCents).toBe(8000)
    expect(price.firstShoutFree).toBe(false)
    expect(lines).toHaveLength(1)
  })
  it('refuses a negative or fractional slot count and fractional prices', () => {
    expect(() => priceOrder({ slotCount: -1 })).toThrow(RangeError)
    expect(() => priceOrder({ slotCount: 1.5 })).toThrow(RangeError)
    expect(() => priceOrder({ slotCount: 1, valueCentsPerSlot: 39.99 })).toThrow(
      'valueCentsPerSlot must be whole cents, got 39.99',
    )
  })
})
