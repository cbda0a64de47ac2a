// An iCalendar file (RFC 5545) with one event per shout time, for "add to calendar".

export type CalendarEntry = { startEpochMs: number; endEpochMs: number }

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

const escapeText = (text: string) =>
  text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n')

export function buildIcs(opts: {
  code: string
  title: string
  location: string
  description: string
  entries: CalendarEntry[]
  nowEpochMs: number
}): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Shouts//Order//EN',
    'CALSCALE:GREGORIAN',
  ]
  opts.entries.forEach((entry, i) => {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${opts.code}-${i}@shouts`,
      `DTSTAMP:${stamp(opts.nowEpochMs)}`,
      `DTSTART:${stamp(entry.startEpochMs)}`,
      `DTEND:${stamp(entry.endEpochMs)}`,
      `SUMMARY:${escapeText(opts.title)}`,
      `LOCATION:${escapeText(opts.location)}`,
      `DESCRIPTION:${escapeText(opts.description)}`,
      'END:VEVENT',
    )
  })
  lines.push('END:VCALENDAR')
  return `${lines.join('\r\n')}\r\n`
}
