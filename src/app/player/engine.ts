import * as v from 'valibot'
import { pathOf } from '../../contract/endpoint'
import {
  type Heartbeat,
  HeartbeatAnswerSchema,
  MAX_PLAYS_PER_BATCH,
  type Play,
  PlaysAnswerSchema,
  player,
  type ScheduleItem,
  ScheduleSchema,
} from '../../contract/player'
import { PLAYER_CACHE_NAME } from '../../contract/sw'
import {
  clockCorrection,
  HEARTBEAT_INTERVAL_MS,
  measuredClockOffset,
} from '../../domain/billboard-health'
import { itemAt, mergeSchedule, nextChangeAt } from '../../domain/playout'
import { hourlyScheduleWindow } from '../../domain/schedule'
import {
  addPendingPlay,
  type KeptSchedule,
  readPendingPlays,
  readSchedule,
  removePendingPlays,
  saveSchedule,
} from './store'

// The billboard player's engine: fetches the next 24 hours (again every few minutes and
// when the network comes back), keeps every content file of the window in Cache Storage under its own
// URL, decides what shows by the wall clock (Date and setTimeout only, so a test drives it with
// Playwright's page.clock), records each play when it ends and sends the proofs in batches. It never
// stops on an error: a failed fetch keeps the kept schedule, a failed file shows the house card.
// Every minute it sends a heartbeat (what it shows, its clock, window, cache, proofs waiting); the
// server's time in that answer and in each schedule measures its clock, and beyond 2 s it plays by
// the server's time (domain/billboard-health.ts), so a wrong clock does not move the plays.

/** How often the schedule is fetched again while online. */
export const REFRESH_MS = 5 * 60_000
/** A finished play is sent within this delay while online (api-v1: within a minute). */
export const SEND_DELAY_MS = 20_000
/** The longest single wait: the clock is read again at least this often (a slept tab, a changed clock). */
const MAX_WAIT_MS = 60_000

export type PlayerStatus = {
  /** Content files that could not be fetched or shown since the page opened. */
  failedFiles: number
  /** Proofs of play waiting for the server. */
  pendingPlays: number
  /** When the schedule last came from the server (epoch ms), or null. */
  syncedAtEpochMs: number | null
  /** The server refused the token: the billboard needs a new player link. */
  tokenRefused: boolean
  /** Content files of the kept window in the cache. */
  cachedFiles: number
  /** What the player adds to its clock to play by the server's time (ms; 0 within 2 s). */
  clockCorrectionMs: number
}

export type PlayerView = {
  schedule: KeptSchedule | null
  /** The item playing now, or null: the house card shows. */
  current: ScheduleItem | null
  /** The current item's file failed: the house card shows instead. */
  currentFailed: boolean
  status: PlayerStatus
}

const noReferrer = { referrerPolicy: 'no-referrer' } as const

/** The same play (a fetched schedule brings new objects for the plays it already had). */
const samePlay = (a: ScheduleItem | null, b: ScheduleItem | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.orderGuid === b.orderGuid &&
    a.slotNumber === b.slotNumber &&
    a.campaignId === b.campaignId &&
    a.playIndex === b.playIndex)

/** What names the play in its proof: a shout's order and slot, or a campaign (api-v1 `Play`). */
const playOf = (item: ScheduleItem) =>
  item.campaignId !== undefined
    ? { campaignId: item.campaignId }
    : { orderGuid: item.orderGuid ?? '', slotNumber: item.slotNumber ?? 0 }

