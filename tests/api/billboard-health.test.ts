import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { billboards } from '../../src/contract/billboards.ts'
import type { Heartbeat } from '../../src/contract/index.ts'
import { slotEndEpochMs, slotStartEpochMs } from '../../src/domain/index.ts'
import { createManualClock } from '../../src/server/platform/clock.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  client,
  daySlots,
  eventOf,
  generateContent,
  LIVE,
  proofsOfSlot,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'

// The console's Billboards page: each billboard's state from its last report and where it stands,
// as an operator reads it (api-v1 "Operations", GET /ops/billboard-health).
const WEB = 'paris-opera-1'
const SMIL = 'paris-republique'

describe.each(BACKENDS)('the console’s billboards on %s', (backend) => {
  let server: TestServer
  let clock = Date.UTC(2027, 4, 7, 8, 0, 0)
  const tokens: Record<string, string> = {}

  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock })
    for (const device of [WEB, SMIL]) {
      const linked = await server.deps.player.link(device)
      if (!linked.ok) throw new Error('link failed')
      tokens[device] = linked.value.token
    }
  })
  afterAll(async () => {
    await server?.stop()
  })

  const beat: Heartbeat = {
    sentAtEpochMs: 0,
    showing: { kind: 'house' },
    clockCorrectionMs: 0,
    window: null,
    files: { cached: 3, failed: 1 },
    pendingPlays: 2,
    version: '1.2.3',
    screen: { widthPx: 1400, heightPx: 400 },
  }

  it('shows one billboard playing, one offline since its last fetch, the others never connected', async () => {
    const api = client(server.url)
    // the SMIL player fetched its playlist, then went quiet for 11 minutes
    const smil = `${server.url}/api/v1/player/${SMIL}/schedule.smil?token=${tokens[SMIL]}`
    expect((await fetch(smil)).status).toBe(200)
    const smilSeen = clock
    clock += 11 * 60_000
    // the web player's clock is 5 s slow
    const sent = { ...beat, sentAtEpochMs: clock - 5_000 }
    const beaten = await api.post(`/player/${WEB}/heartbeat`, sent, {
      authorization: `Bearer ${tokens[WEB]}`,
    })
    expect(beaten.status).toBe(200)

    const reviewer = await signedInOperator(server, 'reviewer')
    const res = answerOf(billboards.health, await reviewer.api.get('/ops/billboard-health'))
    expect(res.offlineMinutes).toBe(10)
    expect(res.generatedAtEpochMs).toBe(clock)
    const of = (id: string) => res.billboards.find((b) => b.deviceId === id)
    expect(of(WEB)).toMatchObject({
      state: 'playing',
      lastSeenEpochMs: clock,
      source: 'web',
      clockOffsetMs: 5_000,
      beat: {
        showing: { kind: 'house' },
        files: { cached: 3, failed: 1 },
        pendingPlays: 2,
        version: '1.2.3',
        screen: { widthPx: 1400, heightPx: 400 },
      },
    })
    expect(of(SMIL)).toMatchObject({
      state: 'offline',
      lastSeenEpochMs: smilSeen,
      source: 'smil',
      clockOffsetMs: null,
      beat: null,
    })
    // where each stands, for the fleet's map
    for (const b of res.billboards) {
      expect(b.coordinates?.lat).toEqual(expect.any(Number))
      expect(b.coordinates?.lng).toEqual(expect.any(Number))
    }
    const others = res.billboards.filter((b) => b.deviceId !== WEB && b.deviceId !== SMIL)
    expect(others.length).toBeGreaterThan(0)
    for (const other of others)
      expect(other).toMatchObject({ state: 'never', lastSeenEpochMs: null })

    // three minutes late for its minute's beat, the web player is stale
    clock += 3 * 60_000 + 1
    const later = answerOf(billboards.health, await reviewer.api.get('/ops/billboard-health'))
    expect(later.billboards.find((b) => b.deviceId === WEB)?.state).toBe('stale')
  })

  it('is for operators only', async () => {
    const anonymous = await client(server.url).get('/ops/billboard-health', {
      origin: server.url,
    })
    expect(anonymous.status).toBe(401)
  })
})

