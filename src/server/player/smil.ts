import type { Schedule } from '../../contract/index.ts'

// The schedule as a SMIL 3.0 playlist (issue 14) for off-the-shelf signage players. What they read,
// from their documentation and sources: garlic-player (SMIL 3.0; seq/par/excl; img, video, ref;
// `begin` with wallclock in full ISO 8601; `dur` as clock values; head/layout/root-layout/region;
// `<meta http-equiv="refresh">` to fetch the index again), signageOS's SMIL player (head/layout
// mandatory; seq/par and wallclock supported), IAdea (SMIL 3.0 with a region layout). So: the W3C
// Tiny profile's shape (smil with the SMIL 3.0 namespace and baseProfile="Tiny", head, body), one
// region the size of the screen, one <seq> of <img>/<video> items, each with an absolute src, a
// begin="wallclock(...)" in UTC and a dur; the house card (an image URL) fills every gap, so the
// playlist covers the whole window.

export const SMIL_NAMESPACE = 'http://www.w3.org/ns/SMIL'
/** Players fetch the playlist again after this many seconds (as the web player does). */
export const SMIL_REFRESH_SECONDS = 300

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** An ISO 8601 instant in UTC, as wallclock() takes it: 2027-05-07T16:00:00.000Z. */
const wallclock = (epochMs: number) => `wallclock(${new Date(epochMs).toISOString()})`

/** A SMIL clock value in seconds ("15s", "221.5s"). */
const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))}s`

export function scheduleSmil(schedule: Schedule, houseCardUrl: string): string {
  const items: string[] = []
  const house = (from: number, to: number) => {
    if (to <= from) return
    items.push(
      `      <img src="${escapeXml(houseCardUrl)}" region="screen" fit="meet" begin="${wallclock(from)}" dur="${seconds(to - from)}"/>`,
    )
  }
  let at = schedule.fromEpochMs
  for (const item of schedule.items) {
    // a play that began before the window is shown from the window's start
    const start = Math.max(item.startEpochMs, at)
    if (item.endEpochMs <= start) continue
    house(at, start)
    const tag = item.content.type === 'video' ? 'video' : 'img'
    // a video plays muted and is cut at the end of its play (issue 14)
    const extra = tag === 'video' ? ' soundLevel="0%"' : ''
    items.push(
      `      <${tag} src="${escapeXml(item.content.url)}" region="screen" fit="meet" begin="${wallclock(start)}" dur="${seconds(item.endEpochMs - start)}"${extra}/>`,
    )
    at = item.endEpochMs
  }
  house(at, schedule.toEpochMs)
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<smil xmlns="${SMIL_NAMESPACE}" version="3.0" baseProfile="Tiny">`,
    '  <head>',
    `    <meta http-equiv="refresh" content="${SMIL_REFRESH_SECONDS}"/>`,
    `    <meta name="title" content="${escapeXml(`${schedule.house.eventName}: ${schedule.deviceId}`)}"/>`,
    '    <layout>',
    `      <root-layout width="${schedule.widthPx}" height="${schedule.heightPx}" backgroundColor="#000000"/>`,
    `      <region regionName="screen" xml:id="screen" left="0" top="0" width="${schedule.widthPx}" height="${schedule.heightPx}" z-index="1"/>`,
    '    </layout>',
    '  </head>',
    '  <body>',
    '    <seq>',
    ...items,
    '    </seq>',
    '  </body>',
    '</smil>',
    '',
  ].join('\n')
}
