import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import {
  eventDates,
  eventDays,
  eventEnd,
  eventStart,
  eventWindowEpochMs,
  isDuringEvent,
  shoutsPerDay,
  slotDuration,
  slotsPerDevice,
} from './event'

const at = (iso: string) => Temporal.Instant.from(iso).epochMilliseconds
const mothersDay = {
  startDateHourLocalInclusive: '2027-05-07_00',
  endDateHourLocalExclusive: '2027-05-10_00',
  slotWidthMS: 900_000,
}

describe('event instants (spec §3: local to the device time zone)', () => {
  it('starts at local midnight in Paris and in New York, six hours apart', () => {
    expect(eventStart(mothersDay, 'Europe/Paris').toString()).toBe(
      '2027-05-07T00:00:00+02:00[Europe/Paris]',
    )
    expect(eventStart(mothersDay, 'America/New_York').toString()).toBe(
      '2027-05-07T00:00:00-04:00[America/New_York]',
    )
    expect(
      eventStart(mothersDay, 'America/New_York').epochMilliseconds -
        eventStart(mothersDay, 'Europe/Paris').epochMilliseconds,
    ).toBe(6 * 3_600_000)
  })
  it('gives the window in epoch milliseconds, end exclusive', () => {
    expect(eventWindowEpochMs(mothersDay, 'Europe/Paris')).toEqual({
      startEpochMs: at('2027-05-06T22:00:00Z'),
      endEpochMs: at('2027-05-09T22:00:00Z'),
    })
    expect(eventEnd(mothersDay, 'America/New_York').epochMilliseconds).toBe(
      at('2027-05-10T04:00:00Z'),
    )
  })
  it('is during the event from start inclusive to end exclusive', () => {
    expect(isDuringEvent(mothersDay, 'Europe/Paris', at('2027-05-06T22:00:00Z'))).toBe(true)
    expect(isDuringEvent(mothersDay, 'Europe/Paris', at('2027-05-06T21:59:59.999Z'))).toBe(false)
    expect(isDuringEvent(mothersDay, 'Europe/Paris', at('2027-05-09T21:59:59.999Z'))).toBe(true)
    expect(isDuringEvent(mothersDay, 'Europe/Paris', at('2027-05-09T22:00:00Z'))).toBe(false)
  })
  it('moves a start hour skipped by spring forward to the first real instant', () => {
    const skipped = { ...mothersDay, startDateHourLocalInclusive: '2027-03-14_02' }
    expect(eventStart(skipped, 'America/New_York').toString()).toBe(
      '2027-03-14T03:00:00-04:00[America/New_York]',
    )
  })
})

describe('derived event figures (spec §3)', () => {
  it('slot duration is the slot width', () => {
    expect(slotDuration(mothersDay).toString()).toBe('PT15M')
    expect(slotDuration({ slotWidthMS: 3_600_000 }).toString()).toBe('PT1H')
  })
  it('shouts per day: a day divided by the slot width, rounded down', () => {
    expect(shoutsPerDay(mothersDay)).toBe(96)
    expect(shoutsPerDay({ slotWidthMS: 3_600_000 })).toBe(24)
    expect(shoutsPerDay({ slotWidthMS: 7 * 3_600_000 })).toBe(3)
  })
  it('event days: rounded up', () => {
    expect(eventDays(mothersDay, 'Europe/Paris')).toBe(3)
    const partDay = { ...mothersDay, endDateHourLocalExclusive: '2027-05-10_06' }
    expect(eventDays(partDay, 'Europe/Paris')).toBe(4)
    const oneHour = { ...mothersDay, endDateHourLocalExclusive: '2027-05-07_01' }
    expect(eventDays(oneHour, 'Europe/Paris')).toBe(1)
  })
  it('slots per device: event duration divided by slot width, rounded down', () => {
    expect(slotsPerDevice(mothersDay, 'Europe/Paris')).toBe(288)
    const hourly = { ...mothersDay, slotWidthMS: 7 * 3_600_000 }
    expect(slotsPerDevice(hourly, 'Europe/Paris')).toBe(10)
  })
  it('lists the local dates the event covers', () => {
    expect(eventDates(mothersDay, 'Europe/Paris').map(String)).toEqual([
      '2027-05-07',
      '2027-05-08',
      '2027-05-09',
    ])
  })
})

describe('events across daylight-saving changes', () => {
  const nySpring = {
    startDateHourLocalInclusive: '2027-03-13_00',
    endDateHourLocalExclusive: '2027-03-16_00',
    slotWidthMS: 900_000,
  }
  const nyFall = {
    startDateHourLocalInclusive: '2027-11-06_00',
    endDateHourLocalExclusive: '2027-11-09_00',
    slotWidthMS: 900_000,
  }
  const parisSpring = {
    startDateHourLocalInclusive: '2027-03-27_00',
    endDateHourLocalExclusive: '2027-03-30_00',
    slotWidthMS: 900_000,
  }
  const parisFall = {
    startDateHourLocalInclusive: '2027-10-30_00',
    endDateHourLocalExclusive: '2027-11-02_00',
    slotWidthMS: 900_000,
  }
  it('spring forward: 71 real hours, still 3 calendar days', () => {
    expect(slotsPerDevice(nySpring, 'America/New_York')).toBe(284)
    expect(eventDays(nySpring, 'America/New_York')).toBe(3)
    expect(slotsPerDevice(parisSpring, 'Europe/Paris')).toBe(284)
    expect(eventDays(parisSpring, 'Europe/Paris')).toBe(3)
  })
  it('fall back: 73 real hours, still 3 calendar days', () => {
    expect(slotsPerDevice(nyFall, 'America/New_York')).toBe(292)
    expect(eventDays(nyFall, 'America/New_York')).toBe(3)
    expect(slotsPerDevice(parisFall, 'Europe/Paris')).toBe(292)
    expect(eventDays(parisFall, 'Europe/Paris')).toBe(3)
  })
  it('the same dates in a zone without that change keep 72 hours', () => {
    // Paris changes two weeks after New York in spring
    expect(slotsPerDevice(nySpring, 'Europe/Paris')).toBe(288)
    expect(slotsPerDevice(parisFall, 'America/New_York')).toBe(288)
  })
})
