import { describe, expect, it } from 'vitest'
import { escapeText, foldLine, utcDateTime, writeCalendar } from './ics.ts'

const octets = (s: string) => new TextEncoder().encode(s).length

describe('RFC 5545 writer (.ics)', () => {
  it('writes UTC date-times in the basic form', () => {
    expect(utcDateTime(Date.UTC(2027, 4, 7, 18, 15, 0))).toBe('20270507T181500Z')
  })

  it('escapes backslash, semicolon, comma and line breaks in TEXT', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf')
  })

  it('folds lines longer than 75 octets with CRLF and a space, never inside a character', () => {
    const line = `SUMMARY:${'é'.repeat(100)}`
    const folded = foldLine(line)
    const lines = folded.split('\r\n')
    expect(lines.length).toBeGreaterThan(2)
    for (const [i, part] of lines.entries()) {
      expect(octets(part)).toBeLessThanOrEqual(75)
      if (i > 0) expect(part.startsWith(' ')).toBe(true)
      expect(part).not.toContain('\uFFFD')
    }
    // unfolding (3.1: remove CRLF + one space) gives the line back
    expect(folded.replace(/\r\n /g, '')).toBe(line)
    expect(foldLine('SHORT:line')).toBe('SHORT:line')
  })

  it('writes one VEVENT per event, every line ending in CRLF', () => {
    const text = writeCalendar({
      productId: '-//Shouts//Mail//EN',
      stampEpochMs: Date.UTC(2027, 4, 1),
      events: [
        {
          uid: 'o1-5@shouts',
          startEpochMs: Date.UTC(2027, 4, 7, 18),
          endEpochMs: Date.UTC(2027, 4, 7, 18, 15),
          summary: 'Your shout, Opera; Paris',
          location: 'Place de l’Opéra, Paris',
          url: 'https://shouts.example/live/order/confirmation?order=o1',
        },
        {
          uid: 'o1-6@shouts',
          startEpochMs: Date.UTC(2027, 4, 7, 18, 15),
          endEpochMs: Date.UTC(2027, 4, 7, 18, 30),
          summary: 'Your shout',
        },
      ],
    })
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(2)
    expect(text).toContain('DTSTART:20270507T180000Z\r\nDTEND:20270507T181500Z')
    expect(text).toContain('SUMMARY:Your shout\\, Opera\\; Paris')
    expect(text).toContain('DTSTAMP:20270501T000000Z')
  })
})
