import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import { RuleError } from './problems'
import {
  availabilityWindow,
  bandOfHour,
  firstPurchasableEpochMs,
  isPurchasable,
  isSlotNumberOfEvent,
  meetsRecommendedMinimum,
  openSlotNumbers,
  PURCHASE_CUTOFF_HOURS,
  purchaseDeadlineEpochMs,
  RECOMMENDED_MIN_SLOTS,
  slotDate,
  slotDayIndex,
  slotEndEpochMs,
  slotLabel,
  slotLocalDate,
  slotNumberAt,
  slotStartEpochMs,
  slotsOfDay,
  slotZoneNote,
  TIME_OF_DAY_BANDS,
  timeOfDayBand,
} from './slots'

const at = (iso: string) => Temporal.Instant.from(iso).epochMilliseconds
const NY = 'America/New_York'
const PARIS = 'Europe/Paris'
const event = (start: string, end: string, slotWidthMS = 900_000) => ({
  startDateHourLocalInclusive: start,
  endDateHourLocalExclusive: end,
  slotWidthMS,
})
const mothersDay = event('2027-05-07_00', '2027-05-10_00')
const labels = (e: typeof mothersDay, zone: string, numbers: number[], locale = 'en') =>
  numbers.map((n) => slotLabel(e, zone, n, locale))

describe('slotNumberAt (spec §3 slot index)', () => {
  it('is 0 at the start instant and counts in slot widths', () => {
    expect(slotNumberAt(mothersDay, PARIS, at('2027-05-06T22:00:00Z'))).toBe(0)
    expect(slotNumberAt(mothersDay, PARIS, at('2027-05-06T22:14:59.999Z'))).toBe(0)
    expect(slotNumberAt(mothersDay, PARIS, at('2027-05-06T22:15:00Z'))).toBe(1)
    expect(slotNumberAt(mothersDay, PARIS, at('2027-05-07T16:00:00Z'))).toBe(72) // 18:00 Paris
  })
  it('is null before the start and from the end on', () => {
    expect(slotNumberAt(mothersDay, PARIS, at('2027-05-06T21:59:59.999Z'))).toBeNull()
    expect(slotNumberAt(mothersDay, PARIS, at('2027-05-09T21:59:59.999Z'))).toBe(287)
    expect(slotNumberAt(mothersDay, PARIS, at('2027-05-09T22:00:00Z'))).toBeNull()
  })
  it('depends on the device time zone: 16:00Z is 6pm in Paris, noon in New York', () => {
    expect(slotNumberAt(mothersDay, NY, at('2027-05-07T16:00:00Z'))).toBe(48)
    expect(slotNumberAt(mothersDay, NY, at('2027-05-07T02:00:00Z'))).toBeNull()
  })
  it('ignores a trailing part-slot shorter than the slot width', () => {
    const sevenHours = event('2027-05-07_00', '2027-05-08_00', 7 * 3_600_000)
    expect(slotNumberAt(sevenHours, PARIS, at('2027-05-07T18:59:00Z'))).toBe(2)
    expect(slotNumberAt(sevenHours, PARIS, at('2027-05-07T19:00:00Z'))).toBeNull()
  })
})

describe('slot start and end instants', () => {
  it('turn a slot number back into its instants', () => {
    expect(slotStartEpochMs(mothersDay, PARIS, 72)).toBe(at('2027-05-07T16:00:00Z'))
    expect(slotEndEpochMs(mothersDay, PARIS, 72)).toBe(at('2027-05-07T16:15:00Z'))
    expect(slotStartEpochMs(mothersDay, NY, 0)).toBe(at('2027-05-07T04:00:00Z'))
  })
  it('round-trips every slot of the event', () => {
    for (let n = 0; n < 288; n++) {
      if (slotNumberAt(mothersDay, NY, slotStartEpochMs(mothersDay, NY, n)) !== n) {
        expect.fail(`slot ${n} does not round-trip`)
      }
    }
    expect(slotNumberAt(mothersDay, NY, slotEndEpochMs(mothersDay, NY, 287))).toBeNull()
  })
  it('refuses slot numbers outside the event', () => {
    expect(() => slotStartEpochMs(mothersDay, PARIS, 288)).toThrow('slot_not_in_event {"slot":288}')
    expect(() => slotStartEpochMs(mothersDay, PARIS, -1)).toThrow(RuleError)
    expect(() => slotLabel(mothersDay, PARIS, 1.5)).toThrow('slot_not_in_event {"slot":1.5}')
    expect(isSlotNumberOfEvent(mothersDay, PARIS, 287)).toBe(true)
    expect(isSlotNumberOfEvent(mothersDay, PARIS, 288)).toBe(false)
  })
})