export function createPlayerEngine(
  deviceId: string,
  token: string,
  onChange: (view: PlayerView) => void,
) {
  let schedule: KeptSchedule | null = null
  let current: ScheduleItem | null = null
  /** The play on screen: when it started and whether its file showed. */
  let onScreen: {
    item: ScheduleItem
    startedAtEpochMs: number
    shown: boolean
    failed: boolean
  } | null = null
  const failedUrls = new Set<string>()
  const status: PlayerStatus = {
    failedFiles: 0,
    pendingPlays: 0,
    syncedAtEpochMs: null,
    tokenRefused: false,
    cachedFiles: 0,
    clockCorrectionMs: 0,
  }
  /** The wall clock the player plays by: its own, corrected to the server's. */
  const now = () => Date.now() + status.clockCorrectionMs
  let tickTimer: ReturnType<typeof setTimeout> | undefined
  let refreshTimer: ReturnType<typeof setTimeout> | undefined
  let sendTimer: ReturnType<typeof setTimeout> | undefined
  let beatTimer: ReturnType<typeof setTimeout> | undefined
  let sending = false
  let stopped = false

  const emit = () =>
    onChange({ schedule, current, currentFailed: onScreen?.failed ?? false, status: { ...status } })
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' }

  function fileFailed(url: string) {
    if (failedUrls.has(url)) return
    failedUrls.add(url)
    status.failedFiles = failedUrls.size
  }

  async function cacheFiles(items: readonly ScheduleItem[]) {
    const cache = await caches.open(PLAYER_CACHE_NAME)
    const wanted = new Set(items.map((i) => i.content.url))
    for (const url of wanted) {
      try {
        if (await cache.match(url)) continue
        const res = await fetch(url, noReferrer)
        if (!res.ok) throw new Error(`HTTP ${res.status}`)
        await cache.put(url, res)
        if (failedUrls.delete(url)) status.failedFiles = failedUrls.size
      } catch {
        if (navigator.onLine) fileFailed(url)
      }
    }
    // files of plays no longer kept leave the cache, so it holds one window's worth
    let cached = 0
    for (const request of await cache.keys()) {
      if (!wanted.has(request.url)) await cache.delete(request)
      else cached++
    }
    status.cachedFiles = cached
  }

  /**
   * One reading of the server's clock: the correction follows it (kept with the schedule). Whether it
   * changed: the window asked for by the wrong clock is then asked for again.
   */
  function measured(sentAtEpochMs: number, serverEpochMs: number): boolean {
    const offset = measuredClockOffset({
      sentAtEpochMs,
      receivedAtEpochMs: Date.now(),
      serverEpochMs,
    })
    const correction = clockCorrection(status.clockCorrectionMs, offset)
    if (correction === status.clockCorrectionMs) return false
    status.clockCorrectionMs = correction
    if (schedule) {
      schedule = { ...schedule, clockCorrectionMs: correction }
      void saveSchedule(deviceId, schedule)
    }
    emit()
    tick()
    return true
  }

  async function refresh() {
    clearTimeout(refreshTimer)
    refreshTimer = setTimeout(() => void refresh(), REFRESH_MS)
    // The same window all hour: the server answers every fetch of it from what it made for the first.
    const url = pathOf(player.schedule, { deviceId }, hourlyScheduleWindow(now()))
    let fresh: v.InferOutput<typeof ScheduleSchema>
    const sentAt = Date.now()
    try {
      const res = await fetch(url, { headers, cache: 'no-store', ...noReferrer })
      if (res.status === 401) {
        status.tokenRefused = true
        emit()
        return
      }
      if (!res.ok) return
      fresh = v.parse(ScheduleSchema, await res.json())
    } catch {
      return // offline or a bad answer: the kept schedule keeps playing
    }
    status.tokenRefused = false
    const corrected = measured(sentAt, fresh.generatedAtEpochMs)
    status.syncedAtEpochMs = now()
    schedule = {
      deviceId,
      timeZoneId: fresh.timeZoneId,
      house: fresh.house,
      items: mergeSchedule(schedule?.items ?? [], fresh, now() - MAX_WAIT_MS),
      fetchedAtEpochMs: fresh.generatedAtEpochMs,
      window: { fromEpochMs: fresh.fromEpochMs, toEpochMs: fresh.toEpochMs },
      clockCorrectionMs: status.clockCorrectionMs,
    }
    await saveSchedule(deviceId, schedule)
    emit()
    tick()
    if (corrected) void refresh()
    await cacheFiles(schedule.items)
    emit()
  }

  /** The play on screen has ended (or was cut short): its proof is kept until the server has it. */
  async function finish(ended: NonNullable<typeof onScreen>, atEpochMs: number) {
    if (!ended.shown || ended.failed) return
    const play: Play = {
      playId: crypto.randomUUID(),
      ...playOf(ended.item),
      playIndex: ended.item.playIndex,
      startedAtEpochMs: ended.startedAtEpochMs,
      endedAtEpochMs: Math.min(atEpochMs, ended.item.endEpochMs),
    }
    await addPendingPlay(deviceId, play)
    status.pendingPlays = (await readPendingPlays(deviceId)).length
    emit()
    scheduleSend(SEND_DELAY_MS)
  }

  function tick() {
    if (stopped) return
    clearTimeout(tickTimer)
    const at = now()
    const items = schedule?.items ?? []
    const next = itemAt(items, at)
    if (!samePlay(next, current)) {
      if (onScreen) void finish(onScreen, at)
      current = next
      onScreen = next ? { item: next, startedAtEpochMs: at, shown: false, failed: false } : null
      emit()
    }
    const change = nextChangeAt(items, at)
    const wait = change === null ? MAX_WAIT_MS : Math.min(MAX_WAIT_MS, Math.max(0, change - at))
    tickTimer = setTimeout(tick, wait)
  }

  function scheduleSend(delayMs: number) {
    if (sendTimer !== undefined) return
    sendTimer = setTimeout(() => {
      sendTimer = undefined
      void send()
    }, delayMs)
  }

  async function send() {
    if (sending || !navigator.onLine) return
    sending = true
    try {
      for (;;) {
        const batch = (await readPendingPlays(deviceId)).slice(0, MAX_PLAYS_PER_BATCH)
        if (batch.length === 0) break
        const res = await fetch(pathOf(player.plays, { deviceId }), {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ plays: batch }),
          ...noReferrer,
        })
        if (res.status === 401) status.tokenRefused = true
        if (!res.ok) break
        v.parse(PlaysAnswerSchema, await res.json())
        // accepted, duplicates and refused alike are settled: a refused play is counted by the server
        await removePendingPlays(deviceId, new Set(batch.map((p) => p.playId)))
      }
    } catch {
      // offline again: the plays stay kept, the next 'online' or play sends them
    } finally {
      sending = false
      status.pendingPlays = (await readPendingPlays(deviceId)).length
      emit()
      if (status.pendingPlays > 0 && !status.tokenRefused) scheduleSend(SEND_DELAY_MS)
    }
  }

  /** The heartbeat: the billboard's health as the player sees it; the answer measures its clock. */
  async function beat() {
    clearTimeout(beatTimer)
    beatTimer = setTimeout(() => void beat(), HEARTBEAT_INTERVAL_MS)
    if (stopped || !navigator.onLine) return
    const body: Heartbeat = {
      sentAtEpochMs: Date.now(),
      showing: !current
        ? { kind: 'house' }
        : current.campaignId !== undefined
          ? { kind: 'ad', campaignId: current.campaignId, playIndex: current.playIndex }
          : {
              kind: 'shout',
              orderGuid: current.orderGuid ?? '',
              slotNumber: current.slotNumber ?? 0,
              playIndex: current.playIndex,
            },
      clockCorrectionMs: status.clockCorrectionMs,
      window: schedule?.window ?? null,
      files: { cached: status.cachedFiles, failed: status.failedFiles },
      pendingPlays: status.pendingPlays,
      version: __APP_VERSION__,
      screen: {
        widthPx: Math.max(1, Math.round(window.innerWidth)),
        heightPx: Math.max(1, Math.round(window.innerHeight)),
      },
    }
    try {
      const res = await fetch(pathOf(player.heartbeat, { deviceId }), {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        ...noReferrer,
      })
      if (res.status === 401) {
        status.tokenRefused = true
        emit()
      }
      if (!res.ok) return
      const answer = v.parse(HeartbeatAnswerSchema, await res.json())
      if (measured(body.sentAtEpochMs, answer.serverEpochMs)) void refresh()
    } catch {
      // offline: the next beat tries again
    }
  }

  const onOnline = () => {
    void send()
    void refresh()
    void beat()
  }

  return {
    async start() {
      schedule = await readSchedule(deviceId)
      // offline after a reload, the kept correction still holds
      status.clockCorrectionMs = schedule?.clockCorrectionMs ?? 0
      status.pendingPlays = (await readPendingPlays(deviceId)).length
      emit()
      tick()
      window.addEventListener('online', onOnline)
      void send()
      void beat()
      await refresh()
    },
    stop() {
      stopped = true
      clearTimeout(tickTimer)
      clearTimeout(refreshTimer)
      clearTimeout(sendTimer)
      clearTimeout(beatTimer)
      window.removeEventListener('online', onOnline)
    },
    /** The wall clock the player plays by (its own, corrected to the server's). */
    now,
    /** The element of the play on screen showed its file. */
    shown(item: ScheduleItem) {
      if (onScreen && samePlay(onScreen.item, item)) onScreen.shown = true
    },
    /** The file of the play on screen failed: the house card shows instead, and it is counted. */
    failed(item: ScheduleItem) {
      fileFailed(item.content.url)
      if (onScreen && samePlay(onScreen.item, item)) onScreen.failed = true
      emit()
    },
  }
}

export type PlayerEngine = ReturnType<typeof createPlayerEngine>
