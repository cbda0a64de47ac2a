import type {
  Heartbeat,
  HeartbeatAnswer,
  Play,
  PlaysAnswer,
  Schedule,
  ScheduleItem,
  ScheduleQuery,
  ShoutPlay,
} from '../../contract/index.ts'
import { pathOf, player } from '../../contract/index.ts'
import { eventWindowEpochMs } from '../../domain/event.ts'
import {
  hourlyScheduleWindow,
  houseEventOf,
  houseLocale,
  matchesScheduledPlay,
  mayPlay,
  playHasAired,
  playsOfSlot,
  schedulePlays,
  scheduleWindow,
  slotRangeOfWindow,
  smilFeedHeld,
  smilScheduleWindow,
} from '../../domain/schedule.ts'
import type { AdItem, OnAir } from '../advertisers/on-air/on-air.ts'
import { type DeviceEvent, eventsOfDevice, playerDevice } from '../catalogue/reads.ts'
import { qrTargetUrl } from '../catalogue/service.ts'
import { type ConfirmedSlot, ordersForPlays } from '../order/reads.ts'
import type { SoldSlots } from '../order/sold-slots.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { newSecret, secretHash } from '../platform/secret.ts'
import { createWorkGate } from '../platform/work-gate.ts'
import type { DeviceNotFound, HouseCardError, PlayerError, ScheduleError } from './errors.ts'
import { billboardConsole } from './health.ts'
import { houseCardVersion, renderHouseCardPng } from './house-card.ts'
import { createPlayLogs } from './play-logs.ts'
import { createPlayoutCache } from './playout-cache.ts'
import {
  countRefusedPlays,
  deviceOfToken,
  insertPlays,
  playKey,
  publishSmil,
  replaceToken,
  saveHeartbeat,
  storedPlays,
} from './repo.ts'
import { createScheduleItems } from './schedule-items.ts'
import { type SmilPlaylist, scheduleSmil, servedSmil, TOKEN_MARK } from './smil.ts'

// Playout (api-v1 "Player"): a billboard's player token, its schedule (Confirmed orders
// only, from src/domain/schedule.ts) and its proof of play. Answers are results with typed errors;
// routes.ts gives each its status.

/** Distinct house cards kept drawn (one per billboard and event, while its content is the same). */
const HOUSE_CARDS_KEPT = 256
/** House cards drawn at once, and waiting, per server: past them a request is answered 429. */
const HOUSE_CARD_RENDERS = { running: 2, waiting: 4 }

export type PlayerDeps = {
  database: Database
  now: () => number
  /** PLAYER_CLOCK_SKEW_SECONDS, in ms: how far ahead of ours a billboard's clock may run. */
  clockSkewMs: number
  /** Told of each change of a billboard's sold slots or of their orders' states (playout-cache.ts). */
  soldSlots: SoldSlots
  /**
   * The shop's public origin for absolute URLs (content, QR entry): PUBLIC_BASE_URL, else the origin
   * the server listens on. Never a Host header a client sends (a forged one would point billboards
   * and their QR codes elsewhere).
   */
  origin: () => string
  /** BILLBOARD_OFFLINE_MINUTES: the silence after which a billboard is offline. */
  offlineMinutes?: number
  /** Counts each house card drawn, or turned away by a full gate (platform/metrics.ts). */
  onHouseCardRender?: (outcome: 'run' | 'refused') => void
  /** Campaigns on air (advertisers/on-air/on-air.ts): their plays in the schedule, their proofs. */
  onAir?: OnAir
}

export type PlayerService = ReturnType<typeof createPlayerService>

