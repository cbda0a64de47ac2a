import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content } from '../../src/contract/content.ts'
import type { OpsOrder } from '../../src/contract/index.ts'
import { ops } from '../../src/contract/ops/orders.ts'
import { order as orderEndpoints } from '../../src/contract/order.ts'
import { createManualClock } from '../../src/server/platform/clock.ts'
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
  newKey,
  orderBody,
  POSTGRES_URL,
  placeOrder,
  replyOf,
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'

// Data has a lifetime (docs/security.md): a shopper's photo and the shouts made of it that no order
// names are deleted UNORDERED_CONTENT_TTL_HOURS after they were made, rows and files; what an order
// names stays.

const HOUR_MS = 60 * 60 * 1000

async function contentFileOf(api: Client, key: string) {
  const entry = await api.get(`/content/${key}`)
  return entry.status === 200 ? (answerOf(content.entries, entry).entries[0]?.url ?? null) : null
}

describe.each(BACKENDS)('content nobody ordered (%s)', (backend) => {
  let server: TestServer
  let api: Client
  let later = 0

  beforeAll(async () => {
    server = await startTestServer(backend, {
      env: { UNORDERED_CONTENT_TTL_HOURS: '24' },
      now: () => Date.now() + later,
    })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const fileOf = (key: string) => contentFileOf(api, key)

  it('is gone a day later, with its files, while the ordered shout and its photo stay', async () => {
    const ordered = await generateContent(api)
    const abandoned = await generateContent(api, undefined, undefined, undefined, 'Never bought')
    const order = await boughtOrder(api, { slots: daySlots(2, 40, 1), content: ordered })
    expect(order.state).toBe('Confirmed')
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: 0, g: 90, b: 200 } },
    })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png')
    const res = await fetch(`${server.url}/api/v1/content/uploads`, { method: 'POST', body: form })
    const lonely = answerOf(content.upload, await replyOf(res))
    expect(lonely.url).toEqual(expect.any(String))
    const abandonedFile = await fileOf(abandoned.key)
    const orderedFile = await fileOf(ordered.key)
    expect(abandonedFile).not.toBeNull()

    // Before its lifetime ends, nothing goes.
    later = 23 * HOUR_MS
    await server.deps.jobs.runNow('content-lifetime')
    expect((await api.get(`/content/${abandoned.key}`)).status).toBe(200)
    expect((await api.get(`/content/uploads/${lonely.id}`)).status).toBe(200)

    later = 25 * HOUR_MS
    await server.deps.jobs.runNow('content-lifetime')
    expect((await api.get(`/content/${abandoned.key}`)).status).toBe(404)
    expect((await fetch(new URL(abandonedFile ?? '', server.url))).status).toBe(404)
    expect((await api.get(`/content/uploads/${lonely.id}`)).status).toBe(404)
    expect((await fetch(new URL(lonely.url ?? '', server.url))).status).toBe(404)
    // The ordered shout, and the photo it was made of, are kept.
    expect((await api.get(`/content/${ordered.key}`)).status).toBe(200)
    expect((await fetch(new URL(orderedFile ?? '', server.url))).status).toBe(200)
    expect((await api.get(`/content/uploads/${ordered.source.uploadId}`)).status).toBe(200)
  })
})

const DAY_MS = 24 * HOUR_MS

