import { createHash } from 'node:crypto'
import type { Schedule } from '../../contract/index.ts'
import { playoutSegments } from '../../domain/playout.ts'
import { loggedPlayId } from './play-logs.ts'

// The schedule as a SMIL 3.0 playlist for off-the-shelf signage players (garlic-player, IAdea,
// signageOS), shaped from their sources (signageOS's also run) to play every sold play on time:
// - body › par › excl › one priorityClass per timed item, latest first: each sold play (shout or
//   ad) and each stretch of house card between plays, each class holding one
//   `<seq begin="wallclock(…)" end="wallclock(…)">` with one `<img>` or `<video>` and its `dur`.
//   Measured on signageOS's own player code (docs/billboards.md "How the feed was measured"): it
//   arms a wallclock seq ahead (a timer to its begin) only when it is alone in its container (of
//   several it starts only those begun at each pass over the playlist, and a pass waits for what it
//   started); it keeps an image its whole `dur` whatever the seq's `end`; a class that starts stops
//   a lower one at once (`higher="stop"`), while a lower one starting under a higher one waits for
//   it and then (number of classes − its rank) × 100 ms more (3.5 s in a day of 36 items). So every
//   item outranks the one before it in time: each starts on its timer and stops its predecessor,
//   and nothing waits. The house card is a 2-second image repeated until its stretch ends
//   (`repeatCount="indefinite"`), not one image as long as the stretch: after a playlist update the
//   player starts the current item again but watches the stop flag of the previous version's item,
//   so a long image restarted then was never stopped and hid the next plays (a 2-second one is
//   looked up again on each repeat). garlic-player and IAdea start an excl's children at their
//   wallclock begin and cut each at its seq's end, as a par's, repeating the card until then.
// - a `seq` of `<prefetch>`, one per file, first in the par: IAdea fetches media on first use,
//   garlic on prefetch too; signageOS drops the seq that holds them (it downloads every file anyway).
// - Play logs: each sold play's media carries the id of its play (play-logs.ts loggedPlayId) as
//   `<param name="logContentId">` (garlic, IAdea: only media with it are logged) and as signageOS's
//   `popName`/`popCustomId`/`popType`. The head carries the A-SMIL `x-server` PlaylogCollection
//   subscription (garlic and IAdea PUT their logs to `action` + "/playlog-….xml"; the billboard's
//   token is in `action`'s path, as these players send no credentials) and signageOS's
//   `<meta log="true" type="manual" endpoint>` (its reports go only there). The house card is not
//   logged: it proves nothing.
// - wallclock() is the billboard's local time to the second, without a zone: garlic-player reads the
//   time as HH:mm:ss (milliseconds or a zone make it midnight) and takes it in its own clock, which a
//   billboard sets to its local time. (In the repeated hour of a fall-back night such a time is
//   ambiguous; the player resolves it.)
// - `<meta http-equiv="Refresh">`: garlic compares "Refresh" case-sensitively; signageOS takes the
//   interval from every meta with a `content`, the last one winning, so Refresh is the last meta.
// - The routes send a stable ETag and Last-Modified (signageOS reloads when Last-Modified changes,
//   garlic when the ETag does) and answer HEAD; the default window starts at 00:00 or 12:00 UTC
//   (domain/schedule.ts smilScheduleWindow), so the document changes twice a day and when what is
//   sold changes; a changed document waits while a sold play is on screen (domain smilFeedHeld,
//   repo.ts publishSmil): signageOS reloads at once and would show the play again from its beginning.
// - Videos are muted by their files, which have no audio track (content pipeline, `-an`): signageOS
//   ignores `soundLevel`.

export const SMIL_NAMESPACE = 'http://www.w3.org/ns/SMIL'
export const ADAPI_NAMESPACE = 'http://schemas.adfotain.org/adapi-1.0'
/** Players fetch the playlist again after this many seconds (as the web player does). */
export const SMIL_REFRESH_SECONDS = 300
/** How often garlic and IAdea send their play logs, and try again after a failure (seconds). */
export const PLAY_LOG_INTERVAL_SECONDS = 60
/** signageOS batches reports it could not send in files of this many, sent every 10 minutes. */
export const POP_REPORT_FILE_LIMIT = 100
/** The house card's image is shown this long, again and again until its stretch ends (see above). */
export const HOUSE_CARD_LOOP_SECONDS = 2

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

/** Where the billboard's players send their play logs (absolute, its token in them). */
export type PlayLogUrls = {
  /** The PlaylogCollection action: garlic and IAdea append "/playlog-….xml". */
  playLogAction: string
  /** signageOS's custom proof-of-play endpoint. */
  popEndpoint: string
}

