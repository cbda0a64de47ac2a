import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ParsedMail } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import type { OrderSummary } from '../../src/contract/index.ts'
import { ops } from '../../src/contract/ops/orders.ts'
import { order as orderEndpoints } from '../../src/contract/order.ts'
import { player } from '../../src/contract/player.ts'
import type { playsOfSlot } from '../../src/domain/index.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import { createManualClock, type ManualClock } from '../../src/server/platform/clock.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
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
  orderBody,
  placeOrder,
  proofsOfSlot,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { type SignedIn, signedInOperator } from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts'

// Make-goods: MAKE_GOOD_GRACE_HOURS (6) after each slot ends, each of its plays without a proof is
// missed and the slot is refunded for its share of what the shopper paid (rounded down to the cent):
// once, through the refund path (its own key, its retries, the console's refund state), with one mail
// per order in the shopper's language over real SMTP once every slot is decided, and the order's
// summary saying it as the slots are decided. A proof that arrives later refunds nothing again. Time
// is a manual clock moved past the slots and the grace.

const HOUR = 3_600_000
type Event = Parameters<typeof playsOfSlot>[0]
type Content = { key: string; source: ContentSource }
const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address

describe.each(BACKENDS)('make-goods on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let clock: ManualClock
  let api: Client
  let admin: SignedIn
  let content: Content
  let event: Event
  let token: string

  beforeAll(async () => {
    clock = createManualClock(Date.now())
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, {
      clock,
      now: () => clock.now(),
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Shouts <shop@shop.example>',
        PUBLIC_BASE_URL: 'https://shop.example',
      },
    })
    api = client(server.url)
    content = await generateContent(api)
    event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    const linked = await server.deps.player.link(content.source.deviceId)
    if (!linked.ok) throw new Error('link failed')
    token = linked.value.token
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  async function buy(slots: number[], email: string, locale: 'en' | 'fr' | 'de') {
    const order = await boughtOrder(api, { slots, content, email, locale })
    expect(order.state).toBe('Confirmed')
    return summaryOf(order.guid)
  }
  const summaryOf = async (guid: string) =>
    answerOf(orderEndpoints.summary, await api.get(`/order/events/${LIVE}/orders/${guid}`))

  /** The billboard reports the plays of a slot, but for those `skip` names. */
  async function prove(order: OrderSummary, slot: number, skip: number[] = []) {
    const plays = proofsOfSlot(event, order.device.timeZoneId, order.guid, slot, {
      start: 40,
      end: 20,
    }).filter((p) => !skip.includes(p.playIndex))
    const posted = answerOf(
      player.plays,
      await api.post(
        `/player/${order.device.deviceId}/plays`,
        { plays },
        { authorization: `Bearer ${token}` },
      ),
    )
    return posted.accepted
  }

  const lastEnd = (order: OrderSummary) => Math.max(...order.slots.map((s) => s.endEpochMs))
  const firstEnd = (order: OrderSummary) => Math.min(...order.slots.map((s) => s.endEpochMs))
  const refundKeys = async (guid: string) =>
    (
      await server.deps.database.query(sql<{ key: string; status: string }>`
        select idempotency_key as key, status from refunds where order_guid = ${guid}
        order by idempotency_key`)
    ).map((r) => `${r.key} ${r.status}`)
  const runMakeGoods = async () => {
    await server.deps.jobs.idle()
    await server.deps.jobs.runNow('make-goods')
  }
  const mailsTo = (address: string) => smtp.received.filter((m) => to(m) === address)

  it('refunds nothing, a quarter of a slot, and everything: once, mailed in each language', async () => {
    const all = await buy(daySlots(2, 40, 2), 'all@example.com', 'en')
    const some = await buy(daySlots(2, 44, 2), 'some@example.com', 'fr')
    const none = await buy(daySlots(2, 48, 1), 'none@example.com', 'de')
    const [someFirst, someSecond] = some.slots.map((s) => s.slotNumber) as [number, number]

    // the slots play: the billboard proves all of the first order, all but the third play of the
    // second order's second slot, and nothing of the third order
    clock.advance(lastEnd(none) + 60_000 - clock.now())
    await server.deps.jobs.idle()
    for (const slot of all.slots) expect(await prove(all, slot.slotNumber)).toBe(4)
    expect(await prove(some, someFirst)).toBe(4)
    expect(await prove(some, someSecond, [2])).toBe(3)

    // until the grace has passed after a slot, it is not decided; then that slot is, on its own
    clock.advance(firstEnd(all) + 6 * HOUR - 1 - clock.now())
    await runMakeGoods()
    expect((await summaryOf(all.guid)).makeGood).toBeNull()
    clock.advance(1)
    await runMakeGoods()
    expect((await summaryOf(all.guid)).makeGood).toMatchObject({
      playsDue: 4,
      playsProven: 4,
      missed: [],
      refundCents: 0,
    })
    clock.advance(lastEnd(all) + 6 * HOUR - clock.now())
    await runMakeGoods()
    expect((await summaryOf(all.guid)).makeGood).toMatchObject({
      playsDue: 8,
      playsProven: 8,
      missed: [],
      refundCents: 0,
      refundStatus: 'none',
    })
    // the second order's first slot, fully played, is decided; its second is not yet
    expect((await summaryOf(some.guid)).makeGood).toBeNull()
    clock.advance(firstEnd(some) + 6 * HOUR - clock.now())
    await runMakeGoods()
    expect((await summaryOf(some.guid)).makeGood).toMatchObject({ playsDue: 4, playsProven: 4 })

    clock.advance(lastEnd(none) + 6 * HOUR - clock.now())
    await runMakeGoods()
    // the second slot's share is half the total, the odd cent going to the first slot; one of its
    // four plays missed gives back a quarter of it, rounded down to the cent
    const secondShare = Math.floor(some.totalCents / 2)
    const quarter = Math.floor(secondShare / 4)
    expect(quarter).toBeGreaterThan(0)
    expect((await summaryOf(some.guid)).makeGood).toMatchObject({
      playsDue: 8,
      playsProven: 7,
      missed: [{ slotNumber: someSecond, missedPlays: 1, refundCents: quarter }],
      refundCents: quarter,
      refundStatus: 'succeeded',
    })
    expect((await summaryOf(none.guid)).makeGood).toMatchObject({
      playsDue: 4,
      playsProven: 0,
      missed: [{ slotNumber: none.slots[0]?.slotNumber, missedPlays: 4 }],
      refundCents: none.totalCents,
      refundStatus: 'succeeded',
    })
    expect(await refundKeys(some.guid)).toEqual([`make-good-${some.guid}-${someSecond} succeeded`])

    // the console shows each refund as a refund of the order's charge (signed in now: a session
    // lasts less than the days the clock moved)
    admin = await signedInOperator(server, 'admin', undefined, 'https://shop.example')
    const consoleOf = async (guid: string) =>
      answerOf(ops.order, await admin.api.get(`/ops/orders/${guid}`)).payment
    expect(await consoleOf(some.guid)).toMatchObject({
      refundedCents: quarter,
      refund: { status: 'succeeded', amountCents: quarter },
    })
    expect(await consoleOf(none.guid)).toMatchObject({
      refundedCents: none.totalCents,
      refund: { status: 'succeeded' },
    })
    expect((await consoleOf(all.guid)).refund).toBeNull()

    // the mails: one each for the orders that missed plays, in the shopper's language
    await server.deps.mail.planDue()
    await server.deps.mail.sendDue()
    const fr = await smtp.waitFor(
      (m) => to(m) === 'some@example.com' && /remboursement/.test(m.subject ?? ''),
    )
    expect(fr.subject).toBe(
      `Votre shout n’a pas été diffusé à chaque fois\u202f: votre remboursement (${some.confirmationCode})`,
    )
    expect(fr.text).toContain('7 diffusions sur 8')
    expect(fr.text).toMatch(/Non diffusé: .*: 1 diffusion sur 4/)
    expect(fr.text).toContain(
      `Remboursé: ${new Intl.NumberFormat('fr-FR', { style: 'currency', currency: some.currency }).format(quarter / 100)}`,
    )
    const de = await smtp.waitFor(
      (m) => to(m) === 'none@example.com' && /Erstattung/.test(m.subject ?? ''),
    )
    expect(de.text).toContain('0 von 4 Ausstrahlungen')
    expect(mailsTo('all@example.com').some((m) => /refund/i.test(m.subject ?? ''))).toBe(false)

    // another pass of every job changes nothing: no second refund, no second mail
    clock.advance(HOUR)
    await runMakeGoods()
    await server.deps.payment.retryRefunds()
    await server.deps.mail.planDue()
    await server.deps.mail.sendDue()
    const refunds = await server.deps.database.query(sql<{ n: number }>`
      select count(*)::int as n from refunds where order_guid = any(${[all.guid, some.guid, none.guid]})`)
    expect(refunds[0]?.n).toBe(2)
    expect(
      mailsTo('some@example.com').filter((m) => /remboursement/.test(m.subject ?? '')),
    ).toHaveLength(1)
    expect(
      mailsTo('none@example.com').filter((m) => /Erstattung/.test(m.subject ?? '')),
    ).toHaveLength(1)

    // a proof that arrives after the make-good is kept as proof, but the money stays as decided
    expect(await prove(none, none.slots[0]?.slotNumber as number)).toBe(4)
    clock.advance(HOUR)
    await runMakeGoods()
    const after = await summaryOf(none.guid)
    expect(after.plays).toHaveLength(4)
    expect(after.makeGood).toMatchObject({ playsProven: 0, refundCents: none.totalCents })
    expect((await consoleOf(none.guid)).refundedCents).toBe(none.totalCents)
  })

  it('refunds a make-good once when the process died between the refund and its record', async () => {
    const order = await buy(daySlots(3, 40, 1), 'crash@example.com', 'en')
    clock.advance(lastEnd(order) + 6 * HOUR - clock.now())
    await runMakeGoods()
    expect((await summaryOf(order.guid)).makeGood?.refundStatus).toBe('succeeded')
    // the provider refunded, but the process died before the refund was marked done
    const db = server.deps.database
    await db.query(sql`update refunds set status = 'pending', completed_at = null,
      created_at = now() - interval '1 hour' where order_guid = ${order.guid}`)
    server = await server.restart({ clock, now: () => clock.now() })
    api = client(server.url)
    await server.deps.jobs.idle()
    await server.deps.payment.retryRefunds()
    await runMakeGoods()
    const [payment] = await server.deps.database.query(sql<{ refunded: number; amount: number }>`
      select refunded_cents::int as refunded, amount_cents::int as amount
      from payments where order_guid = ${order.guid}`)
    expect(payment).toEqual({ refunded: order.totalCents, amount: order.totalCents })
    expect(await refundKeys(order.guid)).toEqual([
      `make-good-${order.guid}-${order.slots[0]?.slotNumber} succeeded`,
    ])
    expect((await summaryOf(order.guid)).makeGood?.refundCents).toBe(order.totalCents)
  })

  it('refunds a missed slot the grace after it ends, not after the order’s last slot, and mails once', async () => {
    const order = await buy(
      [...daySlots(3, 90, 1), ...daySlots(4, 10, 1)],
      'days@example.com',
      'en',
    )
    const [first, second] = order.slots as [OrderSummary['slots'][0], OrderSummary['slots'][0]]
    const firstShare = Math.ceil(order.totalCents / 2)
    // the first day's slot does not play at all: refunded a day before the order's last slot
    clock.advance(first.endEpochMs + 6 * HOUR - clock.now())
    await runMakeGoods()
    expect((await summaryOf(order.guid)).makeGood).toMatchObject({
      playsDue: 4,
      playsProven: 0,
      missed: [{ slotNumber: first.slotNumber, missedPlays: 4, refundCents: firstShare }],
      refundCents: firstShare,
      refundStatus: 'succeeded',
    })
    expect(await refundKeys(order.guid)).toEqual([
      `make-good-${order.guid}-${first.slotNumber} succeeded`,
    ])
    // the mail waits for the order's every slot, so it can say all that played
    await server.deps.mail.planDue()
    expect(mailsTo('days@example.com').some((m) => /refund/i.test(m.subject ?? ''))).toBe(false)

    // the second day's slot plays in full: decided then, nothing more refunded, one mail for both
    clock.advance(second.endEpochMs + 60_000 - clock.now())
    await server.deps.jobs.idle()
    expect(await prove(order, second.slotNumber)).toBe(4)
    clock.advance(second.endEpochMs + 6 * HOUR - clock.now())
    await runMakeGoods()
    await runMakeGoods()
    expect((await summaryOf(order.guid)).makeGood).toMatchObject({
      playsDue: 8,
      playsProven: 4,
      missed: [{ slotNumber: first.slotNumber, missedPlays: 4, refundCents: firstShare }],
      refundCents: firstShare,
      refundStatus: 'succeeded',
    })
    expect(await refundKeys(order.guid)).toHaveLength(1)
    await server.deps.mail.planDue()
    await server.deps.mail.sendDue()
    const mail = await smtp.waitFor(
      (m) => to(m) === 'days@example.com' && /refund/i.test(m.subject ?? ''),
    )
    expect(mail.text).toContain('4 of 8')
    await server.deps.mail.planDue()
    await server.deps.mail.sendDue()
    expect(mailsTo('days@example.com').filter((m) => /refund/i.test(m.subject ?? ''))).toHaveLength(
      1,
    )
  })
})

