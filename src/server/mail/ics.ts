// The `.ics` attached to "order confirmed", one VEVENT per slot bought, so a
// shopper's calendar shows when the shout is on. A small RFC 5545 writer: lines end in CRLF (3.1),
// lines longer than 75 octets are folded with CRLF + a space, never inside a UTF-8 character (3.1),
// TEXT values escape backslash, semicolon, comma and newlines (3.3.11), times are UTC (3.3.5, form 2).

export type CalendarEvent = {
  /** Globally unique and stable: a re-sent invitation updates the same entry instead of adding one. */
  uid: string
  startEpochMs: number
  endEpochMs: number
  summary: string
  description?: string
  location?: string
  url?: string
}

export type Calendar = {
  /** PRODID: who made the calendar (RFC 5545 3.7.3). */
  productId: string
  /** DTSTAMP of every event: when the calendar was made. */
  stampEpochMs: number
  events: readonly CalendarEvent[]
}

/** RFC 5545 3.3.11: backslash, semicolon and comma escaped; a line break becomes `\n`. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
}

/** RFC 5545 3.3.5 form 2, UTC: 19980119T070000Z. */
export function utcDateTime(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')
}

const encoder = new TextEncoder()

/**
 * RFC 5545 3.1: a content line of more than 75 octets is split into lines of at most 75 octets, each
 * continuation starting with one space (which counts in its 75). A split never falls inside a UTF-8
 * sequence, so every line stays valid UTF-8.
 */
export function foldLine(line: string): string {
  const parts: string[] = []
  let current = ''
  let octets = 0
  let limit = 75
  for (const char of line) {
    const size = encoder.encode(char).length
    if (octets + size > limit) {
      parts.push(current)
      current = ''
      octets = 0
      limit = 74
    }
    current += char
    octets += size
  }
  parts.push(current)
  return parts.join('\r\n ')
}

export function writeCalendar(calendar: Calendar): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${calendar.productId}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ]
  for (const event of calendar.events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(event.uid)}`,
      `DTSTAMP:${utcDateTime(calendar.stampEpochMs)}`,
      `DTSTART:${utcDateTime(event.startEpochMs)}`,
      `DTEND:${utcDateTime(event.endEpochMs)}`,
      `SUMMARY:${escapeText(event.summary)}`,
    )
    if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`)
    if (event.location) lines.push(`LOCATION:${escapeText(event.location)}`)
    // URL is a URI value (3.3.13), not TEXT: not escaped.
    if (event.url) lines.push(`URL:${event.url}`)
    lines.push('END:VEVENT')
  }
  lines.push('END:VCALENDAR')
  return `${lines.map(foldLine).join('\r\n')}\r\n`
}