describe.each(BACKENDS)("an order's personal data (%s)", (backend) => {
  let server: TestServer
  let api: Client
  let later = 0

  beforeAll(async () => {
    server = await startTestServer(backend, {
      env: { ORDER_CONTENT_TTL_DAYS: '30' },
      now: () => Date.now() + later,
    })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const opsOrder = async (guid: string) => {
    // a new operator each time: a session does not last the month the clock jumps
    const admin = await signedInOperator(server, 'admin')
    const res = answerOf(ops.order, await admin.api.get(`/ops/orders/${guid}`))
    return res
  }
  const mailsOf = (guid: string) =>
    server.deps.database.query(sql<{ to: string; body: string }>`
      select to_address as "to", body_text as body from mail_outbox where order_guid = ${guid}`)

  it('is forgotten 30 days after its last slot while its amounts, slots and states stay', async () => {
    const content = await generateContent(api, undefined, undefined, undefined, 'Für Oma, 80!')
    const order = await boughtOrder(api, {
      slots: daySlots(2, 40, 2),
      content,
      email: 'oma@example.com',
    })
    expect(order.state).toBe('Confirmed')
    const summary = answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${order.guid}`),
    )
    const lastEnd = Math.max(...summary.slots.map((s) => s.endEpochMs))
    const photo = await contentFileOf(api, content.key)
    await server.deps.jobs.runNow('mail-planner')
    expect((await mailsOf(order.guid)).map((m) => m.to)).toContain('oma@example.com')
    const before = await opsOrder(order.guid)
    expect(before.contact).toMatchObject({ email: 'oma@example.com', firstName: 'Ana' })
    expect(before.message.multilineMessage).toBe('Für Oma, 80!')
    // the console's order page says when it goes
    expect(before.personalDataUntilEpochMs).toBe(lastEnd + 30 * DAY_MS)
    expect(before.personalDataForgotten).toBe(false)

    // A minute before the lifetime ends, all is kept.
    later = lastEnd + 30 * DAY_MS - 60_000 - Date.now()
    await server.deps.jobs.runNow('order-data-lifetime')
    expect((await opsOrder(order.guid)).contact.email).toBe('oma@example.com')
    expect((await api.get(`/content/${content.key}`)).status).toBe(200)

    later = lastEnd + 30 * DAY_MS + 60_000 - Date.now()
    await server.deps.jobs.runNow('order-data-lifetime')
    const after = await opsOrder(order.guid)
    expect(after.contact).toEqual({
      email: '',
      firstName: '',
      lastName: '',
      phoneNumber: '',
      willReceiveMarketing: false,
    })
    expect(after.message).toEqual({ buyerName: '', recipientName: '', multilineMessage: '' })
    expect(after.personalDataForgotten).toBe(true)
    // the photo and the shout made of it are gone, rows and files
    expect((await api.get(`/content/${content.key}`)).status).toBe(404)
    expect((await fetch(new URL(photo ?? '', server.url))).status).toBe(404)
    expect((await api.get(`/content/uploads/${content.source.uploadId}`)).status).toBe(404)
    // the mails no longer say who or what
    const mails = await mailsOf(order.guid)
    expect(mails.length).toBeGreaterThan(0)
    for (const mail of mails) expect(mail).toEqual({ to: '', body: '' })
    // the accounting stays
    const kept = (o: OpsOrder) => ({
      state: o.orderState,
      slots: o.slots,
      totalCents: o.totalCents,
      subtotalCents: o.subtotalCents,
      currency: o.currency,
      confirmationCode: o.confirmationCode,
      payment: o.payment,
      history: o.history,
    })
    expect(kept(after)).toEqual(kept(before))
    // a second run finds nothing more to do
    await server.deps.jobs.runNow('order-data-lifetime')
    expect((await opsOrder(order.guid)).contact.email).toBe('')
  })
})

// The sweep of unordered content and an order naming that content, at the same moment, on PostgreSQL
// (the embedded database runs one transaction at a time). Each case pins one side inside its
// statement with a lock the test holds, then lets the other run: no waiting for time.
describe.skipIf(!POSTGRES_URL)(
  'an order placed as its content turns a day old (PostgreSQL)',
  () => {
    let server: TestServer
    let api: Client
    let later = 0

    beforeAll(async () => {
      server = await startTestServer('postgres', {
        env: { UNORDERED_CONTENT_TTL_HOURS: '24' },
        now: () => Date.now() + later,
      })
      api = client(server.url)
    })
    afterAll(async () => {
      await server?.stop()
    })

    /** Until this many other statements of this database wait for a lock. */
    const statementsWaiting = async (count: number) => {
      for (let i = 0; i < 2_000; i++) {
        const [row] = await server.deps.database.query(sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`)
        if ((row?.n ?? 0) >= count) return
        await new Promise((resolve) => setImmediate(resolve))
      }
      throw new Error(`fewer than ${count} statements waiting for a lock`)
    }

    /** Runs `hold` in a transaction kept open until the answer's `release` is called (then rolled back). */
    const holding = async (
      hold: (
        tx: Parameters<Parameters<TestServer['deps']['database']['transaction']>[0]>[0],
      ) => Promise<unknown>,
    ) => {
      let release = () => {}
      const released = new Promise<void>((resolve) => {
        release = resolve
      })
      let held = () => {}
      const ready = new Promise<void>((resolve) => {
        held = resolve
      })
      const done = server.deps.database
        .transaction(async (tx) => {
          await hold(tx)
          held()
          await released
          throw new Error('rolled back')
        })
        .catch(() => undefined)
      await ready
      return async () => {
        release()
        await done
      }
    }

    it('an order whose content the sweep is deleting is refused, asking for content again', async () => {
      later = 0
      const content = await generateContent(api, undefined, undefined, undefined, 'Swept away')
      const checkout = await savedCard(api)
      // The sweep will stop inside its transaction, its lock on the content taken, at a job row that
      // names the content and that the test holds.
      const jobId = `race-${newKey()}`
      await server.deps.database.query(sql`
      insert into content_jobs (id, public_token, kind, status, payload, result_key)
      values (${jobId}, ${jobId}, 'generate', 'done', '{}'::jsonb, ${content.key})`)
      const release = await holding((tx) =>
        tx.query(sql`select 1 from content_jobs where id = ${jobId} for update`),
      )
      later = 25 * HOUR_MS
      const sweep = server.deps.jobs.runNow('content-lifetime')
      await statementsWaiting(1)
      const placing = placeOrder(api, orderBody({ slots: daySlots(3, 40, 1), content, checkout }))
      await statementsWaiting(2)
      await release()
      await sweep
      const placed = await placing
      expect(placed.status).toBe(400)
      expect(placed.body.codes).toEqual(['missing_billboard_content'])
      expect((await api.get(`/content/${content.key}`)).status).toBe(404)
    })

    it('the sweep keeps content an order is being placed with, and the order plays it', async () => {
      later = 0
      // a shopper of their own: the first case's photo is gone
      const api = client(server.url)
      const content = await generateContent(api, undefined, undefined, undefined, 'Just in time')
      const checkout = await savedCard(api)
      // The order will stop inside its statement, after its hold on the content, at its
      // Idempotency-Key, which the test is writing too.
      const key = newKey()
      const release = await holding((tx) =>
        tx.query(sql`insert into idempotency_keys (key, request_hash, status_code, response_body)
        values (${key}, 'test', 201, '{}'::jsonb)`),
      )
      const placing = placeOrder(
        api,
        orderBody({ slots: daySlots(3, 44, 1), content, checkout }),
        key,
      )
      await statementsWaiting(1)
      later = 25 * HOUR_MS
      await server.deps.jobs.runNow('content-lifetime')
      await release()
      const placed = await placing
      expect(placed.status).toBe(201)
      expect((await settledStatus(api, LIVE, placed.body.guid)).orderState).toBe('Confirmed')
      expect((await api.get(`/content/${content.key}`)).status).toBe(200)
      // and once ordered, later sweeps keep it
      await server.deps.jobs.runNow('content-lifetime')
      expect((await api.get(`/content/${content.key}`)).status).toBe(200)
    })
  },
)

// An order the processing never finished (its instance gone, its processing failing over and over)
// is forgotten too once its lifetime ends; one a live instance is processing right now is kept until
// its lease is free. The background jobs run by a manual clock that never moves here, so nothing
// recovers the orders behind the test's back; the shop's clock jumps.
describe.each(BACKENDS)("an order's personal data left in Processing (%s)", (backend) => {
  let server: TestServer
  let api: Client
  let later = 0

  beforeAll(async () => {
    const clock = createManualClock(Date.now())
    server = await startTestServer(backend, {
      env: { ORDER_CONTENT_TTL_DAYS: '30' },
      now: () => clock.now() + later,
      clock,
    })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const contactOf = async (guid: string) => {
    const [row] = await server.deps.database.query(sql<{ email: string; state: string }>`
      select email, state from orders where guid = ${guid}`)
    return row
  }

  it('is forgotten past its lifetime whatever its state, unless an instance is processing it', async () => {
    const stuckContent = await generateContent(api, undefined, undefined, undefined, 'Stuck')
    const busyContent = await generateContent(api, undefined, undefined, undefined, 'Busy')
    const stuck = await boughtOrder(api, {
      slots: daySlots(2, 40, 1),
      content: stuckContent,
      email: 'stuck@example.com',
    })
    const busy = await boughtOrder(api, {
      slots: daySlots(2, 44, 1),
      content: busyContent,
      email: 'busy@example.com',
    })
    const db = server.deps.database
    // one left by an instance that died a while ago, one held by a live instance right now
    await db.query(sql`update orders set state = 'Processing', lease_owner = 'gone',
      lease_expires_at = now() - interval '1 hour' where guid = ${stuck.guid}`)
    await db.query(sql`update orders set state = 'Processing', lease_owner = 'alive',
      lease_expires_at = now() + interval '1 hour' where guid = ${busy.guid}`)
    const summary = answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${busy.guid}`),
    )
    const lastEnd = Math.max(...summary.slots.map((s) => s.endEpochMs))

    later = lastEnd + 31 * DAY_MS - Date.now()
    await server.deps.jobs.runNow('order-data-lifetime')
    expect(await contactOf(stuck.guid)).toEqual({ email: '', state: 'Processing' })
    expect((await api.get(`/content/${stuckContent.key}`)).status).toBe(404)
    // the order being processed keeps its data and its content
    expect(await contactOf(busy.guid)).toEqual({ email: 'busy@example.com', state: 'Processing' })
    expect((await api.get(`/content/${busyContent.key}`)).status).toBe(200)

    // its instance gone too, the next sweep forgets it
    await db.query(sql`update orders set lease_expires_at = now() - interval '1 second'
      where guid = ${busy.guid}`)
    await server.deps.jobs.runNow('order-data-lifetime')
    expect(await contactOf(busy.guid)).toEqual({ email: '', state: 'Processing' })
    // handed back: the orders' recovery finds them as before
    const [leases] = await db.query(sql<{ n: number }>`select count(*)::int as n from orders
      where guid in (${stuck.guid}, ${busy.guid}) and lease_owner is null`)
    expect(leases?.n).toBe(2)
  })
})