export function scheduleSmil(
  schedule: Schedule,
  houseCardUrl: string,
  logs: PlayLogUrls,
): SmilPlaylist {
  const wallclock = wallclockIn(schedule.timeZoneId)
  const segments = playoutSegments(schedule.items, schedule, { unitMs: 1000 })
  const seq = (s: { startEpochMs: number; endEpochMs: number }, media: string, repeat = '') =>
    `          <seq begin="${wallclock(s.startEpochMs)}" end="${wallclock(s.endEpochMs)}"${repeat}>${media}</seq>`
  const timed: string[] = []
  const files = new Set<string>([houseCardUrl])
  for (const s of segments) {
    const dur = seconds(s.endEpochMs - s.startEpochMs)
    if (s.kind === 'house') {
      const card = `<img src="${escapeXml(houseCardUrl)}" region="screen" fit="meet" dur="${HOUSE_CARD_LOOP_SECONDS}s"/>`
      timed.push(seq(s, card, ' repeatCount="indefinite"'))
      continue
    }
    const tag = s.item.content.type === 'video' ? 'video' : 'img'
    const id = loggedPlayId(s.item)
    files.add(s.item.content.url)
    timed.push(
      seq(
        s,
        `<${tag} src="${escapeXml(s.item.content.url)}" region="screen" fit="meet" dur="${dur}"` +
          ` popName="${s.item.orderGuid !== undefined ? 'shout' : 'ad'}" popCustomId="${id}"` +
          ` popType="${tag === 'video' ? 'video' : 'image'}">` +
          `<param name="logContentId" value="${id}"/></${tag}>`,
      ),
    )
  }
  // one class per item, the highest first: latest first, so each item stops the one before it
  const classes = timed
    .reverse()
    .flatMap((seq) => [
      '        <priorityClass peers="stop" higher="stop" lower="defer">',
      seq,
      '        </priorityClass>',
    ])
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<smil xmlns="${SMIL_NAMESPACE}" version="3.0" baseProfile="Tiny">`,
    '  <head>',
    `    <meta name="title" content="${escapeXml(`${schedule.house.eventName}: ${schedule.deviceId}`)}"/>`,
    `    <meta log="true" type="manual" endpoint="${escapeXml(logs.popEndpoint)}" reportFileLimit="${POP_REPORT_FILE_LIMIT}"/>`,
    `    <meta http-equiv="Refresh" content="${SMIL_REFRESH_SECONDS}"/>`,
    '    <metadata>',
    `      <x-server xmlns="${ADAPI_NAMESPACE}">`,
    '        <subscriptionList>',
    '          <subscription>',
    '            <type>PlaylogCollection</type>',
    `            <action>${escapeXml(logs.playLogAction)}</action>`,
    '            <method>put</method>',
    `            <refreshInterval>${PLAY_LOG_INTERVAL_SECONDS}</refreshInterval>`,
    `            <retryInterval>${PLAY_LOG_INTERVAL_SECONDS}</retryInterval>`,
    '          </subscription>',
    '        </subscriptionList>',
    '      </x-server>',
    '    </metadata>',
    '    <layout>',
    `      <root-layout width="${schedule.widthPx}" height="${schedule.heightPx}" backgroundColor="#000000"/>`,
    `      <region regionName="screen" xml:id="screen" left="0" top="0" width="${schedule.widthPx}" height="${schedule.heightPx}" z-index="1"/>`,
    '    </layout>',
    '  </head>',
    '  <body>',
    '    <par dur="indefinite">',
    '      <seq>',
    ...[...files].map((url) => `        <prefetch src="${escapeXml(url)}"/>`),
    '      </seq>',
    '      <excl dur="indefinite">',
    ...classes,
    '      </excl>',
    '    </par>',
    '  </body>',
    '</smil>',
    '',
  ].join('\n')
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` }
}

/** Stands for the billboard's token in a stored SMIL document (URL- and XML-safe, never a token). */
export const TOKEN_MARK = 'smil-token-of-the-billboard'

/**
 * A stored document (kept without its token, a secret) as served to a billboard: the token put in,
 * the ETag the stored hash's and the token's (a billboard given a new token loads the document again).
 */
export function servedSmil(stored: { body: string; etag: string }, token: string): SmilPlaylist {
  return {
    body: stored.body.replaceAll(TOKEN_MARK, encodeURIComponent(token)),
    etag: `"${createHash('sha256').update(`${stored.etag}\n${token}`).digest('base64url').slice(0, 32)}"`,
  }
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
