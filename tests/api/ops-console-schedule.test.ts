import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Dashboard, OpsScheduleDay } from '../../src/contract/ops-console.ts'
import { zonedDateTimeAt } from '../../src/domain/dates.ts'
import { playsOfSlot, slotStartEpochMs } from '../../src/domain/index.ts'
import {
  BACKENDS,
  type Client,
  type ContentSource,
  client,
  daySlots,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// issue 10, the console's schedule, player links and dashboard: what a billboard's day shows after
// real orders and real proofs of play, a link that replaces the old one, and the dashboard's sums
// against the orders placed here.
const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'
type Event = Parameters<typeof playsOfSlot>[0] & { valueCentsPerSlot: number }

describe.each(BACKENDS)('the console schedule and dashboard on %s', (backend) => {
  let server: TestServer
  let api: Client
  let content: { key: string; source: ContentSource }
  let event: Event
  let clock = Date.now()
  const orders: { guid: string; slots: number[]; state: string }[] = []

  const buy = async (slots: number[], card?: string, promoCode?: string) => {
    const checkout = await savedCard(api, card)
    const placed = await placeOrder(
      api,
      orderBody({ slots, content, checkout, promoCode: promoCode ?? null }),
    )
    expect(placed.status).toBe(201)
    const status = await settledStatus(api, LIVE, placed.body.guid)
    const order = { guid: placed.body.guid, slots, state: status.orderState }
    orders.push(order)
    return order
  }

  beforeAll(async () => {
    server = await startTestServer(backend, {
      now: () => clock,
      env: { PUBLIC_BASE_URL: 'https://shop.example' },
    })
    api = client(server.url)
    content = await generateContent(api)
    event = (await api.get<Event>(`/spotlight/events/${LIVE}`)).body
    expect((await buy(daySlots(2, 40, 2))).state).toBe('Confirmed')
    expect((await buy(daySlots(2, 44, 1), '4000000000000341')).state).toBe('Failed')
    expect((await buy(daySlots(3, 10, 3), undefined, 'LOVE5OFF')).state).toBe('Confirmed')
  })
  afterAll(async () => {
    await server?.stop()
  })

  const dayOf = (slotNumber: number) =>
    zonedDateTimeAt(slotStartEpochMs(event, PARIS, slotNumber), PARIS)
      .toPlainDate()
      .toString()

  const scheduleDay = async (day: string): Promise<OpsScheduleDay> => {
    const answer = await server.deps.backoffice.scheduleDay(DEVICE, day)
    if (!answer.ok) throw new Error(answer.error.code)
    return answer.value
  }

  it('shows every slot of the billboard’s day: sold with the content, free, the failed order’s free', async () => {
    const [first = 0, second = 0] = orders[0]?.slots ?? []
    const day = await scheduleDay(dayOf(first))
    expect(day).toMatchObject({ deviceId: DEVICE, timeZoneId: PARIS, day: dayOf(first) })
    const live = day.events.find((e) => e.slug === LIVE)
    expect(live?.slots).toHaveLength(96)
    const sold = live?.slots.filter((s) => s.status === 'sold') ?? []
    expect(sold.map((s) => s.slotNumber)).toEqual([first, second])
    for (const slot of sold) {
      expect(slot.order).toMatchObject({ guid: orders[0]?.guid, state: 'Confirmed' })
      expect(slot.order?.content?.type).toBe('photo')
      expect(slot.order?.content?.url).toMatch(/\/api\/v1\/content\/files\//)
      expect(slot.plays.map((p) => p.proof)).toEqual([
        'upcoming',
        'upcoming',
        'upcoming',
        'upcoming',
      ])
      expect(slot.plays.map((p) => p.startEpochMs)).toEqual(
        playsOfSlot(event, PARIS, slot.slotNumber).map((p) => p.startEpochMs),
      )
    }
    const failedSlot = live?.slots.find((s) => s.slotNumber === orders[1]?.slots[0])
    expect(failedSlot).toMatchObject({ status: 'free', order: null, plays: [] })
    // the billboard may show another event that day too: every slot of the day is counted
    const slots = day.events.reduce((n, e) => n + e.slots.length, 0)
    expect(slots).toBeGreaterThanOrEqual(96)
    expect(day.totals).toEqual({ slots, sold: 2, free: slots - 2, held: 0, proved: 0, missing: 0 })
    expect(day.previousDay < day.day && day.day < day.nextDay).toBe(true)
  })

  it('marks a past play without proof as missing and a reported one as proved', async () => {
    const [first = 0, second = 0] = orders[0]?.slots ?? []
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    // the billboard proves the four plays of the first slot only
    const plays = playsOfSlot(event, PARIS, first).map((p) => ({
      playId: randomUUID(),
      orderGuid: orders[0]?.guid as string,
      slotNumber: first,
      playIndex: p.playIndex,
      startedAtEpochMs: p.startEpochMs + 30,
      endedAtEpochMs: p.endEpochMs + 10,
    }))
    const posted = await api.post(
      `/player/${DEVICE}/plays`,
      { plays },
      {
        authorization: `Bearer ${linked.value.token}`,
      },
    )
    expect(posted.body).toEqual({ accepted: 4, duplicates: 0, refused: 0 })
    // the day is over now
    clock = slotStartEpochMs(event, PARIS, second) + 3_600_000
    const day = await scheduleDay(dayOf(first))
    const live = day.events.find((e) => e.slug === LIVE)
    const proofs = (n: number) =>
      live?.slots.find((s) => s.slotNumber === n)?.plays.map((p) => p.proof)
    expect(proofs(first)).toEqual(['proved', 'proved', 'proved', 'proved'])
    expect(proofs(second)).toEqual(['missing', 'missing', 'missing', 'missing'])
    const proved = live?.slots.find((s) => s.slotNumber === first)?.plays[0]
    expect(proved?.provedAtEpochMs).toBe(plays[0]?.startedAtEpochMs)
    expect(day.totals).toMatchObject({ proved: 4, missing: 4 })
    expect(day.playerLink.active).toBe(true)
  })

  it('makes a new player link that works, and the old one stops working', async () => {
    const before = await server.deps.player.link(DEVICE)
    if (!before.ok) throw new Error('link failed')
    const made = await server.deps.backoffice.makePlayerLink(DEVICE)
    if (!made.ok) throw new Error(made.error.code)
    expect(made.value.url).toMatch(
      /^https:\/\/shop\.example\/play\/paris-opera-1\?token=[\w-]{40,}$/,
    )
    const token = new URL(made.value.url).searchParams.get('token') as string
    const schedule = (t: string) =>
      api.get(`/player/${DEVICE}/schedule`, { authorization: `Bearer ${t}` })
    expect((await schedule(token)).status).toBe(200)
    expect((await schedule(before.value.token)).status).toBe(401)
    const unknown = await server.deps.backoffice.makePlayerLink('nowhere')
    expect(unknown.ok).toBe(false)
    const list = await server.deps.backoffice.listBillboards()
    expect(list.find((b) => b.deviceId === DEVICE)?.playerLink.active).toBe(true)
    expect(list.find((b) => b.deviceId === 'paris-republique')?.playerLink.active).toBe(false)
  })

  it('sums the live event: slots sold of capacity, revenue, orders by state, sales per day', async () => {
    const board: Dashboard = await server.deps.backoffice.dashboard()
    const live = board.events.find((e) => e.slug === LIVE)
    expect(live).toBeDefined()
    const confirmed = orders.filter((o) => o.state === 'Confirmed')
    const soldSlots = confirmed.reduce((n, o) => n + o.slots.length, 0)
    expect(live?.sold).toBe(soldSlots)
    expect(live?.capacity).toBeGreaterThan(soldSlots)
    const gross = soldSlots * event.valueCentsPerSlot
    expect(live?.revenue).toEqual({
      grossCents: gross,
      discountCents: 500,
      refundedCents: 0,
      netCents: gross - 500,
    })
    expect(live?.ordersByState).toMatchObject({ Confirmed: 2, Failed: 1, UnderReview: 0 })
    expect(live?.reviewQueue).toBe(0)
    expect(live?.salesPerDay.reduce((n, d) => n + d.orders, 0)).toBe(2)
    expect(live?.salesPerDay.reduce((n, d) => n + d.cents, 0)).toBe(gross - 500)
  })
})