describe.skipIf(!BACKENDS.includes('postgres'))('make-goods on two instances (PostgreSQL)', () => {
  let a: TestServer
  let b: RunningServer
  let dataDir: string
  const clock = createManualClock(Date.now())

  beforeAll(async () => {
    a = await startTestServer('postgres', { clock, now: () => clock.now() })
    dataDir = await mkdtemp(path.join(tmpdir(), 'shouts-make-goods-'))
    b = await startServer({
      port: 0,
      serveApp: false,
      dataDir,
      databaseUrl: a.deps.env.DATABASE_URL as string,
      now: () => clock.now(),
      clock: createManualClock(Date.now()),
      log: createLogger('silent'),
      env: { WRITES_PER_MINUTE: '100000' },
    })
  })
  afterAll(async () => {
    await b?.close()
    await a?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('decide each slot once and refund it once when both run at the same time', async () => {
    const api = client(a.url)
    const content = await generateContent(api)
    const orders = await Promise.all(
      [40, 44, 48].map((from) => boughtOrder(api, { slots: daySlots(2, from, 2), content })),
    )
    const summaries = await Promise.all(
      orders.map(async (o) =>
        answerOf(orderEndpoints.summary, await api.get(`/order/events/${LIVE}/orders/${o.guid}`)),
      ),
    )
    const end = Math.max(...summaries.flatMap((s) => s.slots.map((slot) => slot.endEpochMs)))
    clock.advance(end + 6 * HOUR - clock.now())
    await Promise.all([a.deps.jobs.idle(), b.deps.jobs.idle()])
    await Promise.all([
      a.deps.jobs.runNow('make-goods'),
      b.deps.jobs.runNow('make-goods'),
      a.deps.jobs.runNow('make-goods'),
    ])
    const guids = orders.map((o) => o.guid)
    const rows = await a.deps.database.query(sql<{ guid: string; refunded: number }>`
      select order_guid as guid, refunded_cents::int as refunded from payments
      where order_guid = any(${guids}) order by order_guid`)
    expect(rows.map((r) => r.refunded)).toEqual(
      [...summaries].sort((x, y) => (x.guid < y.guid ? -1 : 1)).map((s) => s.totalCents),
    )
    // each of the six slots decided once, each refunded once under its own key
    const decided = await a.deps.database.query(sql<{ n: number }>`
      select count(*)::int as n from make_good_slots where order_guid = any(${guids})`)
    expect(decided[0]?.n).toBe(6)
    const refunds = await a.deps.database.query(sql<{ n: number }>`
      select count(*)::int as n from refunds where order_guid = any(${guids}) and status = 'succeeded'`)
    expect(refunds[0]?.n).toBe(6)
  })
})

describe('make-goods through Stripe', () => {
  const SECRET = 'sk_test_shouts_make_goods'
  let stripe: StripeStandIn
  let server: TestServer
  const clock = createManualClock(Date.now())

  beforeAll(async () => {
    stripe = await startStripeStandIn(SECRET)
    server = await startTestServer('pglite', {
      clock,
      now: () => clock.now(),
      env: stripe.env,
    })
  })
  afterAll(async () => {
    await server?.stop()
    await stripe?.close()
  })

  it('refunds the missed share of the PaymentIntent once, under the slot’s make-good key', async () => {
    const api = client(server.url)
    const content = await generateContent(api)
    const setup = answerOf(
      orderEndpoints.setupIntent,
      await api.post('/order/payment/setup-intent'),
    )
    stripe.confirmSetup(setup.clientSecret, 'pm_card_visa')
    const placed = await placeOrder(
      api,
      orderBody({ slots: daySlots(2, 40, 2), content, checkout: setup }),
    )
    expect(placed.status).toBe(201)
    const guid = placed.body.guid
    expect((await settledStatus(api, LIVE, guid)).orderState).toBe('Confirmed')
    const order = answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${guid}`),
    )
    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    const linked = await server.deps.player.link(order.device.deviceId)
    if (!linked.ok) throw new Error('link failed')
    // the first slot plays in full, the second not at all: half of what was paid comes back
    const [first, second] = order.slots as [OrderSummary['slots'][0], OrderSummary['slots'][0]]
    clock.advance(second.endEpochMs + 60_000 - clock.now())
    const plays = proofsOfSlot(event, order.device.timeZoneId, guid, first.slotNumber, {
      start: 40,
      end: 20,
    })
    const posted = await api.post(
      `/player/${order.device.deviceId}/plays`,
      { plays },
      { authorization: `Bearer ${linked.value.token}` },
    )
    expect(posted.status).toBe(202)
    clock.advance(second.endEpochMs + 6 * HOUR - clock.now())
    await server.deps.jobs.idle()
    await server.deps.jobs.runNow('make-goods')
    const owed = Math.floor(order.totalCents / 2)
    const [row] = await server.deps.database.query(sql<{ paymentId: string }>`
      select payment_id as "paymentId" from orders where guid = ${guid}`)
    const made = () => stripe.refunds.filter((r) => r.paymentIntent === row?.paymentId)
    expect(made()).toEqual([
      { id: expect.stringMatching(/^re_/), paymentIntent: row?.paymentId, amount: owed },
    ])
    const call = stripe.calls.find((c) => c.path === '/v1/refunds')
    expect(call?.idempotencyKey).toBe(`make-good-${guid}-${second.slotNumber}`)

    // the refund was made but the process died before it was marked: sent again, refunded once
    await server.deps.database.query(sql`update refunds set status = 'pending',
      completed_at = null, created_at = now() - interval '1 hour' where order_guid = ${guid}`)
    await server.deps.payment.retryRefunds()
    await server.deps.jobs.runNow('make-goods')
    expect(made()).toHaveLength(1)
    expect(stripe.calls.filter((c) => c.path === '/v1/refunds').at(-1)?.idempotencyKey).toBe(
      `make-good-${guid}-${second.slotNumber}`,
    )
    const summary = answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${guid}`),
    )
    expect(summary.makeGood).toMatchObject({ refundCents: owed, refundStatus: 'succeeded' })
  })
})
