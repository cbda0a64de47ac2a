import * as v from 'valibot'
import { pathOf } from '../../contract/endpoint'
import {
  MAX_PLAYS_PER_BATCH,
  type Play,
  PlaysAnswerSchema,
  player,
  type ScheduleItem,
  ScheduleSchema,
} from '../../contract/player'
import { PLAYER_CACHE_NAME } from '../../contract/sw'
import { itemAt, mergeSchedule, nextChangeAt } from '../../domain/playout'
import { DEFAULT_SCHEDULE_WINDOW_MS } from '../../domain/schedule'
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
    a.playIndex === b.playIndex)

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
  }
  let tickTimer: ReturnType<typeof setTimeout> | undefined
  let refreshTimer: ReturnType<typeof setTimeout> | undefined
  let sendTimer: ReturnType<typeof setTimeout> | undefined
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
    for (const request of await cache.keys()) {
      if (!wanted.has(request.url)) await cache.delete(request)
    }
  }

  async function refresh() {
    clearTimeout(refreshTimer)
    refreshTimer = setTimeout(() => void refresh(), REFRESH_MS)
    const from = Date.now()
    const url = pathOf(
      player.schedule,
      { deviceId },
      {
        fromEpochMs: from,
        toEpochMs: from + DEFAULT_SCHEDULE_WINDOW_MS,
      },
    )
    let fresh: v.InferOutput<typeof ScheduleSchema>
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
    status.syncedAtEpochMs = Date.now()
    schedule = {
      deviceId,
      timeZoneId: fresh.timeZoneId,
      house: fresh.house,
      items: mergeSchedule(schedule?.items ?? [], fresh, Date.now() - MAX_WAIT_MS),
      fetchedAtEpochMs: fresh.generatedAtEpochMs,
    }
    await saveSchedule(deviceId, schedule)
    emit()
    tick()
    await cacheFiles(schedule.items)
    emit()
  }

  /** The play on screen has ended (or was cut short): its proof is kept until the server has it. */
  async function finish(ended: NonNullable<typeof onScreen>, atEpochMs: number) {
    if (!ended.shown || ended.failed) return
    const play: Play = {
      playId: crypto.randomUUID(),
      orderGuid: ended.item.orderGuid,
      slotNumber: ended.item.slotNumber,
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
    const now = Date.now()
    const items = schedule?.items ?? []
    const next = itemAt(items, now)
    if (!samePlay(next, current)) {
      if (onScreen) void finish(onScreen, now)
      current = next
      onScreen = next ? { item: next, startedAtEpochMs: now, shown: false, failed: false } : null
      emit()
    }
    const change = nextChangeAt(items, now)
    const wait = change === null ? MAX_WAIT_MS : Math.min(MAX_WAIT_MS, Math.max(0, change - now))
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

  const onOnline = () => {
    void send()
    void refresh()
  }

  return {
    async start() {
      schedule = await readSchedule(deviceId)
      status.pendingPlays = (await readPendingPlays(deviceId)).length
      emit()
      tick()
      window.addEventListener('online', onOnline)
      void send()
      await refresh()
    },
    stop() {
      stopped = true
      clearTimeout(tickTimer)
      clearTimeout(refreshTimer)
      clearTimeout(sendTimer)
      window.removeEventListener('online', onOnline)
    },
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
