import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Endpoint,
  FOUND_ORDERS_MAX,
  type OpsOrder,
  ops,
  pathOf,
  player,
  order as shop,
} from '../../src/contract/index.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  client,
  daySlots,
  generateContent,
  LIVE,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { clientWith, type SignedIn, signedInOperator } from './ops-helpers.ts'

// The review queue and orders: the guard in front of every ops call, the queue, approve
// (it plays), refuse and cancel (slots free again, payment refunded once), the auto-cancel of an
// order whose review ran past its first slot, finding orders, and the audit log.

const DEVICE = 'paris-opera-1'
const PROFANE = 'Joyeux anniversaire, espèce de connard'

describe.each(BACKENDS)('operators and orders on %s', (backend) => {
  let server: TestServer
  let api: Client
  let admin: SignedIn
  let reviewer: SignedIn
  let shift = 0
  const now = () => Date.now() + shift

  beforeAll(async () => {
    server = await startTestServer(backend, { now })
    api = client(server.url)
    admin = await signedInOperator(server, 'admin')
    reviewer = await signedInOperator(server, 'reviewer')
  })
  afterAll(async () => {
    await server?.stop()
  })

  /** A profane message is flagged by moderation: the order is placed UnderReview. */
  async function buy(slots: number[], message = PROFANE, email = 'ana@example.com') {
    const content = await generateContent(api, DEVICE, LIVE, 'hearts', message)
    return boughtOrder(api, { slots, content, email })
  }

  const refundedCents = async (guid: string) => {
    const [row] = await server.deps.database.query(sql<{ cents: number }>`
      select refunded_cents as cents from payments where order_guid = ${guid}`)
    return row?.cents
  }

  it('refuses every ops call without a session (401), with the wrong role (403), cross-origin (403)', async () => {
    const guarded = (Object.values(ops) as Endpoint[]).filter(
      (e) => e.access === 'reviewer' || e.access === 'admin',
    )
    expect(guarded.length).toBeGreaterThanOrEqual(7)
    const guid = randomUUID()
    const bodyOf = (e: Endpoint) =>
      e.method === 'GET' ? undefined : e.path.endsWith('/cancel') ? { reason: 'x' } : {}
    for (const e of guarded) {
      const path = pathOf(e as never, { guid } as never).slice('/api/v1'.length)
      const anonymous = await clientWith(server.url, { origin: server.url }).call(
        e.method,
        path,
        bodyOf(e),
      )
      expect([e.name, anonymous.status]).toEqual([e.name, 401])
      expect(anonymous.body).toMatchObject({ codes: ['sign_in_required'] })
      // a made-up cookie is no session
      const forged = await clientWith(server.url, {
        origin: server.url,
        cookie: 'shouts_ops=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      }).call(e.method, path, bodyOf(e))
      expect([e.name, forged.status]).toEqual([e.name, 401])
      if (e.access === 'admin') {
        const res = await reviewer.api.call(e.method, path, bodyOf(e))
        expect([e.name, res.status]).toEqual([e.name, 403])
        expect(res.body).toMatchObject({ codes: ['role_forbidden'] })
      }
      if (e.method !== 'GET') {
        for (const origin of [{ origin: 'https://evil.example' }, { origin: 'null' }]) {
          const res = await admin.api.call(e.method, path, bodyOf(e), origin)
          expect([e.name, res.status]).toEqual([e.name, 403])
          expect(res.body).toMatchObject({ codes: ['cross_origin'] })
        }
        const noOrigin = await clientWith(server.url, { cookie: admin.cookie }).call(
          e.method,
          path,
          bodyOf(e),
        )
        expect([e.name, noOrigin.status]).toEqual([e.name, 403])
      }
    }
  })

  it('lists orders under review oldest first, with the message, why flagged, slots and card', async () => {
    const first = await buy(daySlots(2, 10, 2))
    const second = await buy(daySlots(2, 20, 1))
    const clean = await buy(daySlots(2, 30, 1), 'Joyeux anniversaire, maman')
    expect([first.state, second.state, clean.state]).toEqual([
      'UnderReview',
      'UnderReview',
      'Confirmed',
    ])
    const res = await reviewer.api.get('/ops/review')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const { orders } = answerOf(ops.review, res)
    const guids = orders.map((o) => o.guid)
    expect(guids).toContain(first.guid)
    expect(guids.indexOf(first.guid)).toBeLessThan(guids.indexOf(second.guid))
    expect(guids).not.toContain(clean.guid)
    const order = orders.find((o) => o.guid === first.guid) as OpsOrder
    expect(order).toMatchObject({
      orderState: 'UnderReview',
      confirmationCode: first.guid.slice(0, 8),
      message: { buyerName: 'Ana', recipientName: 'Mum', multilineMessage: PROFANE },
      moderation: { flagged: true },
      contact: { email: 'ana@example.com', firstName: 'Ana', lastName: 'Lopez' },
      payment: {
        provider: 'local',
        brand: 'visa',
        last4: '4242',
        chargedCents: order.totalCents,
        refundedCents: 0,
        refund: null,
      },
      device: { deviceId: DEVICE, timeZoneId: 'Europe/Paris' },
    })
    expect(order.moderation.reasons.join(' ')).toMatch(/connard/)
    expect(order.contentUrl).toBeTruthy()
    expect(order.slots.map((s) => s.slotNumber)).toEqual(first.slots)
    expect(order.firstSlotStartEpochMs).toBe(order.slots[0]?.startEpochMs)
    expect(order.history.map((h) => [h.state, h.actor])).toEqual([
      ['Processing', 'shopper'],
      ['UnderReview', 'system'],
    ])
  })

  it('approves an order under review: Confirmed, it plays, once', async () => {
    const order = await buy(daySlots(3, 10, 1))
    const res = answerOf(
      ops.approve,
      await reviewer.api.post(`/ops/orders/${order.guid}/approve`, {}),
    )
    expect(res.orderState).toBe('Confirmed')
    expect(res.history.at(-1)).toMatchObject({
      state: 'Confirmed',
      actor: 'operator',
      operatorEmail: reviewer.email,
    })
    expect((await settledStatus(api, LIVE, order.guid)).orderState).toBe('Confirmed')
    // the billboard's schedule now holds it
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    const start = res.slots[0]?.startEpochMs as number
    const schedule = answerOf(
      player.schedule,
      await api.get(
        `/player/${DEVICE}/schedule?fromEpochMs=${start}&toEpochMs=${start + 3_600_000}`,
        { authorization: `Bearer ${linked.value.token}` },
      ),
    )
    expect(schedule.items.some((i) => i.orderGuid === order.guid)).toBe(true)
    const again = await reviewer.api.post(`/ops/orders/${order.guid}/approve`, {})
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ codes: ['not_under_review'] })
    const unknown = await reviewer.api.post(`/ops/orders/${randomUUID()}/approve`, {})
    expect(unknown.status).toBe(404)
  })

  it('refuses an order under review: Cancelled with the reason, slots free again, refunded once', async () => {
    const order = await buy(daySlots(3, 20, 2))
    const reason = 'The message insults someone'
    const res = answerOf(
      ops.cancel,
      await reviewer.api.post(`/ops/orders/${order.guid}/cancel`, { reason }),
    )
    expect(res).toMatchObject({
      orderState: 'Cancelled',
      errors: [reason],
      payment: {
        chargedCents: res.totalCents,
        refundedCents: res.totalCents,
        refund: { status: 'succeeded', amountCents: res.totalCents },
      },
    })
    expect(res.totalCents).toBeGreaterThan(0)
    expect(res.history.at(-1)).toMatchObject({
      state: 'Cancelled',
      actor: 'operator',
      operatorEmail: reviewer.email,
      reason: { code: 'order_cancelled', params: { reason } },
    })
    // the shopper's status call tells it, with the reason
    const status = answerOf(
      shop.status,
      await api.get(`/order/events/${LIVE}/orders/${order.guid}/status`),
    )
    expect(status).toMatchObject({
      orderState: 'Cancelled',
      errors: [reason],
      codes: ['order_cancelled'],
    })
    expect(await refundedCents(order.guid)).toBe(res.totalCents)
    // a retried cancel answers the same and refunds nothing more
    const retry = answerOf(
      ops.cancel,
      await reviewer.api.post(`/ops/orders/${order.guid}/cancel`, { reason }),
    )
    expect(retry.payment.refundedCents).toBe(res.totalCents)
    expect(await refundedCents(order.guid)).toBe(res.totalCents)
    // the slots can be bought again
    const rebuy = await buy(order.slots, 'Joyeux anniversaire, maman')
    expect(rebuy.state).toBe('Confirmed')
  })

  it('lets only admins cancel a Confirmed order; nothing cancels a Failed one', async () => {
    const order = await buy(daySlots(4, 10, 1), 'Bon anniversaire')
    expect(order.state).toBe('Confirmed')
    const byReviewer = await reviewer.api.post(`/ops/orders/${order.guid}/cancel`, {
      reason: 'Asked by the shopper',
    })
    expect(byReviewer.status).toBe(403)
    expect(byReviewer.body).toMatchObject({ codes: ['reviewers_refuse_only'] })
    const byAdmin = answerOf(
      ops.cancel,
      await admin.api.post(`/ops/orders/${order.guid}/cancel`, { reason: 'Asked by the shopper' }),
    )
    expect(byAdmin).toMatchObject({
      orderState: 'Cancelled',
      payment: { refundedCents: byAdmin.totalCents },
    })
    const failed = await boughtOrder(api, {
      slots: daySlots(4, 20, 1),
      content: await generateContent(api, DEVICE, LIVE, 'hearts', 'Bon anniversaire'),
      card: '4000000000000341',
    })
    expect(failed.state).toBe('Failed')
    const refused = await admin.api.post(`/ops/orders/${failed.guid}/cancel`, { reason: 'x' })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ codes: ['not_cancellable'] })
    const empty = await admin.api.post(`/ops/orders/${order.guid}/cancel`, { reason: '  ' })
    expect(empty.status).toBe(400)
  })

  it('sends a refund left pending by a crash again under its key, never twice', async () => {
    const order = await buy(daySlots(4, 30, 1))
    const res = answerOf(
      ops.cancel,
      await admin.api.post(`/ops/orders/${order.guid}/cancel`, { reason: 'Refused' }),
    )
    expect(res.payment.refundedCents).toBe(res.totalCents)
    // as if the process died after the provider refunded but before the row was marked
    await server.deps.database.query(sql`
      update refunds set status = 'pending', completed_at = null,
        created_at = now() - interval '1 hour'
      where order_guid = ${order.guid}`)
    const retried = await server.deps.payment.retryRefunds()
    expect(retried).toBeGreaterThanOrEqual(1)
    const after = answerOf(ops.order, await admin.api.get(`/ops/orders/${order.guid}`))
    expect(after.payment).toMatchObject({
      refundedCents: res.totalCents,
      refund: { status: 'succeeded' },
    })
    expect(await refundedCents(order.guid)).toBe(res.totalCents)
  })

  it('cancels and refunds by itself an order whose first slot began under review', async () => {
    const order = await buy(daySlots(5, 40, 2))
    const waiting = await buy(daySlots(6, 40, 1))
    const queue = answerOf(ops.review, await reviewer.api.get('/ops/review'))
    const first = queue.orders.find((o) => o.guid === order.guid)?.firstSlotStartEpochMs
    if (!first) throw new Error('not in the queue')
    shift = first - Date.now() + 1000
    try {
      const swept = await server.deps.ops.expireReviews()
      expect(swept.cancelled).toContain(order.guid)
      expect(swept.cancelled).not.toContain(waiting.guid)
      // a second instance's sweep finds nothing more to do
      expect((await server.deps.ops.expireReviews()).cancelled).not.toContain(order.guid)
    } finally {
      shift = 0
    }
    const after = answerOf(ops.order, await admin.api.get(`/ops/orders/${order.guid}`))
    expect(after).toMatchObject({
      orderState: 'Cancelled',
      errors: ['Your shout was still being reviewed when its first time slot began'],
      codes: ['review_outlived_first_slot'],
      payment: { refundedCents: after.totalCents },
    })
    expect(after.history.at(-1)).toMatchObject({ actor: 'system', state: 'Cancelled' })
    const [row] = await server.deps.database.query(sql<{ n: number }>`
      select count(*)::int as n from slot_reservations where order_guid = ${order.guid}`)
    expect(row?.n).toBe(0)
  })

  it('finds orders by confirmation code, e-mail, device id and day', async () => {
    const email = `finder-${Date.now()}@example.com`
    const order = await buy(daySlots(7, 12, 1), 'Bon anniversaire', email)
    const find = async (query: string, day?: string) =>
      answerOf(
        ops.orders,
        await reviewer.api.get(pathOf(ops.orders, {}, { query, day }).slice('/api/v1'.length)),
      ).orders.map((o) => o.guid)
    expect(await find(order.guid.slice(0, 8))).toEqual([order.guid])
    expect(await find(order.guid.slice(0, 8).toUpperCase())).toEqual([order.guid])
    expect(await find(email.toUpperCase())).toEqual([order.guid])
    expect(await find(DEVICE)).toContain(order.guid)
    const got = answerOf(ops.order, await reviewer.api.get(`/ops/orders/${order.guid}`))
    const day = new Date(got.slots[0]?.startEpochMs as number).toLocaleDateString('sv-SE', {
      timeZone: 'Europe/Paris',
    })
    expect(await find(DEVICE, day)).toContain(order.guid)
    const otherDay = new Date(
      (got.slots[0]?.startEpochMs as number) + 86_400_000,
    ).toLocaleDateString('sv-SE', { timeZone: 'Europe/Paris' })
    expect(await find(email, otherDay)).toEqual([])
    expect(await find('nobody@example.com')).toEqual([])
    const bad = await reviewer.api.get('/ops/orders?day=tomorrow')
    expect(bad.status).toBe(400)
  })

  it('writes every operator action to the audit log, which admins read', async () => {
    const someone = await signedInOperator(server, 'reviewer')
    await clientWith(server.url, { origin: server.url }).post('/ops/session', {
      email: someone.email,
      password: 'not the password!',
    })
    const order = await buy(daySlots(8, 10, 1))
    await someone.api.post(`/ops/orders/${order.guid}/approve`, {})
    await someone.api.call('DELETE', '/ops/session')
    const res = await admin.api.get('/ops/audit?limit=500')
    const mine = answerOf(ops.audit, res)
      .entries.filter((e) => e.operatorEmail === someone.email)
      .map((e) => [e.action, e.orderGuid])
    // newest first
    expect(mine).toEqual([
      ['sign_out', null],
      ['approve', order.guid],
      ['sign_in_failed', null],
      ['sign_in', null],
      ['set_password', null],
    ])
    expect(JSON.stringify(res.body)).not.toMatch(/not the password|correct horse/)
    const byOrder = answerOf(ops.audit, await admin.api.get(`/ops/audit?orderGuid=${order.guid}`))
    expect(byOrder.entries.map((e) => e.action)).toEqual(['approve'])
    expect((await reviewer.api.get('/ops/audit')).status).toBe(403)
    // filtered by who (any case) and by what
    const byWho = answerOf(
      ops.audit,
      await admin.api.get(`/ops/audit?operator=${encodeURIComponent(someone.email.toUpperCase())}`),
    )
    expect(byWho.entries.map((e) => e.action)).toEqual(mine.map(([action]) => action))
    const byWhat = answerOf(
      ops.audit,
      await admin.api.get(
        `/ops/audit?operator=${encodeURIComponent(someone.email)}&action=sign_in_failed`,
      ),
    )
    expect(byWhat.entries).toEqual([
      expect.objectContaining({ action: 'sign_in_failed', operatorEmail: someone.email }),
    ])
    expect((await admin.api.get('/ops/audit?action=DROP%20TABLE')).status).toBe(400)
  })

  it('lists the newest orders a page at a time before any search', async () => {
    for (let i = 0; i < 3; i++) await buy(daySlots(11, 13 + i, 1), 'Bonne fête')
    const page = async (before?: string) => {
      const res = await reviewer.api.get(pathOf(ops.orders, {}, { before }).slice('/api/v1'.length))
      return answerOf(ops.orders, res).orders
    }
    const first = await page()
    expect(first.length).toBeGreaterThanOrEqual(3)
    const placed = first.map((o) => o.createdAtEpochMs)
    expect(placed).toEqual([...placed].sort((a, b) => b - a))
    // the next page starts after the last one shown: nothing twice, nothing skipped
    const all: string[] = []
    let cursor: string | undefined
    for (;;) {
      const orders = await page(cursor)
      all.push(...orders.map((o) => o.guid))
      if (orders.length < FOUND_ORDERS_MAX) break
      cursor = orders[orders.length - 1]?.guid
    }
    const [{ n } = { n: 0 }] = await server.deps.database.query(
      sql<{ n: number }>`select count(*)::int as n from orders`,
    )
    expect(new Set(all).size).toBe(all.length)
    expect(all).toHaveLength(n)
    expect((await reviewer.api.get('/ops/orders?before=not-a-guid')).status).toBe(400)
  })

  it('finds an order on its day behind more newer orders of the billboard than a search answers', async () => {
    const order = await buy(daySlots(9, 12, 1), 'Bon anniversaire')
    const find = async (query: string, day?: string) =>
      answerOf(
        ops.orders,
        await reviewer.api.get(pathOf(ops.orders, {}, { query, day }).slice('/api/v1'.length)),
      ).orders.map((o) => o.guid)
    // 600 newer orders of the same billboard on another day (failed ones: no queue, no sweep)
    await server.deps.database.query(sql`
      insert into orders
      select (jsonb_populate_record(o, jsonb_build_object(
        'guid', 'copy-' || g || '-' || o.guid,
        'state', 'Failed',
        'email', 'copies@example.com',
        'slot_numbers', ${`{${daySlots(10, 12, 1).join(',')}}`}::int[],
        'created_at', now() + g * interval '1 second'))).*
      from orders o, generate_series(1, 600) as g where o.guid = ${order.guid}`)
    const newest = await find(DEVICE)
    expect(newest).toHaveLength(FOUND_ORDERS_MAX)
    expect(newest).not.toContain(order.guid)
    const got = answerOf(ops.order, await reviewer.api.get(`/ops/orders/${order.guid}`))
    const day = new Date(got.slots[0]?.startEpochMs as number).toLocaleDateString('sv-SE', {
      timeZone: 'Europe/Paris',
    })
    expect(await find(DEVICE, day)).toContain(order.guid)
    expect(await find('', day)).toContain(order.guid)
    // a day the calendar does not have finds nothing (and is not an error)
    expect(await find(DEVICE, '2030-02-31')).toEqual([])
  })
})
