import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import type { OrderSummary, PlayAlertPayload } from '../../src/contract/index.ts'
import { order as orderEndpoints } from '../../src/contract/order.ts'
import { player } from '../../src/contract/player.ts'
import { push } from '../../src/contract/push.ts'
import { createManualClock, type ManualClock } from '../../src/server/platform/clock.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  type ContentSource,
  client,
  daySlots,
  generateContent,
  LIVE,
  proofsOfSlot,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { clientWith, signedInOperator } from './ops-helpers.ts'
import { type PushStandIn, startPushStandIn } from './push-stand-in.ts'

// "Tell me when it plays": a shopper's browser subscribes to an order's alerts, and a push service
// (the stand-in on loopback, which decrypts what it receives with the subscription's own keys)
// receives, on the test's clock, "plays soon" five minutes before each slot and "it played" once the
// billboard proved the slot's first play: each once, in the shopper's language, at the billboard's
// local time. A gone browser (410) is forgotten; a cancelled order tells nothing.

const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'
const POLL_MS = 30_000
/** How far ahead of the server's clock a billboard's may run (PLAYER_CLOCK_SKEW_SECONDS). */
const SKEW_MS = 120_000
type Content = { key: string; source: ContentSource }

describe.each(BACKENDS)('play alerts on %s', (backend) => {
  let standIn: PushStandIn
  let server: TestServer
  let clock: ManualClock
  let api: Client
  let shop: Client
  let content: Content

  beforeAll(async () => {
    clock = createManualClock(Date.now())
    standIn = await startPushStandIn(() => clock.now())
    server = await startTestServer(backend, {
      clock,
      now: () => clock.now(),
      pushAgent: standIn.agent,
      env: {
        PUSH_SERVICE_HOSTS: standIn.host,
        PUSH_POLL_SECONDS: String(POLL_MS / 1000),
        PLAYER_CLOCK_SKEW_SECONDS: String(SKEW_MS / 1000),
      },
    })
    api = client(server.url)
    // the shop's own pages: a change to an order's alerts must come from them
    shop = clientWith(server.url, { origin: server.url })
    content = await generateContent(api)
  })
  afterAll(async () => {
    await server?.stop()
    await standIn?.close()
  })

  const paths = (guid: string) => `/order/events/${LIVE}/orders/${guid}/push-subscriptions`

  async function buy(slots: number[], locale: 'en' | 'fr' | 'de' = 'en') {
    const order = await boughtOrder(api, { slots, content, locale })
    expect(order.state).toBe('Confirmed')
    const summary = answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${order.guid}`),
    )
    return summary
  }

  async function subscribe(guid: string, locale: 'en' | 'fr' | 'de') {
    const browser = standIn.subscribe()
    const { id: _, ...json } = browser
    const made = answerOf(push.subscribe, await shop.post(paths(guid), { ...json, locale }))
    return { browser, id: made.id }
  }

  /**
   * Moves the clock in steps of the job's interval, each pass finished before the next step; `between`
   * runs before each step (a billboard posting what it played).
   */
  async function stepUntil(endEpochMs: number, between?: () => Promise<void>) {
    while (clock.now() < endEpochMs) {
      await between?.()
      clock.advance(POLL_MS)
      await server.deps.jobs.idle()
    }
  }

  /** Puts the job's passes on the grid `at - k·POLL_MS`: one pass exactly at `at`. */
  async function jumpBefore(atEpochMs: number) {
    await server.deps.jobs.idle()
    clock.advance(atEpochMs - 2 * POLL_MS - clock.now())
    await server.deps.jobs.idle()
  }

  it('an order of two slots: "plays soon" 5 minutes before each, "it played" once proven, in French', async () => {
    const [a, b] = [daySlots(2, 40, 1)[0] as number, daySlots(2, 44, 1)[0] as number]
    const order = await buy([a, b], 'fr')
    const { browser } = await subscribe(order.guid, 'fr')
    const listed = answerOf(push.subscriptions, await api.get(paths(order.guid)))
    expect(listed.subscriptions.map((s) => [s.id, s.locale])).toEqual([[expect.any(String), 'fr']])

    // the billboard proves both slots (each play 40 ms after its planned start), as it plays them: a
    // proof is taken once its play has ended by the server's clock (give or take the billboard's
    // allowed skew, PLAYER_CLOCK_SKEW_SECONDS), so each is posted in the step before the pass that
    // first sees its start
    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    const plays = [a, b].flatMap((n) =>
      proofsOfSlot(event, PARIS, order.guid, n, { start: 40, end: 20 }),
    )
    let unposted = plays
    let accepted = 0
    const billboardPosts = async () => {
      const due = unposted.filter(
        (p) =>
          p.startedAtEpochMs <= clock.now() + POLL_MS && p.endedAtEpochMs <= clock.now() + SKEW_MS,
      )
      if (due.length === 0) return
      unposted = unposted.filter((p) => !due.includes(p))
      const posted = answerOf(
        player.plays,
        await api.post(
          `/player/${DEVICE}/plays`,
          { plays: due },
          { authorization: `Bearer ${linked.value.token}` },
        ),
      )
      accepted += posted.accepted
    }

    const [slotA, slotB] = order.slots as [OrderSummary['slots'][0], OrderSummary['slots'][0]]
    const before = standIn.received().length
    await jumpBefore(slotA.startEpochMs - 5 * 60_000)
    await stepUntil(slotB.endEpochMs + 10 * 60_000, billboardPosts)
    expect([unposted.length, accepted]).toEqual([0, plays.length])

    const time = (ms: number) =>
      new Intl.DateTimeFormat('fr-FR', { timeStyle: 'short', timeZone: PARIS }).format(ms)
    const firstPlay = (slot: number) =>
      Math.min(...plays.filter((p) => p.slotNumber === slot).map((p) => p.startedAtEpochMs))
    // "it played" leaves with the first pass after the proof's instant
    const passAfter = (ms: number) =>
      slotA.startEpochMs -
      5 * 60_000 +
      Math.ceil((ms - (slotA.startEpochMs - 5 * 60_000)) / POLL_MS) * POLL_MS
    const url = `/fr/${LIVE}/order/confirmation?order=${order.guid}`
    const got = standIn.received().slice(before)
    expect(standIn.refused()).toEqual([])
    expect(
      got.map((m) => {
        const p = m.json as PlayAlertPayload
        return [m.subscription, m.atEpochMs, p.kind, p.title, p.body, p.url, p.tag, m.urgency]
      }),
    ).toEqual([
      [
        browser.id,
        slotA.startEpochMs - 5 * 60_000,
        'soon',
        `Votre shout passe à ${time(slotA.startEpochMs)}`,
        "Sur Place de l'Opéra, facing Boulevard Haussmann, Paris — levez les yeux\u202f!",
        url,
        `${order.guid}:${a}`,
        'high',
      ],
      [
        browser.id,
        passAfter(firstPlay(a)),
        'played',
        'Il est passé\u202f!',
        `Votre shout est passé à ${time(firstPlay(a))} sur Place de l'Opéra, facing Boulevard Haussmann, Paris.`,
        url,
        `${order.guid}:${a}`,
        'normal',
      ],
      [
        browser.id,
        slotB.startEpochMs - 5 * 60_000,
        'soon',
        `Votre shout passe à ${time(slotB.startEpochMs)}`,
        "Sur Place de l'Opéra, facing Boulevard Haussmann, Paris — levez les yeux\u202f!",
        url,
        `${order.guid}:${b}`,
        'high',
      ],
      [
        browser.id,
        passAfter(firstPlay(b)),
        'played',
        'Il est passé\u202f!',
        `Votre shout est passé à ${time(firstPlay(b))} sur Place de l'Opéra, facing Boulevard Haussmann, Paris.`,
        url,
        `${order.guid}:${b}`,
        'normal',
      ],
    ])
    // a "plays soon" is worth nothing once the slot began: its TTL ends then
    expect(got[0]?.ttlSeconds).toBe(300)
    // signed with the key browsers subscribe with
    const key = answerOf(push.key, await api.get('/push/key'))
    expect(new Set(got.map((m) => m.vapidKey))).toEqual(new Set([key.publicKey]))
  })

  it('a browser gone from its push service (410) is forgotten; the other still hears', async () => {
    const slot = daySlots(3, 40, 1)
    const order = await buy(slot)
    const gone = await subscribe(order.guid, 'en')
    const kept = await subscribe(order.guid, 'de')
    standIn.answer(gone.browser.id, 410)
    const before = standIn.received().length
    const start = order.slots[0]?.startEpochMs as number
    await jumpBefore(start - 5 * 60_000)
    await stepUntil(start - 5 * 60_000)

    const got = standIn.received().slice(before)
    expect(got.map((m) => [m.subscription, (m.json as PlayAlertPayload).title])).toEqual([
      [
        kept.browser.id,
        `Dein Shout läuft um ${new Intl.DateTimeFormat('de-DE', { timeStyle: 'short', timeZone: PARIS }).format(start)}`,
      ],
    ])
    const listed = answerOf(push.subscriptions, await api.get(paths(order.guid)))
    expect(listed.subscriptions.map((s) => s.id)).toEqual([kept.id])
  })

  it('a push service that is busy (429) gets the alert again on the next pass, once', async () => {
    const order = await buy(daySlots(4, 40, 1))
    const { browser } = await subscribe(order.guid, 'en')
    standIn.answer(browser.id, 429)
    const before = standIn.received().length
    const start = order.slots[0]?.startEpochMs as number
    await jumpBefore(start - 5 * 60_000)
    await stepUntil(start)
    const got = standIn.received().slice(before)
    expect(got.map((m) => [m.atEpochMs, (m.json as PlayAlertPayload).kind])).toEqual([
      [start - 5 * 60_000 + POLL_MS, 'soon'],
    ])
  })

  it('a cancelled order tells nothing and keeps no browser; none may subscribe to it', async () => {
    const order = await buy(daySlots(5, 40, 1))
    await subscribe(order.guid, 'en')
    const admin = await signedInOperator(server, 'admin')
    const cancelled = await admin.api.post(`/ops/orders/${order.guid}/cancel`, { reason: 'x' })
    expect(cancelled.status).toBe(200)
    const before = standIn.received().length
    const start = order.slots[0]?.startEpochMs as number
    await jumpBefore(start - 5 * 60_000)
    await stepUntil(start + 10 * 60_000)
    expect(standIn.received().slice(before)).toEqual([])
    const listed = answerOf(push.subscriptions, await api.get(paths(order.guid)))
    expect(listed.subscriptions).toEqual([])
    const { id: _, ...browser } = standIn.subscribe()
    const again = await shop.post(paths(order.guid), { ...browser, locale: 'en' })
    expect(again.status).toBe(409)
    expect((again.body as { codes: string[] }).codes).toEqual(['play_alerts_closed'])
  })

  it('turns alerts on and off from the shop only, for known push services and orders', async () => {
    const order = await buy(daySlots(6, 40, 1))
    const { browser } = await subscribe(order.guid, 'en')
    const { id: _, ...json } = browser
    const body = { ...json, locale: 'en' }

    // another site cannot turn them on or off (CSRF)
    const foreign = clientWith(server.url, { origin: 'https://evil.example' })
    expect((await foreign.post(paths(order.guid), body)).status).toBe(403)
    // the server posts only to the push services it knows, never to an address a stranger chose
    const elsewhere = await shop.post(paths(order.guid), {
      ...body,
      endpoint: 'https://10.0.0.1/push/abc',
    })
    expect(elsewhere.status).toBe(400)
    expect((elsewhere.body as { codes: string[] }).codes).toEqual(['push_service_not_allowed'])
    const badKey = await shop.post(paths(order.guid), {
      ...body,
      keys: { p256dh: 'abc', auth: 'x' },
    })
    expect(badKey.status).toBe(400)
    expect((badKey.body as { codes: string[] }).codes).toEqual([
      'push_key_invalid',
      'push_key_invalid',
    ])
    const unknown = await shop.post(paths('00000000-0000-4000-8000-000000000000'), body)
    expect(unknown.status).toBe(404)

    // the same browser again is the same subscription (its language renewed)
    const again = answerOf(
      push.subscribe,
      await shop.post(paths(order.guid), {
        ...body,
        locale: 'fr',
      }),
    )
    const listed = answerOf(push.subscriptions, await api.get(paths(order.guid)))
    expect(listed.subscriptions).toEqual([
      { id: again.id, locale: 'fr', createdAtEpochMs: expect.any(Number) },
    ])

    const off = await shop.call('DELETE', `${paths(order.guid)}/${again.id}`)
    expect(off.status).toBe(204)
    expect(answerOf(push.subscriptions, await api.get(paths(order.guid))).subscriptions).toEqual([])
    expect((await shop.call('DELETE', `${paths(order.guid)}/${again.id}`)).status).toBe(404)
  })

  it('signs with one key pair, made once and kept across a restart', async () => {
    const first = answerOf(push.key, await api.get('/push/key')).publicKey
    expect(first).toMatch(/^[\w-]{87}$/)
    server = await server.restart({ pushAgent: standIn.agent })
    api = client(server.url)
    shop = clientWith(server.url, { origin: server.url })
    expect(answerOf(push.key, await api.get('/push/key')).publicKey).toBe(first)
  })
})