describe('slotLabel (spec §3: lowercase h:mm - h:mma)', () => {
  it("reads '6:00 - 6:15pm' for the 6pm slot", () => {
    expect(slotLabel(mothersDay, PARIS, 72)).toBe('6:00 - 6:15pm')
    expect(slotLabel(mothersDay, NY, 72)).toBe('6:00 - 6:15pm')
  })
  it('handles midnight, noon and the last slot of the day', () => {
    expect(labels(mothersDay, PARIS, [0, 3, 47, 48, 95])).toEqual([
      '12:00 - 12:15am',
      '12:45 - 1:00am',
      '11:45 - 12:00pm',
      '12:00 - 12:15pm',
      '11:45 - 12:00am',
    ])
  })
  it('uses a 24-hour clock in French and German', () => {
    expect(slotLabel(mothersDay, PARIS, 72, 'fr')).toBe('18:00 - 18:15')
    expect(slotLabel(mothersDay, PARIS, 0, 'de-DE')).toBe('00:00 - 00:15')
    expect(slotLabel(mothersDay, PARIS, 72, 'en-GB')).toBe('6:00 - 6:15pm')
  })
  it('labels hour-long slots', () => {
    const hourly = event('2027-05-07_00', '2027-05-08_00', 3_600_000)
    expect(slotLabel(hourly, NY, 13)).toBe('1:00 - 2:00pm')
  })
})

describe('slots across daylight saving: real wall-clock labels', () => {
  const nySpring = event('2027-03-13_00', '2027-03-16_00')
  const nyFall = event('2027-11-06_00', '2027-11-09_00')
  const parisSpring = event('2027-03-27_00', '2027-03-30_00')
  const parisFall = event('2027-10-30_00', '2027-11-02_00')

  it('New York spring forward: 1:45am is followed by 3:00am, 92 slots that day', () => {
    expect(labels(nySpring, NY, [102, 103, 104, 105])).toEqual([
      '1:30 - 1:45am',
      '1:45 - 3:00am',
      '3:00 - 3:15am',
      '3:15 - 3:30am',
    ])
    expect(slotsOfDay(nySpring, NY, '2027-03-14')).toHaveLength(92)
    expect(slotsOfDay(nySpring, NY, '2027-03-14')[0]).toBe(96)
    expect(slotsOfDay(nySpring, NY, '2027-03-15')[0]).toBe(188)
    expect(slotLabel(nySpring, NY, 188)).toBe('12:00 - 12:15am')
  })
  it('New York fall back: the 1:00-2:00am hour is shown twice, 100 slots that day', () => {
    expect(labels(nyFall, NY, [100, 103, 104, 107, 108])).toEqual([
      '1:00 - 1:15am',
      '1:45 - 1:00am',
      '1:00 - 1:15am',
      '1:45 - 2:00am',
      '2:00 - 2:15am',
    ])
    expect(slotsOfDay(nyFall, NY, '2027-11-07')).toHaveLength(100)
    expect(slotsOfDay(nyFall, NY, '2027-11-08')).toHaveLength(96)
    expect(slotsOfDay(nyFall, NY, '2027-11-08')[0]).toBe(196)
  })
  it('New York fall back: the two 1:30am instants are different slots', () => {
    expect(slotNumberAt(nyFall, NY, at('2027-11-07T01:30:00-04:00'))).toBe(102)
    expect(slotNumberAt(nyFall, NY, at('2027-11-07T01:30:00-05:00'))).toBe(106)
    expect(slotLabel(nyFall, NY, 102)).toBe(slotLabel(nyFall, NY, 106))
  })
  it('marks the ambiguous New York slots with their zone name, and only those', () => {
    expect(slotZoneNote(nyFall, NY, 100)).toBe('EDT')
    expect(slotZoneNote(nyFall, NY, 103)).toBe('EDT')
    expect(slotZoneNote(nyFall, NY, 104)).toBe('EST')
    expect(slotZoneNote(nyFall, NY, 107)).toBe('EST')
    expect(slotZoneNote(nyFall, NY, 99)).toBeNull()
    expect(slotZoneNote(nyFall, NY, 108)).toBeNull()
    expect(slotZoneNote(nySpring, NY, 103)).toBe('EST')
    expect(slotZoneNote(nySpring, NY, 104)).toBeNull()
  })
  it('Paris spring forward: 1:45am is followed by 3:00am, 92 slots that day', () => {
    expect(labels(parisSpring, PARIS, [103, 104])).toEqual(['1:45 - 3:00am', '3:00 - 3:15am'])
    expect(labels(parisSpring, PARIS, [103, 104], 'fr')).toEqual(['01:45 - 03:00', '03:00 - 03:15'])
    expect(slotsOfDay(parisSpring, PARIS, '2027-03-28')).toHaveLength(92)
    expect(
      slotStartEpochMs(parisSpring, PARIS, 104) - slotStartEpochMs(parisSpring, PARIS, 103),
    ).toBe(900_000)
  })
  it('Paris fall back: the 2:00-3:00am hour is shown twice, 100 slots that day', () => {
    expect(labels(parisFall, PARIS, [104, 107, 108, 111, 112])).toEqual([
      '2:00 - 2:15am',
      '2:45 - 2:00am',
      '2:00 - 2:15am',
      '2:45 - 3:00am',
      '3:00 - 3:15am',
    ])
    expect(labels(parisFall, PARIS, [107, 108], 'de')).toEqual(['02:45 - 02:00', '02:00 - 02:15'])
    expect(slotsOfDay(parisFall, PARIS, '2027-10-31')).toHaveLength(100)
    expect(slotZoneNote(parisFall, PARIS, 104)).toBe('GMT+2')
    expect(slotZoneNote(parisFall, PARIS, 108)).toBe('GMT+1')
  })
  it('evening slots after a change still read their local time', () => {
    expect(slotLabel(nySpring, NY, 96 + 68)).toBe('6:00 - 6:15pm') // 92-slot day: 18:00 is 68 after midnight
    expect(slotLabel(nyFall, NY, 96 + 76)).toBe('6:00 - 6:15pm') // 100-slot day: 76 after midnight
    expect(timeOfDayBand(nyFall, NY, 96 + 76)).toBe('Evening')
  })
})

