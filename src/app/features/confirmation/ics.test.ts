import { describe, expect, it } from 'vitest'
import { buildIcs } from './ics'

describe('buildIcs', () => {
  const ics = buildIcs({
    code: 'abcd1234',
    title: 'My shout, on the billboard',
    location: "Place de l'Opéra; Paris",
    description: 'Confirmation code abcd1234',
    entries: [
      { startEpochMs: Date.UTC(2027, 4, 7, 16, 0), endEpochMs: Date.UTC(2027, 4, 7, 16, 15) },
      { startEpochMs: Date.UTC(2027, 4, 8, 9, 30), endEpochMs: Date.UTC(2027, 4, 8, 9, 45) },
    ],
    nowEpochMs: Date.UTC(2027, 4, 1, 12, 0, 5),
  })
  const lines = ics.split('\r\n')

  it('is a calendar with one event per shout time, in UTC', () => {
    expect(lines[0]).toBe('BEGIN:VCALENDAR')
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(2)
    expect(lines).toContain('DTSTART:20270507T160000Z')
    expect(lines).toContain('DTEND:20270508T094500Z')
    expect(lines).toContain('DTSTAMP:20270501T120005Z')
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true)
  })

  it('escapes commas and semicolons in text', () => {
    expect(lines).toContain('SUMMARY:My shout\\, on the billboard')
    expect(lines).toContain("LOCATION:Place de l'Opéra\\; Paris")
  })

  it('gives every event its own uid', () => {
    expect(lines.filter((l) => l.startsWith('UID:'))).toEqual([
      'UID:abcd1234-0@shouts',
      'UID:abcd1234-1@shouts',
    ])
  })
})
