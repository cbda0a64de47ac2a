import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import {
  DateFormatError,
  formatDatabaseDateTime,
  formatDateHour,
  formatDisplayDateTime,
  formatDisplayDateTimeAt,
  isDateHour,
  isValidTimeZone,
  parseDateHour,
  subtractMinutesFromDateHour,
  weekdayOffset,
  weekHourOffset,
} from './dates'

describe('parseDateHour (spec §5 date formats)', () => {
  it('reads yyyy-MM-dd as midnight', () => {
    expect(parseDateHour('2027-05-07').toString()).toBe('2027-05-07T00:00:00')
  })
  it('reads yyyy-MM-dd_HH', () => {
    expect(parseDateHour('2027-05-07_18').toString()).toBe('2027-05-07T18:00:00')
  })
  it('reads yyyy-MM-dd_HH-mm', () => {
    expect(parseDateHour('2027-05-07_18-15').toString()).toBe('2027-05-07T18:15:00')
  })
  it('reads yyyy-MM-dd_HH-mm-ss', () => {
    expect(parseDateHour('2027-05-07_18-15-42').toString()).toBe('2027-05-07T18:15:42')
  })
  it.each([
    '2027-05-07 18',
    '2027-05-07T18',
    '2027-5-7',
    '27-05-07',
    '2027-05-07_1',
    '2027-05-07_18-1',
    '2027-05-07_18-15-42-10',
    '2027/05/07',
    '',
    ' 2027-05-07',
  ])('rejects %j with the spec sentence (its code and the value)', (value) => {
    expect(() => parseDateHour(value)).toThrow(`date_format_invalid ${JSON.stringify({ value })}`)
  })
  it('rejects impossible dates and hours as invalid formats too', () => {
    expect(() => parseDateHour('2027-02-30')).toThrow(DateFormatError)
    expect(() => parseDateHour('2027-05-07_24')).toThrow(DateFormatError)
    expect(() => parseDateHour('2027-05-07_23-60')).toThrow(DateFormatError)
    expect(parseDateHour('2028-02-29').day).toBe(29)
  })
  it('throws a DateFormatError carrying the value', () => {
    try {
      parseDateHour('nope')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(DateFormatError)
      expect((error as DateFormatError).value).toBe('nope')
      expect((error as DateFormatError).problem).toEqual({
        code: 'date_format_invalid',
        params: { value: 'nope' },
      })
    }
  })
  it('isDateHour answers without throwing', () => {
    expect(isDateHour('2027-05-07_00')).toBe(true)
    expect(isDateHour('2027-13-01')).toBe(false)
  })
})

describe('subtractMinutesFromDateHour (spec §5)', () => {
  it('takes 1 minute by default, across midnight', () => {
    expect(subtractMinutesFromDateHour('2027-05-10_00')).toBe('2027-05-09_23-59')
  })
  it('takes the given minutes', () => {
    expect(subtractMinutesFromDateHour('2027-05-10_18', 15)).toBe('2027-05-10_17-45')
    expect(subtractMinutesFromDateHour('2027-05-10_18', 0)).toBe('2027-05-10_18-00')
  })
  it('crosses month and year ends', () => {
    expect(subtractMinutesFromDateHour('2027-03-01_00', 1)).toBe('2027-02-28_23-59')
    expect(subtractMinutesFromDateHour('2027-01-01_00', 60)).toBe('2026-12-31_23-00')
  })
  it('answers a string parseDateHour reads back', () => {
    expect(parseDateHour(subtractMinutesFromDateHour('2027-05-10_00')).toString()).toBe(
      '2027-05-09T23:59:00',
    )
  })
  it('requires yyyy-MM-dd_HH exactly', () => {
    for (const value of ['2027-05-10', '2027-05-10_18-30', '2027-05-10_18-30-00', 'x']) {
      expect(() => subtractMinutesFromDateHour(value)).toThrow(
        `date_format_invalid ${JSON.stringify({ value })}`,
      )
    }
  })
  it('refuses negative or fractional minutes', () => {
    expect(() => subtractMinutesFromDateHour('2027-05-10_18', -1)).toThrow(RangeError)
    expect(() => subtractMinutesFromDateHour('2027-05-10_18', 1.5)).toThrow(RangeError)
  })
})

