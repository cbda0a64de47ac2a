import { describe, expect, it } from 'vitest'
import { dateTimeIn, dayIn, durationIn, hourIn, isoDayIn, rangeIn, shortDayIn } from './format'

// The console's times: on the clock of the place, in the operator's language.

const PARIS_MIDNIGHT = Date.UTC(2026, 10, 28, 23, 0) // Nov 29, 00:00 in Paris

describe("the console's times", () => {
  it("show a Paris event's start at midnight Paris time, whatever the browser's zone", () => {
    expect(dateTimeIn(PARIS_MIDNIGHT, 'en', 'Europe/Paris')).toBe('Nov 29, 2026, 12:00 AM')
    expect(dateTimeIn(PARIS_MIDNIGHT, 'fr', 'Europe/Paris')).toBe('29 nov. 2026, 00:00')
    expect(dateTimeIn(PARIS_MIDNIGHT, 'de', 'Europe/Paris')).toBe('29.11.2026, 00:00')
  })

  it('write a range once, as the language writes one', () => {
    const end = PARIS_MIDNIGHT + 14 * 86_400_000 - 60_000
    // ICU puts narrow and thin spaces in ranges
    const range = rangeIn(PARIS_MIDNIGHT, end, 'en', 'Europe/Paris').replace(/[\u202f\u2009]/g, ' ')
    expect(range.startsWith('Nov 29, 2026, 12:00 AM')).toBe(true)
    expect(range).toContain('Dec 12, 2026, 11:59 PM')
  })

  it('write a calendar day the same in every zone', () => {
    expect(dayIn('2026-11-29', 'en')).toBe('Nov 29, 2026')
    expect(shortDayIn('2026-11-29', 'fr')).toBe('29 nov.')
    expect(isoDayIn(PARIS_MIDNIGHT, 'Europe/Paris')).toBe('2026-11-29')
    expect(isoDayIn(PARIS_MIDNIGHT, 'UTC')).toBe('2026-11-28')
  })

  it('write an hour tick short', () => {
    expect(hourIn(PARIS_MIDNIGHT + 6 * 3_600_000, 'en', 'Europe/Paris')).toBe('6 AM')
    expect(hourIn(PARIS_MIDNIGHT + 6 * 3_600_000, 'fr', 'Europe/Paris')).toBe('06 h')
  })

  it('write how long something lasted', () => {
    expect(durationIn(30_000, 'en')).toBe('30s')
    expect(durationIn(45 * 60_000, 'en')).toBe('45m')
    expect(durationIn(125 * 60_000, 'en')).toBe('2h 5m')
  })
})
