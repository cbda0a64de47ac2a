import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import { type OpsScheduleDay, opsBillboards } from '../../src/contract/ops/billboards.ts'
import { opsDashboard } from '../../src/contract/ops/dashboard.ts'
import { ops } from '../../src/contract/ops/orders.ts'
import { zonedDateTimeAt } from '../../src/domain/dates.ts'
import { playsOfSlot, slotStartEpochMs } from '../../src/domain/index.ts'
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
import { clientWith, type SignedIn, signedInOperator } from './ops-helpers.ts'

// The console's schedule, player links and dashboard (api: /api/v1/ops/billboards...,
// /ops/dashboard): who may call them, what a billboard's day shows after real orders and real proofs
// of play, a link that replaces the old one, and the dashboard's sums against the orders placed here.
const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'
type Event = Parameters<typeof playsOfSlot>[0] & { valueCentsPerSlot: number; currency: string }

describe.each(BACKENDS)('the console schedule and dashboard on %s', (backend) => {
  let server: TestServer
  let api: Client
  let content: { key: string; source: ContentSource }
  let event: Event
  let clock = Date.now()
  let admin: SignedIn
  let reviewer: SignedIn
  const orders: { guid: string; slots: number[]; state: string }[] = []

  const buy = async (slots: number[], card?: string, promoCode?: string) => {
    const order = await boughtOrder(api, { slots, content, promoCode: promoCode ?? null, card })
    orders.push(order)
    return order
  }

  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock })
    api = client(server.url)
    content = await generateContent(api)
    event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    expect((await buy(daySlots(2, 40, 2))).state).toBe('Confirmed')
    expect((await buy(daySlots(2, 44, 1), '4000000000000341')).state).toBe('Failed')
    expect((await buy(daySlots(3, 10, 3), undefined, 'LOVE5OFF')).state).toBe('Confirmed')
    expect((await buy(daySlots(3, 20, 1))).state).toBe('Confirmed')
    admin = await signedInOperator(server, 'admin')
    reviewer = await signedInOperator(server, 'reviewer')
  })
  afterAll(async () => {
    await server?.stop()
  })

  const dayOf = (slotNumber: number) =>
    zonedDateTimeAt(slotStartEpochMs(event, PARIS, slotNumber), PARIS)
      .toPlainDate()
      .toString()

  const scheduleDay = async (day: string, who = admin): Promise<OpsScheduleDay> => {
    const answer = answerOf(
      opsBillboards.scheduleDay,
      await who.api.get(`/ops/billboards/${DEVICE}/schedule?day=${day}`),
    )
    return answer
  }

  it('refuses without a session (401), a reviewer on admin calls (403), another origin (403)', async () => {
    const day = `?day=${dayOf(daySlots(2, 0, 1)[0] as number)}`
    const anonymous = clientWith(server.url, { origin: server.url })
    const reads = ['/ops/billboards', `/ops/billboards/${DEVICE}/schedule${day}`, '/ops/dashboard']
    for (const path of reads) {
      const res = await anonymous.get(path)
      expect(res.status, path).toBe(401)
      expect(res.body).toMatchObject({ codes: ['sign_in_required'] })
    }
    const writes: [string, unknown][] = [
      [`/ops/billboards/${DEVICE}/player-link`, {}],
      ['/ops/catalogue/preview', { text: '{}' }],
      ['/ops/catalogue/apply', { text: '{}', sha256: 'a'.repeat(64) }],
    ]
    for (const [path, body] of writes) {
      expect((await anonymous.post(path, body)).status, path).toBe(401)
      const asReviewer = await reviewer.api.post(path, body)
      expect(asReviewer.status, path).toBe(403)
      expect(asReviewer.body).toMatchObject({ codes: ['role_forbidden'] })
      const crossSite = await admin.api.post(path, body, { origin: 'https://evil.example' })
      expect(crossSite.status, path).toBe(403)
      expect(crossSite.body).toMatchObject({ codes: ['cross_origin'] })
    }
    expect((await reviewer.api.get('/ops/dashboard')).status).toBe(403)
    // reviewers may read the schedule
    expect((await reviewer.api.get(`/ops/billboards/${DEVICE}/schedule${day}`)).status).toBe(200)
    expect((await reviewer.api.get('/ops/billboards')).status).toBe(200)
    const unknown = await admin.api.get(`/ops/billboards/nowhere/schedule${day}`)
    expect(unknown.status).toBe(404)
    expect((await admin.api.get(`/ops/billboards/${DEVICE}/schedule?day=2027-02-30`)).status).toBe(
      400,
    )
  })

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
    const plays = proofsOfSlot(event, PARIS, orders[0]?.guid as string, first, {
      start: 30,
      end: 10,
    })
    // a billboard reports its plays once they have played
    clock = Math.max(...plays.map((p) => p.endedAtEpochMs)) + 60_000
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
    // sessions end after 12 h idle: the operators sign in again on the new day
    admin = await signedInOperator(server, 'admin')
    reviewer = await signedInOperator(server, 'reviewer')
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
    const link = await admin.api.post(`/ops/billboards/${DEVICE}/player-link`, {})
    expect(link.headers.get('cache-control')).toBe('no-store')
    const made = answerOf(opsBillboards.playerLink, link)
    expect(made.url.startsWith(`${server.url}/play/${DEVICE}?token=`)).toBe(true)
    const token = new URL(made.url).searchParams.get('token') as string
    const schedule = (t: string) =>
      api.get(`/player/${DEVICE}/schedule`, { authorization: `Bearer ${t}` })
    expect((await schedule(token)).status).toBe(200)
    expect((await schedule(before.value.token)).status).toBe(401)
    expect((await admin.api.post('/ops/billboards/nowhere/player-link', {})).status).toBe(404)
    // the audit log says who made it, and never holds the token
    const audit = await server.deps.database.query(sql<{ action: string; detail: unknown }>`
      select action, detail from audit_log where action = 'player_link'`)
    expect(audit).toEqual([{ action: 'player_link', detail: { deviceId: DEVICE } }])
    expect(JSON.stringify(audit)).not.toContain(token)
    const list = answerOf(
      opsBillboards.billboards,
      await reviewer.api.get('/ops/billboards'),
    ).billboards
    expect(list.find((b) => b.deviceId === DEVICE)?.playerLink.active).toBe(true)
    expect(list.find((b) => b.deviceId === 'paris-republique')?.playerLink.active).toBe(false)
  })

  it('sums the live event: slots sold of capacity, revenue, orders by state, sales per day', async () => {
    // the last order is cancelled and refunded by an admin (the ops module's cancel)
    const refunded = orders[3] as { guid: string }
    const cancel = answerOf(
      ops.cancel,
      await admin.api.post(`/ops/orders/${refunded.guid}/cancel`, {
        reason: 'The venue asked us to',
      }),
    )
    expect(cancel.payment.refundedCents).toBe(event.valueCentsPerSlot)
    const res = answerOf(opsDashboard.dashboard, await admin.api.get('/ops/dashboard'))
    const board = res
    const live = board.events.find((e) => e.slug === LIVE)
    expect(live).toBeDefined()
    // sold: 2 + 3 slots of the two Confirmed orders; paid: those and the cancelled one (1 slot)
    expect(live?.sold).toBe(5)
    expect(live?.capacity).toBeGreaterThan(5)
    const price = event.valueCentsPerSlot
    expect(live?.revenue).toEqual({
      grossCents: 6 * price,
      discountCents: 500,
      refundedCents: price,
      netCents: 5 * price - 500,
    })
    expect(live?.ordersByState).toEqual({
      Processing: 0,
      AwaitingAuthentication: 0,
      Confirmed: 2,
      UnderReview: 0,
      Failed: 1,
      Cancelled: 1,
    })
    expect(live?.reviewQueue).toBe(0)
    // the console writes the event's times on its first billboard's clock (Berlin's in the demo
    // catalogue), not the browser's
    expect(live?.timeZoneId).toBe('Europe/Berlin')
    expect(live?.timeZoneIds).toContain(PARIS)
    expect(live?.salesPerDay.reduce((n, d) => n + d.orders, 0)).toBe(3)
    expect(live?.salesPerDay.reduce((n, d) => n + d.cents, 0)).toBe(6 * price - 500)
  })

  it('draws the plays due, proven and missed per day, and the make-good refunds once decided', async () => {
    const [first = 0, second = 0] = orders[0]?.slots ?? []
    const later = orders[2]?.slots ?? []
    const price = event.valueCentsPerSlot
    const plays = async () => {
      const res = answerOf(opsDashboard.dashboard, await admin.api.get('/ops/dashboard'))
      const live = res.events.find((e) => e.slug === LIVE)
      const day = (slot: number) => live?.playsPerDay.find((d) => d.day === dayOf(slot))
      return { live, sold: day(first), later: day(later[0] as number) }
    }
    // within the grace after the first order's slots: the unproven plays may still be proved
    let board = await plays()
    expect(board.sold).toEqual({ day: dayOf(first), due: 8, proven: 4, missed: 0 })
    // the cancelled order's slot does not play; the other order's three slots are due
    expect(board.later).toMatchObject({ due: 12, proven: 0, missed: 0 })
    expect(board.live?.playsPerDay.reduce((n, d) => n + d.due, 0)).toBe(20)
    expect(board.live?.makeGoodRefundsPerDay).toEqual([])

    // the grace has passed: the second slot's plays are missed, before and after the decision
    const lastEnd = slotStartEpochMs(event, PARIS, second) + event.slotWidthMS
    clock = lastEnd + 6 * 3_600_000
    expect((await plays()).sold).toMatchObject({ due: 8, proven: 4, missed: 4 })
    await server.deps.jobs.idle()
    await server.deps.jobs.runNow('make-goods')
    board = await plays()
    expect(board.sold).toMatchObject({ due: 8, proven: 4, missed: 4 })
    expect(board.later).toMatchObject({ due: 12, proven: 0, missed: 0 })
    // all four plays of one of its two slots missed: half of what the shopper paid comes back
    const refunds = [{ day: dayOf(second), currency: event.currency, orders: 1, cents: price }]
    expect(board.live?.makeGoodRefundsPerDay).toEqual(refunds)

    // the billboard's late proofs are kept, but the decided make-good still counts them missed
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    const late = proofsOfSlot(event, PARIS, orders[0]?.guid as string, second, {
      start: 30,
      end: 10,
    })
    const posted = await api.post(
      `/player/${DEVICE}/plays`,
      { plays: late },
      { authorization: `Bearer ${linked.value.token}` },
    )
    expect(posted.body).toMatchObject({ accepted: 4 })
    board = await plays()
    expect(board.sold).toMatchObject({ due: 8, proven: 4, missed: 4 })
    expect(board.live?.makeGoodRefundsPerDay).toEqual(refunds)
  })
})
