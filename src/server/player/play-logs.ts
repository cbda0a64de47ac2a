import { createHash } from 'node:crypto'
import type {
  Play,
  PlayLogAnswer,
  PlaysAnswer,
  PopReport,
  Schedule,
  ScheduleItem,
} from '../../contract/index.ts'
import type { OnAir } from '../advertisers/on-air/on-air.ts'
import type { Database } from '../platform/db/client.ts'
import { ok, type Result } from '../platform/result.ts'
import type { DeviceNotFound, PlayerError } from './errors.ts'
import type { LoggedPlay, PlayLogReport } from './play-log-xml.ts'
import { countRefusedPlays, type PlayerKind, saveHeartbeat } from './repo.ts'

// A SMIL player's own play logs made into proofs of play (docs/billboards.md "Proofs of play"):
// the playlist names each sold play by an id (logContentId for garlic and IAdea, popCustomId for
// signageOS) that the player writes back when the play ends. The id names one scheduled play and
// tells a stranger nothing: the play's start (what the street sees anyway) and a hash of its order,
// slot and index (or campaign and cell), which no one can turn back into an order's guid. The server
// finds the play again in the billboard's own schedule of that hour (and an ad among the plays held
// that hour whatever its campaign's state now: a log arrives after a pause that followed the play),
// so an id of another billboard, of a slot no longer sold or of an order that may not play names
// nothing and is refused. Each found play then goes through the web player's proof rules
// (service.ts recordPlays: not begun refused, an ad not carried at its start refused, each play
// kept once), with a play id made from the billboard and the logged id, so that a log the player
// sends again (garlic until it gets a 2xx, signageOS every 10 minutes) is a duplicate. A log that
// is read is answered 200 whatever its plays came to: hours whose schedule cannot be made count
// their plays refused (garlic would send the file forever otherwise); only an outage fails it.

const HOUR_MS = 3_600_000
/**
 * Schedules one body may make the server build, each of the hours its plays span, a day at most: a
 * body's plays span minutes (garlic sends every minute, signageOS every ten), two days of them when
 * a player kept its logs offline; a play beyond them in the same body is refused.
 */
const MAX_WINDOWS_PER_LOG = 2
const MAX_WINDOW_MS = 24 * HOUR_MS

/** The id a SMIL player logs for a play of the schedule. */
export function loggedPlayId(
  item: Pick<
    ScheduleItem,
    'orderGuid' | 'campaignId' | 'slotNumber' | 'playIndex' | 'startEpochMs'
  >,
): string {
  const who = item.orderGuid !== undefined ? `order ${item.orderGuid}` : `ad ${item.campaignId}`
  const hash = createHash('sha256')
    .update(`${who}\n${item.slotNumber ?? ''}\n${item.playIndex}`)
    .digest('base64url')
    .slice(0, 22)
  return `${Math.floor(item.startEpochMs / 1000)}-${hash}`
}

const LOGGED_ID = /^(\d{9,11})-[\w-]{22}$/

/** A UUID (RFC 9562 layout, version 8) made from the billboard and the logged id. */
function playIdOf(deviceId: string, loggedId: string): string {
  const hex = createHash('sha256').update(`${deviceId}\n${loggedId}`).digest('hex')
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** An instant with its offset or Z; a local time without one says nothing of when it was. */
function instant(text: string): number | null {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:?\d\d)$/.test(text)) return null
  const ms = Date.parse(text)
  return Number.isFinite(ms) ? ms : null
}

type Logged = {
  loggedId: string
  /** From the log, or null to take the scheduled length back from the end (signageOS). */
  startedAtEpochMs: number | null
  endedAtEpochMs: number
}

export type PlayLogDeps = {
  database: Database
  now: () => number
  schedule(
    deviceId: string,
    window: { fromEpochMs: number; toEpochMs: number },
  ): Promise<Result<Schedule, PlayerError>>
  recordPlays(
    deviceId: string,
    plays: readonly Play[],
  ): Promise<Result<PlaysAnswer, DeviceNotFound>>
  /** Campaigns on air: the ad plays held in an hour, whatever their campaign's state now. */
  onAir?: Pick<OnAir, 'held'>
}

type Found = Pick<
  ScheduleItem,
  'orderGuid' | 'campaignId' | 'slotNumber' | 'playIndex' | 'startEpochMs' | 'endEpochMs'
>

