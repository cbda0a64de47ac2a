import { describe, expect, it } from 'vitest'
import { cityStateLabel as deviceLabel } from './device'
import { cityStateLabel, shoutTimeLabel, shoutTimesLabel } from './shout-times'

const mothersDay = {
  startDateHourLocalInclusive: '2027-05-07_00',
  endDateHourLocalExclusive: '2027-05-10_00',
  slotWidthMS: 900_000,
}

describe("shout times as 'Mon dd @ label' (spec §9)", () => {
  it('labels one slot in English', () => {
    expect(shoutTimeLabel(mothersDay, 'America/New_York', 72)).toBe('May 07 @ 6:00 - 6:15pm')
  })
  it('sorts by play time and drops repeats', () => {
    expect(shoutTimesLabel(mothersDay, 'Europe/Paris', [170, 72, 0, 72])).toEqual([
      'May 07 @ 12:00 - 12:15am',
      'May 07 @ 6:00 - 6:15pm',
      'May 08 @ 6:30 - 6:45pm',
    ])
  })
  it('uses the current locale for month and clock', () => {
    expect(shoutTimesLabel(mothersDay, 'Europe/Paris', [72], 'fr')).toEqual([
      '07 mai à 18:00 - 18:15',
    ])
    expect(shoutTimesLabel(mothersDay, 'Europe/Paris', [72], 'de')).toEqual([
      '07. Mai, 18:00 - 18:15',
    ])
  })
  it('dates a slot by its local start in the device zone', () => {
    expect(shoutTimeLabel(mothersDay, 'Europe/Paris', 95)).toBe('May 07 @ 11:45 - 12:00am')
    expect(shoutTimeLabel(mothersDay, 'Europe/Paris', 96)).toBe('May 08 @ 12:00 - 12:15am')
  })
})

describe('cityStateLabel (spec §3)', () => {
  it('joins city and state abbreviation', () => {
    expect(cityStateLabel({ city: 'Austin', stateAbbr: 'TX', country: 'USA' })).toBe('Austin, TX')
  })
  it('uses the country when there is no abbreviation', () => {
    expect(cityStateLabel({ city: 'Paris', stateAbbr: null, country: 'France' })).toBe(
      'Paris, France',
    )
    expect(cityStateLabel({ city: 'Berlin', stateAbbr: '', country: 'Germany' })).toBe(
      'Berlin, Germany',
    )
  })
  it("names the country in the reader's language, from the catalogue's words or the code sent", () => {
    const berlin = { city: 'Berlin', stateAbbr: null, country: 'Germany' }
    expect(cityStateLabel(berlin, 'fr')).toBe('Berlin, Allemagne')
    expect(cityStateLabel({ ...berlin, countryCode: 'DE' }, 'fr')).toBe('Berlin, Allemagne')
    // the first screen's label (no reading of the words there): the code, else the words
    expect(deviceLabel({ ...berlin, countryCode: 'DE' }, 'de')).toBe('Berlin, Deutschland')
    expect(deviceLabel(berlin, 'fr')).toBe('Berlin, Germany')
  })
})

describe('shout times on a fall-back night', () => {
  const nyFall = {
    startDateHourLocalInclusive: '2027-11-06_00',
    endDateHourLocalExclusive: '2027-11-09_00',
    slotWidthMS: 900_000,
  }
  it('lists both 1:00am slots in play order', () => {
    expect(shoutTimesLabel(nyFall, 'America/New_York', [104, 100])).toEqual([
      'Nov 07 @ 1:00 - 1:15am',
      'Nov 07 @ 1:00 - 1:15am',
    ])
  })
})