describe.each(BACKENDS)(
  "an order's alerts when its personal data's lifetime ends (%s)",
  (backend) => {
    const DAY_MS = 86_400_000
    let standIn: PushStandIn
    let server: TestServer
    let later = 0

    beforeAll(async () => {
      standIn = await startPushStandIn()
      server = await startTestServer(backend, {
        // the jobs run only when the test says (runNow): the play-alerts job's own sweep must not
        // be what forgets the order's browsers here
        clock: createManualClock(Date.now()),
        now: () => Date.now() + later,
        pushAgent: standIn.agent,
        env: { PUSH_SERVICE_HOSTS: standIn.host, ORDER_CONTENT_TTL_DAYS: '30' },
      })
    })
    afterAll(async () => {
      await server?.stop()
      await standIn?.close()
    })

    const keptOf = async (guid: string) => ({
      browsers: (
        await server.deps.database.query(sql<{ n: number }>`
        select count(*)::int as n from push_subscriptions where order_guid = ${guid}`)
      )[0]?.n,
      sent: (
        await server.deps.database.query(sql<{ n: number }>`
        select count(*)::int as n from sent_pushes where order_guid = ${guid}`)
      )[0]?.n,
    })

    it('its browsers and the record of what was sent to them are forgotten with it', async () => {
      const api = client(server.url)
      const shop = clientWith(server.url, { origin: server.url })
      const content = await generateContent(api)
      const bought = await boughtOrder(api, { slots: daySlots(2, 40, 1), content, locale: 'en' })
      expect(bought.state).toBe('Confirmed')
      const order = answerOf(
        orderEndpoints.summary,
        await api.get(`/order/events/${LIVE}/orders/${bought.guid}`),
      )
      const slot = order.slots[0] as OrderSummary['slots'][0]
      const { id: _, ...browser } = standIn.subscribe()
      const made = await shop.post(
        `/order/events/${LIVE}/orders/${bought.guid}/push-subscriptions`,
        {
          ...browser,
          locale: 'en',
        },
      )
      expect(made.status).toBe(201)
      // "plays soon" goes out 5 minutes before the slot
      later = slot.startEpochMs - 4 * 60_000 - Date.now()
      await server.deps.jobs.runNow('play-alerts')
      expect(standIn.received()).toHaveLength(1)
      expect(await keptOf(bought.guid)).toEqual({ browsers: 1, sent: 1 })

      // 30 days after the last slot the order's personal data goes, and its alerts with it
      later = slot.endEpochMs + 30 * DAY_MS + 60_000 - Date.now()
      await server.deps.jobs.runNow('order-data-lifetime')
      expect(await keptOf(bought.guid)).toEqual({ browsers: 0, sent: 0 })
    })
  },
)
