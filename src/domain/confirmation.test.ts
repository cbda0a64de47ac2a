import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import {
  CONFIRMATION_DAYS_BEFORE,
  confirmationCode,
  confirmationFor,
  instantConfirmationDays,
} from './confirmation'
import { slotStartEpochMs } from './slots'

const at = (iso: string) => Temporal.Instant.from(iso).epochMilliseconds
const NY = 'America/New_York'
const longEvent = {
  startDateHourLocalInclusive: '2027-05-01_00',
  endDateHourLocalExclusive: '2027-05-15_00',
  slotWidthMS: 900_000,
}
// presale from May 8 local midnight: slot 7 × 96 = 672
const presale = slotStartEpochMs(longEvent, NY, 672)

describe('confirmationFor (spec §9)', () => {
  it('is instant without a minimum presale slot', () => {
    expect(
      confirmationFor({
        event: longEvent,
        timeZoneId: NY,
        slotNumbers: [900],
        minPresaleSlotEpochMs: null,
      }),
    ).toEqual({ instant: true })
  })
  it('is instant when every selected slot is before the presale slot', () => {
    expect(
      confirmationFor({
        event: longEvent,
        timeZoneId: NY,
        slotNumbers: [0, 671],
        minPresaleSlotEpochMs: presale,
      }),
    ).toEqual({ instant: true })
  })
  it('a slot at the presale slot is not instant: 3 days before its date', () => {
    expect(
      confirmationFor({
        event: longEvent,
        timeZoneId: NY,
        slotNumbers: [672],
        minPresaleSlotEpochMs: presale,
      }),
    ).toEqual({ instant: false, confirmationDateEpochMs: at('2027-05-05T00:00:00-04:00'), days: 3 })
  })
  it('uses the earliest selected slot at or after the presale slot', () => {
    const result = confirmationFor({
      event: longEvent,
      timeZoneId: NY,
      slotNumbers: [1100, 10, 800, 671],
      minPresaleSlotEpochMs: presale,
    })
    // slot 800 → day index 8 → May 9 → confirmed May 6
    expect(result).toEqual({
      instant: false,
      confirmationDateEpochMs: at('2027-05-06T00:00:00-04:00'),
      days: CONFIRMATION_DAYS_BEFORE,
    })
  })
  it('dates slots by event start plus floor(slotNumber / shouts per day) days', () => {
    const result = confirmationFor({
      event: longEvent,
      timeZoneId: NY,
      slotNumbers: [767], // last slot of day index 7 (May 8, 11:45pm)
      minPresaleSlotEpochMs: presale,
    })
    expect(result.instant === false && result.confirmationDateEpochMs).toBe(
      at('2027-05-05T00:00:00-04:00'),
    )
  })
})

describe('confirmation texts', () => {
  it('confirmation code is the first 8 characters of the order guid (spec §3)', () => {
    expect(confirmationCode('3f2b9c1d-7e4a-4b5c-9d8e-1a2b3c4d5e6f')).toBe('3f2b9c1d')
    expect(confirmationCode('abc')).toBe('abc')
  })
  it('instant confirmation covers the whole days until the presale slot (spec §9)', () => {
    const now = at('2027-04-20T12:00:00Z')
    expect(instantConfirmationDays(now, at('2027-04-30T11:59:59Z'))).toBe(9)
    expect(instantConfirmationDays(now, at('2027-04-30T12:00:00Z'))).toBe(10)
    expect(instantConfirmationDays(now, now - 1)).toBe(0)
    expect(instantConfirmationDays(now, null)).toBeNull()
  })
})

describe('confirmation dates across daylight saving', () => {
  const paris = 'Europe/Paris'
  const springEvent = {
    startDateHourLocalInclusive: '2027-03-20_00',
    endDateHourLocalExclusive: '2027-04-05_00',
    slotWidthMS: 900_000,
  }
  it('counts calendar days, so the date stays at local midnight after the clocks change', () => {
    // day index 10 → March 30 (after the March 28 change) → confirmed March 27, before it
    const slot = 10 * 96
    const result = confirmationFor({
      event: springEvent,
      timeZoneId: paris,
      slotNumbers: [slot],
      minPresaleSlotEpochMs: slotStartEpochMs(springEvent, paris, 0),
    })
    expect(result.instant === false && result.confirmationDateEpochMs).toBe(
      at('2027-03-27T00:00:00+01:00'),
    )
  })
})
