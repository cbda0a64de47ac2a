import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import { MISSED_AFTER_MS } from './ad-playout'
import { cappedCharge, dailyChargeKey, daysToCharge } from './ad-settlement'

const at = (iso: string) => Temporal.Instant.from(iso).epochMilliseconds
const zones: Record<string, string> = { paris: 'Europe/Paris', ny: 'America/New_York' }
const zoneOf = (id: string) => zones[id] ?? 'UTC'

describe('the daily charge of proven plays', () => {
  const plays = [
    { deviceId: 'paris', startEpochMs: at('2027-05-07T09:00:00+02:00'), costCents: 700 },
    { deviceId: 'paris', startEpochMs: at('2027-05-07T23:59:45+02:00'), costCents: 700 },
    { deviceId: 'ny', startEpochMs: at('2027-05-07T20:00:00-04:00'), costCents: 500 },
    { deviceId: 'paris', startEpochMs: at('2027-05-08T00:00:00+02:00'), costCents: 700 },
  ]

  it('counts each play in its billboard’s local day', () => {
    const later = at('2027-05-10T00:00:00Z')
    expect(daysToCharge(plays, zoneOf, later)).toEqual([
      { day: '2027-05-07', plays: plays.slice(0, 3), amountCents: 1_900 },
      { day: '2027-05-08', plays: plays.slice(3), amountCents: 700 },
    ])
  })

  it('charges a day only once it is over on every billboard and late proofs had time to come', () => {
    // over in Paris, not yet in New York
    const parisOver = at('2027-05-08T00:00:00+02:00') + MISSED_AFTER_MS
    expect(daysToCharge(plays, zoneOf, parisOver)).toEqual([])
    const nyOver = at('2027-05-08T00:00:00-04:00') + MISSED_AFTER_MS
    expect(daysToCharge(plays, zoneOf, nyOver - 1)).toEqual([])
    expect(daysToCharge(plays, zoneOf, nyOver).map((d) => d.day)).toEqual(['2027-05-07'])
  })

  it('never charges beyond what the budget leaves', () => {
    expect(cappedCharge(1_900, 10_000, 0)).toBe(1_900)
    expect(cappedCharge(1_900, 10_000, 9_000)).toBe(1_000)
    expect(cappedCharge(1_900, 10_000, 10_000)).toBe(0)
    expect(cappedCharge(1_900, 10_000, 12_000)).toBe(0)
  })

  it('keys a charge by campaign and day, the same on every attempt', () => {
    expect(dailyChargeKey('c1', '2027-05-07')).toBe(dailyChargeKey('c1', '2027-05-07'))
    expect(dailyChargeKey('c1', '2027-05-07')).not.toBe(dailyChargeKey('c1', '2027-05-08'))
    expect(dailyChargeKey('c1', '2027-05-07')).not.toBe(dailyChargeKey('c2', '2027-05-07'))
  })
})