describe('time-of-day bands (spec §3)', () => {
  it('lists the four bands in order', () => {
    expect(TIME_OF_DAY_BANDS.map((b) => b.label)).toEqual([
      'Early Morning',
      'Morning',
      'Afternoon',
      'Evening',
    ])
  })
  it('puts each boundary hour in the band it opens', () => {
    expect([0, 8, 9, 11, 12, 16, 17, 23].map(bandOfHour)).toEqual([
      'EarlyMorning',
      'EarlyMorning',
      'Morning',
      'Morning',
      'Afternoon',
      'Afternoon',
      'Evening',
      'Evening',
    ])
    expect(() => bandOfHour(24)).toThrow('bad_hour')
  })
  it('bands a slot by its local start time', () => {
    expect(timeOfDayBand(mothersDay, PARIS, 35)).toBe('EarlyMorning') // 8:45
    expect(timeOfDayBand(mothersDay, PARIS, 36)).toBe('Morning') // 9:00
    expect(timeOfDayBand(mothersDay, PARIS, 48)).toBe('Afternoon') // 12:00
    expect(timeOfDayBand(mothersDay, PARIS, 68)).toBe('Evening') // 17:00
  })
  it('bands the spring-forward morning by the real clock', () => {
    const nySpring = event('2027-03-13_00', '2027-03-16_00')
    expect(slotLabel(nySpring, NY, 127)).toBe('8:45 - 9:00am')
    expect(timeOfDayBand(nySpring, NY, 127)).toBe('EarlyMorning')
    expect(timeOfDayBand(nySpring, NY, 128)).toBe('Morning')
  })
})

describe('purchase cut-off (spec §5: 5 hours before play)', () => {
  const sixPm = at('2027-05-07T18:00:00-04:00')
  it('a 6:00pm play needs purchase by 1:00pm', () => {
    expect(PURCHASE_CUTOFF_HOURS).toBe(5)
    expect(purchaseDeadlineEpochMs(sixPm)).toBe(at('2027-05-07T13:00:00-04:00'))
    expect(isPurchasable(sixPm, at('2027-05-07T12:59:59-04:00'))).toBe(true)
    expect(isPurchasable(sixPm, at('2027-05-07T13:00:00-04:00'))).toBe(true)
    expect(isPurchasable(sixPm, at('2027-05-07T13:00:00.001-04:00'))).toBe(false)
  })
  it('counts 5 real hours across a change of clocks', () => {
    // 6:00am EDT on the spring-forward day is 5 real hours after 12:00am EST
    const sixAm = at('2027-03-14T06:00:00-04:00')
    expect(purchaseDeadlineEpochMs(sixAm)).toBe(at('2027-03-14T00:00:00-05:00'))
  })
  it('the first purchasable start is 5 hours after now', () => {
    expect(firstPurchasableEpochMs(at('2027-05-07T08:00:00Z'))).toBe(at('2027-05-07T13:00:00Z'))
  })
})