export function createPlayerService(deps: PlayerDeps) {
  const db = deps.database
  const origin = () => deps.origin().replace(/\/+$/, '')
  const absolute = (url: string) => (/^https?:\/\//.test(url) ? url : `${origin()}${url}`)

  /** The billboard the token opens, checked against the one asked for. */
  async function authenticate(
    deviceId: string,
    token: string | null,
  ): Promise<Result<null, PlayerError>> {
    if (!token) return err({ code: 'player_token_missing' })
    const owner = await deviceOfToken(db, secretHash(token))
    if (owner === deviceId) return ok(null)
    if (!(await playerDevice(db, deviceId))) return err({ code: 'device_not_found' })
    return err({ code: 'player_token_invalid' })
  }

  /**
   * `npm run player-link` and the console: a new token for the billboard; the old one
   * stops working. The answer carries the player's full address, the only place the token is shown.
   */
  async function link(
    deviceId: string,
    /** Runs in the same transaction (the console's audit row: both or neither). */
    alsoIn?: (tx: Queryable) => Promise<void>,
  ): Promise<Result<{ token: string; url: string }, PlayerError>> {
    if (!(await playerDevice(db, deviceId))) return err({ code: 'device_not_found' })
    const token = newSecret()
    await db.transaction(async (tx) => {
      await replaceToken(tx, deviceId, secretHash(token))
      await alsoIn?.(tx)
    })
    const url = `${origin()}/play/${encodeURIComponent(deviceId)}?token=${encodeURIComponent(token)}`
    return ok({ token, url })
  }

  const playout = createPlayoutCache(db, deps.now, deps.soldSlots)
  const merged = createScheduleItems()
  // The campaigns' items with absolute URLs, once per list on-air.ts hands out (the same until it changes)
  const withUrls = new WeakMap<readonly AdItem[], { origin: string; items: ScheduleItem[] }>()
  function adsWithUrls(ads: readonly AdItem[]): readonly ScheduleItem[] {
    const hit = withUrls.get(ads)
    if (hit && hit.origin === origin()) return hit.items
    const items = ads.map((ad) => ({
      ...ad,
      content: { ...ad.content, url: absolute(ad.content.url) },
    }))
    withUrls.set(ads, { origin: origin(), items })
    return items
  }
  // The plays of an event's Confirmed slots in a window, kept per slot list (the cache hands out the
  // same array until the slots change): a player asking again for the same window computes nothing.
  const computed = new WeakMap<readonly ConfirmedSlot[], Map<string, ScheduleItem[]>>()
  function playsOf(
    event: DeviceEvent,
    timeZoneId: string,
    sold: readonly ConfirmedSlot[],
    window: { fromEpochMs: number; toEpochMs: number },
  ): readonly ScheduleItem[] {
    let byWindow = computed.get(sold)
    if (!byWindow) {
      byWindow = new Map()
      computed.set(sold, byWindow)
    }
    const key = [
      event.startDateHourLocalInclusive,
      event.slotWidthMS,
      event.playsPerSlot,
      event.secondsPerShout,
      timeZoneId,
      window.fromEpochMs,
      window.toEpochMs,
      origin(),
    ].join('\u0000')
    let items = byWindow.get(key)
    if (!items) {
      items = schedulePlays({ event, timeZoneId, sold, ...window }).map((play) => ({
        ...play,
        content: { ...play.content, url: absolute(play.content.url) },
      }))
      if (byWindow.size >= 16) byWindow.clear()
      byWindow.set(key, items)
    }
    return items
  }

  async function schedule(
    deviceId: string,
    query: Pick<ScheduleQuery, 'fromEpochMs' | 'toEpochMs'>,
  ): Promise<Result<Schedule, ScheduleError>> {
    const now = deps.now()
    const window = scheduleWindow(query, now)
    if ('problem' in window)
      return err({ code: 'schedule_window_invalid', problem: window.problem })
    return scheduleIn(deviceId, window, now)
  }

  /** The schedule of a window already checked (scheduleWindow's, or one made here). */
  async function scheduleIn(
    deviceId: string,
    window: { fromEpochMs: number; toEpochMs: number },
    now = deps.now(),
  ): Promise<Result<Schedule, DeviceNotFound>> {
    const device = await playout.device(deviceId)
    if (!device) return err({ code: 'device_not_found' })
    const events = await playout.events(deviceId)
    const house = houseEventOf(events, device.timeZoneId, window.fromEpochMs)
    if (!house) return err({ code: 'device_not_found' })

    const pieces: (readonly ScheduleItem[])[] = []
    for (const event of events) {
      const span = eventWindowEpochMs(event, device.timeZoneId)
      if (span.endEpochMs <= window.fromEpochMs || span.startEpochMs >= window.toEpochMs) continue
      const range = slotRangeOfWindow(
        event,
        span.startEpochMs,
        window.fromEpochMs,
        window.toEpochMs,
      )
      const sold = await playout.confirmedSlots(event.slug, deviceId, range.first, range.last)
      pieces.push(playsOf(event, device.timeZoneId, sold, window))
    }
    // Campaigns' plays, read on every fetch (a pause shows at the next one), in the ad cells only:
    // never a shout's place, sold or not (src/domain/ad-playout.ts)
    if (deps.onAir) {
      const ads = await deps.onAir.items(
        {
          deviceId,
          timeZoneId: device.timeZoneId,
          widthPx: device.widthPx,
          heightPx: device.heightPx,
          events,
        },
        window,
      )
      pieces.push(adsWithUrls(ads))
    }
    const items = merged.of(
      `${deviceId}\u0000${window.fromEpochMs}\u0000${window.toEpochMs}\u0000${origin()}`,
      pieces,
    )

    return ok({
      deviceId,
      timeZoneId: device.timeZoneId,
      widthPx: device.widthPx,
      heightPx: device.heightPx,
      fromEpochMs: window.fromEpochMs,
      toEpochMs: window.toEpochMs,
      generatedAtEpochMs: now,
      house: {
        eventSlug: house.slug,
        eventName: house.name,
        locale: houseLocale(device.country),
        valueCentsPerSlot: house.valueCentsPerSlot,
        currency: house.currency,
        shopUrl: qrTargetUrl(origin(), house.slug, deviceId),
      },
      items,
    })
  }

  /**
   * Proof of play (api-v1): a play already stored (by its playId, or the same play of the same slot of
   * the order under another id), or repeated in the batch, is a duplicate; a play that matches nothing
   * scheduled for this billboard (another billboard's order, a slot not sold, an order that may not
   * play, a time far off) or that has not aired yet by our clock is refused and counted, never stored.
   */
  async function recordPlays(
    deviceId: string,
    all: readonly Play[],
  ): Promise<Result<PlaysAnswer, DeviceNotFound>> {
    const device = await playerDevice(db, deviceId)
    if (!device) return err({ code: 'device_not_found' })
    // A campaign's plays are the advertisers' (ad_plays): proven through their module
    const adProofs = all.flatMap((p) =>
      p.campaignId !== undefined ? [{ ...p, campaignId: p.campaignId }] : [],
    )
    const plays = all.filter((p): p is ShoutPlay => p.campaignId === undefined)
    const ads = deps.onAir
      ? await deps.onAir.prove(deviceId, adProofs, deps.clockSkewMs)
      : { accepted: 0, duplicates: 0, refused: adProofs.length }
    const stored = await storedPlays(db, plays)
    const seenIds = new Set<string>()
    const seenKeys = new Set<string>()
    let duplicates = 0
    const fresh: ShoutPlay[] = []
    for (const play of plays) {
      const key = playKey(play)
      const repeated =
        stored.ids.has(play.playId) ||
        stored.keys.has(key) ||
        seenIds.has(play.playId) ||
        seenKeys.has(key)
      if (repeated) duplicates++
      else fresh.push(play)
      seenIds.add(play.playId)
      seenKeys.add(key)
    }

    const orders = new Map(
      (await ordersForPlays(db, [...new Set(fresh.map((p) => p.orderGuid))])).map((o) => [
        o.guid,
        o,
      ]),
    )
    const events = new Map((await eventsOfDevice(db, deviceId)).map((e) => [e.slug, e]))
    const now = deps.now()
    const matching: ShoutPlay[] = []
    let refused = 0
    for (const play of fresh) {
      const order = orders.get(play.orderGuid)
      const event = order ? events.get(order.eventSlug) : undefined
      const scheduled =
        order &&
        event &&
        order.deviceId === deviceId &&
        mayPlay(order.state) &&
        order.slotNumbers.includes(play.slotNumber)
          ? playsOfSlot(event, device.timeZoneId, play.slotNumber)[play.playIndex]
          : undefined
      if (
        scheduled &&
        matchesScheduledPlay(play, {
          orderGuid: play.orderGuid,
          slotNumber: play.slotNumber,
          ...scheduled,
        }) &&
        playHasAired(play, scheduled.startEpochMs, now, deps.clockSkewMs)
      ) {
        matching.push(play)
      } else refused++
    }
    const accepted = await insertPlays(db, deviceId, matching)
    // A play another request stored between the check and the insert is a duplicate too.
    duplicates += matching.length - accepted
    await countRefusedPlays(db, deviceId, refused + ads.refused)
    return ok({
      accepted: accepted + ads.accepted,
      duplicates: duplicates + ads.duplicates,
      refused: refused + ads.refused,
    })
  }

  // A card changes only with the catalogue: rendered once per billboard, event and content (about
  // 150 ms of CPU each), the least recently asked dropped past HOUSE_CARDS_KEPT. The endpoint is
  // public: renders (cache misses) pass a small server-wide gate, and past it the caller is told to
  // come back (429) rather than queued, so no flood holds the image workers real shoppers' photos need.
  const cards = new Map<string, Promise<Buffer | null>>()
  const renders = createWorkGate(HOUSE_CARD_RENDERS)
  async function houseCardPng(deviceId: string): Promise<Result<Buffer, HouseCardError>> {
    const nowMs = deps.now()
    const current = await scheduleIn(deviceId, { fromEpochMs: nowMs, toEpochMs: nowMs + 1 })
    if (!current.ok) return current
    const { house, widthPx, heightPx } = current.value
    const key = `${deviceId}\n${house.eventSlug}\n${houseCardVersion(house, widthPx, heightPx)}`
    const kept = cards.get(key)
    if (kept) {
      // the most recently asked goes last: the first in the map is the one dropped
      cards.delete(key)
      cards.set(key, kept)
      const png = await kept
      return png ? ok(png) : err({ code: 'house_card_busy' })
    }
    // requests for a card being drawn wait for that drawing
    const drawing = renders
      .run(async () => {
        deps.onHouseCardRender?.('run')
        return renderHouseCardPng(house, widthPx, heightPx)
      })
      .then((gated) => (gated.ok ? gated.value : null))
    if (cards.size >= HOUSE_CARDS_KEPT) {
      const oldest = cards.keys().next().value
      if (oldest !== undefined) cards.delete(oldest)
    }
    cards.set(key, drawing)
    const png = await drawing.catch((error: unknown) => {
      cards.delete(key)
      throw error
    })
    if (!png) {
      // turned away: the next request tries again
      if (cards.get(key) === drawing) cards.delete(key)
      deps.onHouseCardRender?.('refused')
      return err({ code: 'house_card_busy' })
    }
    return ok(png)
  }

  /** The schedule as SMIL 3.0 (smil.ts) with its validators: the document as published (repo.ts). */
  async function smil(
    deviceId: string,
    query: Pick<ScheduleQuery, 'fromEpochMs' | 'toEpochMs'>,
    token: string, // the one it fetched with: its play logs are sent with it
  ): Promise<Result<SmilPlaylist & { lastModifiedEpochMs: number }, ScheduleError>> {
    const window = smilScheduleWindow(query, deps.now())
    if ('problem' in window)
      return err({ code: 'schedule_window_invalid', problem: window.problem })
    const found = await scheduleIn(deviceId, window)
    if (!found.ok) return found
    // the card of the hour's event (the window may start 12 h before): a new event's from its hour
    const hour = query.fromEpochMs ?? hourlyScheduleWindow(deps.now()).fromEpochMs
    const atHour = await scheduleIn(deviceId, { fromEpochMs: hour, toEpochMs: hour + 1 })
    const { house, widthPx, heightPx } = atHour.ok ? atHour.value : found.value
    const card = `${origin()}${pathOf(player.houseCard, { deviceId }, { v: houseCardVersion(house, widthPx, heightPx) })}`
    // the document is kept without the token (a secret: never stored), put in when served
    const playLogAction = `${origin()}${pathOf(player.playLog, { deviceId, token: TOKEN_MARK, fileName: '-' }).slice(0, -2)}`
    const popEndpoint = `${origin()}${pathOf(player.popReports, { deviceId }, { token: TOKEN_MARK })}`
    const candidate = scheduleSmil({ ...found.value, house }, card, { playLogAction, popEndpoint })
    // the one published before while a sold play is on screen or near (domain smilFeedHeld)
    const windowKey = `${query.fromEpochMs ?? ''}:${query.toEpochMs ?? ''}`
    const held = smilFeedHeld(found.value.items, deps.now())
    const published = await publishSmil(db, deviceId, { ...candidate, windowKey }, held, deps.now())
    // a SMIL player's fetches (GET or HEAD, every Refresh) are its heartbeats
    await saveHeartbeat(db, {
      deviceId,
      source: 'smil',
      seenAtEpochMs: deps.now(),
      clockOffsetMs: null,
      beat: null,
    })
    return ok({ ...servedSmil(published, token), lastModifiedEpochMs: published.modifiedAtEpochMs })
  }

  /**
   * The web player's heartbeat: kept as the billboard's last report, with the server's reading of its
   * clock (the server's time minus the player's at sending: off by the request's one-way trip). The
   * answer carries the server's time, against which the player corrects its own.
   */
  async function heartbeat(
    deviceId: string,
    beat: Heartbeat,
  ): Promise<Result<HeartbeatAnswer, DeviceNotFound>> {
    if (!(await playerDevice(db, deviceId))) return err({ code: 'device_not_found' })
    const now = deps.now()
    await saveHeartbeat(db, {
      deviceId,
      source: 'web',
      seenAtEpochMs: now,
      clockOffsetMs: now - beat.sentAtEpochMs,
      beat,
      playerKind: 'web',
    })
    return ok({ serverEpochMs: now })
  }

  const { health, week } = billboardConsole(deps)

  const playLogs = createPlayLogs({ ...deps, schedule, recordPlays })

  return {
    authenticate,
    link,
    schedule,
    smil,
    houseCardPng,
    recordPlays,
    heartbeat,
    health,
    week,
    playLog: playLogs.fromReport,
    popReports: playLogs.fromPopReports,
  }
}
