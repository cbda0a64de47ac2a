import type { Schedule } from '../../contract/index.ts'

// The schedule as a SMIL 3.0 playlist for off-the-shelf signage players. What they read,
// from their documentation and sources: garlic-player (SMIL 3.0; seq/par/excl; img, video, ref;
// `begin` with wallclock in full ISO 8601; `dur` as clock values; head/layout/root-layout/region;
// `<meta http-equiv="refresh">` to fetch the index again), signageOS's SMIL player (head/layout
// mandatory; seq/par and wallclock supported), IAdea (SMIL 3.0 with a region layout). So: the W3C
// Tiny profile's shape (smil with the SMIL 3.0 namespace and baseProfile="Tiny", head, body), one
// region the size of the screen, one <seq> of <img>/<video> items, each with an absolute src, a
// begin="wallclock(...)" in the billboard's local time and a dur; the house card (an image URL) fills every gap, so the
// playlist covers the whole window.

export const SMIL_NAMESPACE = 'http://www.w3.org/ns/SMIL'
/** Players fetch the playlist again after this many seconds (as the web player does). */
export const SMIL_REFRESH_SECONDS = 300

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * wallclock() in the billboard's local time, to the second, without a zone: garlic-player reads the
 * time part only as HH:mm:ss (its iso_date.cpp; milliseconds or a zone make it midnight) and takes it
 * in the player's own clock, which a billboard sets to its local time. (In the repeated hour of a
 * fall-back night such a time is ambiguous; the player resolves it.)
 */
function wallclockIn(timeZoneId: string): (epochMs: number) => string {
  const format = new Intl.DateTimeFormat('sv-SE', {
    timeZone: timeZoneId,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  })
  return (epochMs) => `wallclock(${format.format(epochMs).replace(' ', 'T')})`
}

/** To the whole second: wallclock() has no finer unit for the players that read it. */
const toSecond = (ms: number) => Math.round(ms / 1000) * 1000

/** A SMIL clock value in whole seconds ("15s", "210s"). */
const seconds = (ms: number) => `${Math.round(ms / 1000)}s`

export function scheduleSmil(schedule: Schedule, houseCardUrl: string): string {
  const items: string[] = []
  const wallclock = wallclockIn(schedule.timeZoneId)
  const house = (from: number, to: number) => {
    if (to <= from) return
    items.push(
      `      <img src="${escapeXml(houseCardUrl)}" region="screen" fit="meet" begin="${wallclock(from)}" dur="${seconds(to - from)}"/>`,
    )
  }
  let at = toSecond(schedule.fromEpochMs)
  for (const item of schedule.items) {
    // a play that began before the window is shown from the window's start
    const start = Math.max(toSecond(item.startEpochMs), at)
    const end = toSecond(item.endEpochMs)
    if (end <= start) continue
    house(at, start)
    const tag = item.content.type === 'video' ? 'video' : 'img'
    // a video plays muted and is cut at the end of its play
    const extra = tag === 'video' ? ' soundLevel="0%"' : ''
    items.push(
      `      <${tag} src="${escapeXml(item.content.url)}" region="screen" fit="meet" begin="${wallclock(start)}" dur="${seconds(end - start)}"${extra}/>`,
    )
    at = end
  }
  house(at, toSecond(schedule.toEpochMs))
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