describe('weekday and week-hour offsets (spec §5)', () => {
  it('counts weekdays from Sunday 0 to Saturday 6', () => {
    expect(
      ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map(
        weekdayOffset,
      ),
    ).toEqual([0, 1, 2, 3, 4, 5, 6])
  })
  it('accepts any case and three-letter names', () => {
    expect(weekdayOffset('sunday')).toBe(0)
    expect(weekdayOffset('SAT')).toBe(6)
    expect(weekdayOffset(' wed ')).toBe(3)
  })
  it.each(['Sundays', 'Mo', '', 'Funday', '1'])('throws bad_weekday for %j', (name) => {
    expect(() => weekdayOffset(name)).toThrow('bad_weekday')
  })
  it('counts hours of the week 0 to 167', () => {
    expect(weekHourOffset('Sunday', 0)).toBe(0)
    expect(weekHourOffset('Monday', 0)).toBe(24)
    expect(weekHourOffset('Wednesday', 13)).toBe(85)
    expect(weekHourOffset('Saturday', 23)).toBe(167)
  })
  it('rejects a bad weekday or hour', () => {
    expect(() => weekHourOffset('Caturday', 3)).toThrow('bad_weekday')
    expect(() => weekHourOffset('Monday', 24)).toThrow('bad_hour')
    expect(() => weekHourOffset('Monday', -1)).toThrow('bad_hour')
  })
})

describe('display and database formats (spec §9)', () => {
  const evening = Temporal.ZonedDateTime.from('2027-05-07T18:05:09[America/New_York]')
  it('displays an instant as MM-dd-yyyy hh:mm a on the wall clock of a time zone', () => {
    const instant = Date.UTC(2027, 4, 7, 16, 5)
    expect(formatDisplayDateTimeAt(instant, 'Europe/Paris')).toBe('05-07-2027 06:05 PM')
    expect(formatDisplayDateTimeAt(instant, 'America/New_York')).toBe('05-07-2027 12:05 PM')
    expect(formatDisplayDateTimeAt(Date.UTC(2027, 0, 1, 23, 30), 'Asia/Tokyo')).toBe(
      '01-02-2027 08:30 AM',
    )
  })

  it('displays MM-dd-yyyy hh:mm a', () => {
    expect(formatDisplayDateTime(evening)).toBe('05-07-2027 06:05 PM')
    expect(formatDisplayDateTime(Temporal.PlainDateTime.from('2027-01-02T00:30'))).toBe(
      '01-02-2027 12:30 AM',
    )
    expect(formatDisplayDateTime(Temporal.PlainDateTime.from('2027-01-02T12:00'))).toBe(
      '01-02-2027 12:00 PM',
    )
  })
  it('writes the database format yyyy-MM-dd HH:mm:ss', () => {
    expect(formatDatabaseDateTime(evening)).toBe('2027-05-07 18:05:09')
    expect(formatDatabaseDateTime(Temporal.PlainDateTime.from('2027-01-02T00:00'))).toBe(
      '2027-01-02 00:00:00',
    )
  })
  it('writes the event format yyyy-MM-dd_HH', () => {
    expect(formatDateHour(evening)).toBe('2027-05-07_18')
  })
})

describe('isValidTimeZone', () => {
  it('accepts IANA names and refuses the rest', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true)
    expect(isValidTimeZone('America/New_York')).toBe(true)
    expect(isValidTimeZone('UTC')).toBe(true)
    expect(isValidTimeZone('Mars/Olympus')).toBe(false)
    expect(isValidTimeZone('+02:00')).toBe(false)
    expect(isValidTimeZone('')).toBe(false)
  })
})