describe('recommended minimum (spec §5: a notice, not a block)', () => {
  it('recommends at least 2 slots', () => {
    expect(RECOMMENDED_MIN_SLOTS).toBe(2)
    expect(meetsRecommendedMinimum(1)).toBe(false)
    expect(meetsRecommendedMinimum(2)).toBe(true)
    expect(meetsRecommendedMinimum(0)).toBe(false)
  })
})

describe('openSlotNumbers (api-v1 slot search)', () => {
  const start = at('2027-05-06T22:00:00Z') // Paris midnight, May 7
  const query = {
    event: mothersDay,
    timeZoneId: PARIS,
    startEpochMs: start,
    endEpochMs: start + 2 * 3_600_000,
    nowEpochMs: start - 24 * 3_600_000,
    soldSlots: [] as number[],
  }
  it('lists the slots starting in [start, end)', () => {
    expect(openSlotNumbers(query)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })
  it('leaves out sold slots', () => {
    expect(openSlotNumbers({ ...query, soldSlots: new Set([1, 4]) })).toEqual([0, 2, 3, 5, 6, 7])
  })
  it('leaves out slots starting less than 5 hours from now', () => {
    const now = start - 4.5 * 3_600_000
    expect(openSlotNumbers({ ...query, nowEpochMs: now })).toEqual([2, 3, 4, 5, 6, 7])
    expect(openSlotNumbers({ ...query, nowEpochMs: start - 5 * 3_600_000 })[0]).toBe(0)
  })
  it('clips the range to the event', () => {
    expect(
      openSlotNumbers({ ...query, startEpochMs: start - 3_600_000, endEpochMs: start + 900_000 }),
    ).toEqual([0])
    const lastHour = at('2027-05-09T21:00:00Z')
    expect(
      openSlotNumbers({ ...query, startEpochMs: lastHour, endEpochMs: lastHour + 5 * 3_600_000 }),
    ).toEqual([284, 285, 286, 287])
  })
  it('counts a slot whose start is inside the range, not one that only overlaps it', () => {
    expect(
      openSlotNumbers({ ...query, startEpochMs: start + 60_000, endEpochMs: start + 900_001 }),
    ).toEqual([1])
  })
  it('is empty after the event or for an empty range', () => {
    expect(openSlotNumbers({ ...query, nowEpochMs: at('2027-05-10T00:00:00Z') })).toEqual([])
    expect(openSlotNumbers({ ...query, endEpochMs: start })).toEqual([])
  })
})

describe('availabilityWindow (api-v1 min/max available slot)', () => {
  it('the first buyable slot start and the last slot start', () => {
    const now = at('2027-05-07T08:05:00Z') // 10:05 Paris, cut-off 15:05 → the 15:15 slot
    expect(availabilityWindow(mothersDay, PARIS, now)).toEqual({
      minAvailableSlotEpochMs: at('2027-05-07T13:15:00Z'),
      maxAvailableSlotEpochMs: at('2027-05-09T21:45:00Z'),
    })
  })
  it('is the event start before sales close and null once nothing can be bought', () => {
    expect(availabilityWindow(mothersDay, PARIS, 0).minAvailableSlotEpochMs).toBe(
      at('2027-05-06T22:00:00Z'),
    )
    expect(
      availabilityWindow(mothersDay, PARIS, at('2027-05-09T17:00:00.001Z')).minAvailableSlotEpochMs,
    ).toBeNull()
  })
})

describe('slot dates (spec §9)', () => {
  it('the day index is floor(slotNumber / shouts per day)', () => {
    expect([0, 95, 96, 191, 192].map((n) => slotDayIndex(mothersDay, n))).toEqual([0, 0, 1, 1, 2])
  })
  it('the slot date is event start plus that many calendar days', () => {
    expect(slotDate(mothersDay, NY, 100).toString()).toBe(
      '2027-05-08T00:00:00-04:00[America/New_York]',
    )
  })
  it('the local date is the day the slot really starts on', () => {
    expect(slotLocalDate(mothersDay, NY, 95).toString()).toBe('2027-05-07')
    expect(slotLocalDate(mothersDay, NY, 96).toString()).toBe('2027-05-08')
  })
  it('slotsOfDay is empty for dates outside the event', () => {
    expect(slotsOfDay(mothersDay, PARIS, '2027-05-06')).toEqual([])
    expect(slotsOfDay(mothersDay, PARIS, Temporal.PlainDate.from('2027-05-10'))).toEqual([])
    expect(slotsOfDay(mothersDay, PARIS, '2027-05-09').at(-1)).toBe(287)
  })
})
