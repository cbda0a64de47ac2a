import { createHash } from 'node:crypto'
import type { Schedule, ScheduleItem } from '../../contract/index.ts'
import { playoutSegments } from '../../domain/playout.ts'

// The schedule as a SMIL 3.0 playlist for off-the-shelf signage players, in the one shape that both
// players we target play as scheduled (read in their sources):
// - signageOS's SMIL player drops every media element that carries a `begin` and holds nothing (its
//   playlist would be empty), and wants wallclock-timed elements as direct children of a `par` or
//   `excl` ("a scheduled playlist MUST BE enclosed within a par", its wallclock-scheduling guide, as
//   A-SMIL's); garlic-player ignores a wallclock `begin` on a child of a `seq` (it plays the items back
//   to back from whenever it loaded). So: one `<par dur="indefinite">`, in it one
//   `<seq begin="wallclock(…)" end="wallclock(…)">` per play, in time order, each holding one `<img>`
//   or `<video>` with a `dur` and no `begin`/`end`. The house card fills the time between, cut at
//   whole minutes (at most 60 s a piece: a player that loads the playlist mid-gap joins a short piece).
// - wallclock() is the billboard's local time to the second, without a zone: garlic-player reads the
//   time as HH:mm:ss (milliseconds or a zone make it midnight) and takes it in its own clock, which a
//   billboard sets to its local time. (In the repeated hour of a fall-back night such a time is
//   ambiguous; the player resolves it.)
// - `<meta http-equiv="Refresh">`: garlic compares "Refresh" case-sensitively; signageOS takes the
//   interval from every meta with a `content`, the last one winning, so Refresh comes after the title.
// - The routes send a stable ETag and Last-Modified (signageOS reloads when Last-Modified changes,
//   garlic when the ETag does) and answer HEAD; the default window starts at the hour
//   (domain/schedule.ts smilScheduleWindow), so an unchanged schedule gives the same document all hour.
// - Videos are muted by their files, which have no audio track (content pipeline, `-an`): signageOS
//   ignores `soundLevel`.

export const SMIL_NAMESPACE = 'http://www.w3.org/ns/SMIL'
/** Players fetch the playlist again after this many seconds (as the web player does). */
export const SMIL_REFRESH_SECONDS = 300
/** The longest piece of house card: the players' clocks are read again at least this often. */
export const HOUSE_CHUNK_MS = 60_000

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** wallclock() in the billboard's local time, to the second, without a zone. */
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

/** A SMIL clock value in whole seconds ("15s", "60s"). */
const seconds = (ms: number) => `${Math.round(ms / 1000)}s`

export type SmilPlaylist = {
  body: string
  /** A strong validator: the document's hash, quoted. */
  etag: string
}

export function scheduleSmil(schedule: Schedule, houseCardUrl: string): SmilPlaylist {
  const wallclock = wallclockIn(schedule.timeZoneId)
  const media = (item: ScheduleItem | null, durMs: number) => {
    const tag = item?.content.type === 'video' ? 'video' : 'img'
    const src = escapeXml(item ? item.content.url : houseCardUrl)
    return `<${tag} src="${src}" region="screen" fit="meet" dur="${seconds(durMs)}"/>`
  }
  const segments = playoutSegments(schedule.items, schedule, {
    houseChunkMs: HOUSE_CHUNK_MS,
    unitMs: 1000,
  })
  const seqs = segments.map(
    (s) =>
      `      <seq begin="${wallclock(s.startEpochMs)}" end="${wallclock(s.endEpochMs)}">` +
      `${media(s.kind === 'play' ? s.item : null, s.endEpochMs - s.startEpochMs)}</seq>`,
  )
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<smil xmlns="${SMIL_NAMESPACE}" version="3.0" baseProfile="Tiny">`,
    '  <head>',
    `    <meta name="title" content="${escapeXml(`${schedule.house.eventName}: ${schedule.deviceId}`)}"/>`,
    `    <meta http-equiv="Refresh" content="${SMIL_REFRESH_SECONDS}"/>`,
    '    <layout>',
    `      <root-layout width="${schedule.widthPx}" height="${schedule.heightPx}" backgroundColor="#000000"/>`,
    `      <region regionName="screen" xml:id="screen" left="0" top="0" width="${schedule.widthPx}" height="${schedule.heightPx}" z-index="1"/>`,
    '    </layout>',
    '  </head>',
    '  <body>',
    '    <par dur="indefinite">',
    ...seqs,
    '    </par>',
    '  </body>',
    '</smil>',
    '',
  ].join('\n')
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` }
}

/**
 * Whether a conditional request's validators match the playlist (RFC 9110 §13.1: If-None-Match wins
 * over If-Modified-Since). garlic-player sends its stored ETag without the quotes: compared without them.
 */
export function notModified(
  request: { ifNoneMatch: string | undefined; ifModifiedSince: string | undefined },
  current: { etag: string; lastModifiedEpochMs: number },
): boolean {
  const bare = (tag: string) =>
    tag
      .trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1')
  if (request.ifNoneMatch !== undefined) {
    const tags = request.ifNoneMatch.split(',').map(bare)
    return tags.includes('*') || tags.includes(bare(current.etag))
  }
  if (request.ifModifiedSince !== undefined) {
    const since = Date.parse(request.ifModifiedSince)
    return Number.isFinite(since) && Math.floor(current.lastModifiedEpochMs / 1000) * 1000 <= since
  }
  return false
}
