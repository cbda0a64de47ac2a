import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import { compareDateHour, isDateHour, isValidTimeZone, readDateHour } from './date-hour'

const pad = (n: number) => String(n).padStart(2, '0')

function temporalAccepts(y: number, m: number, d: number, h: number): boolean {
  try {
    Temporal.PlainDateTime.from({ year: y, month: m, day: d, hour: h }, { overflow: 'reject' })
    return true
  } catch {
    return false
  }
}

describe('readDateHour', () => {
  it('agrees with Temporal on every day, month and hour edge of leap and common years', () => {
    for (const year of [1900, 2000, 2023, 2024, 2100]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          for (const hour of [0, 23, 24]) {
            const text = `${year}-${pad(month)}-${pad(day)}_${pad(hour)}`
            expect(isDateHour(text), text).toBe(temporalAccepts(year, month, day, hour))
          }
        }
      }
    }
  })

  it('reads minutes and seconds, and refuses what is not the format', () => {
    expect(readDateHour('2026-05-31_09-30-15')).toEqual({
      year: 2026,
      month: 5,
      day: 31,
      hour: 9,
      minute: 30,
      second: 15,
    })
    expect(readDateHour('2026-05-31')).toMatchObject({ hour: 0, minute: 0 })
    expect(readDateHour('2026-05-31_09-60')).toBeNull()
    expect(readDateHour('2026-5-31_09')).toBeNull()
    expect(readDateHour('2026-05-31T09')).toBeNull()
  })
})

describe('compareDateHour', () => {
  it('orders date-hours by time', () => {
    expect(compareDateHour('2026-05-31_09', '2026-05-31_10')).toBeLessThan(0)
    expect(compareDateHour('2026-06-01_00', '2026-05-31_23')).toBeGreaterThan(0)
    expect(compareDateHour('2026-05-31_09', '2026-05-31_09-00-00')).toBe(0)
    expect(() => compareDateHour('2026-02-30_00', '2026-03-01_00')).toThrow()
  })
})

describe('isValidTimeZone', () => {
  it('knows IANA names and refuses offsets and made-up names', () => {
    for (const zone of ['Europe/Paris', 'America/New_York', 'Europe/London', 'UTC', 'Etc/GMT+12'])
      expect(isValidTimeZone(zone), zone).toBe(true)
    for (const zone of ['Mars/Olympus_Mons', '+02:00', '', 'Europe/Paris ', '../etc'])
      expect(isValidTimeZone(zone), zone).toBe(false)
  })
})