export function createPlayLogs(deps: PlayLogDeps) {
  /** The logged plays as proofs: found in the billboard's schedule, then through recordPlays. */
  async function prove(
    deviceId: string,
    kind: PlayerKind,
    logged: readonly Logged[],
    failed: number,
    unreadable: number,
  ): Promise<Result<PlayLogAnswer, DeviceNotFound>> {
    const hourOf = (loggedId: string) => {
      const seconds = LOGGED_ID.exec(loggedId)?.[1]
      return seconds === undefined ? null : Math.floor((Number(seconds) * 1000) / HOUR_MS) * HOUR_MS
    }
    const hours = [...new Set(logged.map((e) => hourOf(e.loggedId)))]
      .filter((h): h is number => h !== null)
      .sort((a, b) => a - b)
    // the plays the body can name, from one schedule of each run of hours it spans
    const known = new Map<string, Found>()
    const windows: { fromEpochMs: number; toEpochMs: number }[] = []
    for (const hour of hours) {
      const last = windows.at(-1)
      if (last && hour - last.fromEpochMs < MAX_WINDOW_MS) last.toEpochMs = hour + HOUR_MS
      else if (windows.length < MAX_WINDOWS_PER_LOG)
        windows.push({ fromEpochMs: hour, toEpochMs: hour + HOUR_MS })
    }
    for (const window of windows) {
      const found = await deps.schedule(deviceId, window)
      // no schedule of those hours (the billboard gone from the catalogue): their plays are refused
      const items: readonly Found[] = found.ok ? found.value.items : []
      const ads = found.ok && deps.onAir ? await deps.onAir.held(deviceId, window) : []
      for (const item of [...items, ...ads]) known.set(loggedPlayId(item), item)
    }
    const within = (hour: number | null) =>
      hour !== null && windows.some((w) => hour >= w.fromEpochMs && hour < w.toEpochMs)
    const plays: Play[] = []
    let unknown = unreadable
    for (const entry of logged) {
      const item = within(hourOf(entry.loggedId)) ? known.get(entry.loggedId) : undefined
      if (!item) {
        unknown++
        continue
      }
      const length = item.endEpochMs - item.startEpochMs
      const who =
        item.orderGuid !== undefined && item.slotNumber !== undefined
          ? { orderGuid: item.orderGuid, slotNumber: item.slotNumber }
          : { campaignId: item.campaignId }
      plays.push({
        playId: playIdOf(deviceId, entry.loggedId),
        ...who,
        playIndex: item.playIndex,
        startedAtEpochMs: entry.startedAtEpochMs ?? entry.endedAtEpochMs - length,
        endedAtEpochMs: entry.endedAtEpochMs,
      } as Play)
    }
    const recorded = await deps.recordPlays(deviceId, plays)
    if (!recorded.ok) return recorded
    await countRefusedPlays(deps.database, deviceId, unknown)
    // a play log is the billboard's sign of life, and tells which player it runs
    const now = deps.now()
    await saveHeartbeat(deps.database, {
      deviceId,
      source: 'smil',
      seenAtEpochMs: now,
      clockOffsetMs: null,
      beat: null,
      playerKind: kind,
      playLogAtEpochMs: now,
    })
    return ok({ ...recorded.value, refused: recorded.value.refused + unknown, failed })
  }

  /** garlic-player's or an IAdea player's play log (play-log-xml.ts). */
  function fromReport(deviceId: string, report: PlayLogReport) {
    const logged: Logged[] = []
    let unreadable = 0
    for (const play of report.plays as readonly LoggedPlay[]) {
      const started = instant(play.startTime)
      const ended = instant(play.endTime)
      if (started === null || ended === null || play.contentId === '') unreadable++
      else
        logged.push({ loggedId: play.contentId, startedAtEpochMs: started, endedAtEpochMs: ended })
    }
    return prove(deviceId, report.kind, logged, 0, unreadable)
  }

  /**
   * signageOS's reports: a playback that failed is no proof (counted as failed), a download report
   * (no playbackSuccess) is not about a play; `recordedAt` is the end of the playback.
   */
  function fromPopReports(deviceId: string, reports: readonly PopReport[]) {
    const logged: Logged[] = []
    let failed = 0
    let unreadable = 0
    for (const report of reports) {
      if (report.playbackSuccess === undefined) continue
      if (!report.playbackSuccess || report.errorMessage !== undefined) {
        failed++
        continue
      }
      const ended = instant(report.recordedAt)
      if (ended === null || !report.customId) unreadable++
      else logged.push({ loggedId: report.customId, startedAtEpochMs: null, endedAtEpochMs: ended })
    }
    return prove(deviceId, 'signageos', logged, failed, unreadable)
  }

  return { fromReport, fromPopReports }
}