// A billboard's own page: its last 7 days (uptime, sold plays due, proven and missed), its newest
// proofs and its outages with their duration (GET /ops/billboard-health/{deviceId}/week), after a
// real order, the billboard's real reports and the outage job, on a manual clock.
describe.each(BACKENDS)('a billboard’s last 7 days on %s', (backend) => {
  const MINUTE = 60_000
  const PARIS = 'Europe/Paris'
  const DEVICE = 'paris-opera-1'
  const clock = createManualClock(Date.now())
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer(backend, { clock, now: () => clock.now() })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('shows the day it went dark with its uptime, its proven and missed plays, its proofs and the outage’s duration', async () => {
    const api = client(server.url)
    const event = await eventOf(api, LIVE)
    const [first, second] = daySlots(2, 40, 2) as [number, number]
    const order = await boughtOrder(api, {
      slots: [first, second],
      content: await generateContent(api),
    })
    expect(order.state).toBe('Confirmed')
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    const auth = { authorization: `Bearer ${linked.value.token}` }
    const beat = async () => {
      const sent: Heartbeat = {
        sentAtEpochMs: clock.now(),
        showing: { kind: 'house' },
        clockCorrectionMs: 0,
        window: null,
        files: { cached: 3, failed: 0 },
        pendingPlays: 0,
        version: '1.0.0',
        screen: { widthPx: 1920, heightPx: 1080 },
      }
      expect((await api.post(`/player/${DEVICE}/heartbeat`, sent, auth)).status).toBe(200)
    }
    const outages = async () => {
      await server.deps.jobs.idle()
      await server.deps.jobs.runNow('billboard-outages')
    }
    // signed in at each look: the manual clock runs past a session's life
    const week = async () => {
      const reviewer = await signedInOperator(server, 'reviewer')
      const res = answerOf(
        billboards.week,
        await reviewer.api.get(`/ops/billboard-health/${DEVICE}/week`),
      )
      return res
    }

    // it reports 30 minutes before the first sold slot, then falls silent for 11 minutes
    clock.advance(slotStartEpochMs(event, PARIS, first) - 30 * MINUTE - clock.now())
    await beat()
    const lastSeen = clock.now()
    clock.advance(11 * MINUTE)
    await outages()
    const dark = await week()
    expect(dark.timeZoneId).toBe(PARIS)
    expect(dark.outages).toEqual([
      { fromEpochMs: lastSeen, toEpochMs: null, durationMs: 11 * MINUTE, missedPlays: null },
    ])

    // back as the first slot ends (its plays missed), it proves the second slot’s plays
    clock.advance(slotEndEpochMs(event, PARIS, first) - clock.now())
    await beat()
    const backAt = clock.now()
    await outages()
    const proven = proofsOfSlot(event, PARIS, order.guid, second, { start: 30, end: 10 })
    clock.advance(slotEndEpochMs(event, PARIS, second) + MINUTE - clock.now())
    await beat()
    expect((await api.post(`/player/${DEVICE}/plays`, { plays: proven }, auth)).body).toMatchObject(
      {
        accepted: proven.length,
      },
    )

    const got = await week()
    expect(got.generatedAtEpochMs).toBe(clock.now())
    const today = new Date(clock.now()).toLocaleDateString('sv-SE', { timeZone: PARIS })
    expect(got.days).toHaveLength(7)
    expect(got.days.at(-1)?.day).toBe(today)
    const perSlot = proven.length
    expect(got.days.at(-1)?.plays).toEqual({ due: 2 * perSlot, proven: perSlot, missed: perSlot })
    // the day so far, less the dark stretch, in whole percent rounded down
    const sinceMidnight = clock.now() - dayStartOf(clock.now(), PARIS)
    const share = Math.floor((100 * (sinceMidnight - (backAt - lastSeen))) / sinceMidnight)
    expect(got.days.at(-1)?.uptimePercent).toBe(share)
    expect(got.days.slice(0, 6).every((d) => d.plays.due === 0)).toBe(true)
    expect(got.proofs.map((p) => p.startedAtEpochMs)).toEqual(
      proven.map((p) => p.startedAtEpochMs).reverse(),
    )
    expect(got.proofs.every((p) => p.orderGuid === order.guid)).toBe(true)
    expect(got.outages).toEqual([
      {
        fromEpochMs: lastSeen,
        toEpochMs: backAt,
        durationMs: backAt - lastSeen,
        missedPlays: perSlot,
      },
    ])
  })

  it('answers 404 for a billboard that does not exist, 401 without a session', async () => {
    const reviewer = await signedInOperator(server, 'reviewer')
    expect((await reviewer.api.get('/ops/billboard-health/nowhere-1/week')).status).toBe(404)
    const anonymous = await client(server.url).get(`/ops/billboard-health/${DEVICE}/week`, {
      origin: server.url,
    })
    expect(anonymous.status).toBe(401)
  })
})

/** The instant the local day holding `epochMs` began in `zone`. */
function dayStartOf(epochMs: number, zone: string): number {
  const local = new Date(epochMs).toLocaleString('sv-SE', { timeZone: zone, hour12: false })
  const asUtc = Date.parse(`${local.replace(' ', 'T')}Z`)
  const offset = asUtc - epochMs
  return Date.parse(`${local.slice(0, 10)}T00:00:00Z`) - offset
}
