import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OpsOrder, OrderSummary } from '../../src/contract/index.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  BACKENDS,
  boughtOrder,
  type Client,
  client,
  daySlots,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'

// Data has a lifetime (docs/security.md): a shopper's photo and the shouts made of it that no order
// names are deleted UNORDERED_CONTENT_TTL_HOURS after they were made, rows and files; what an order
// names stays.

const HOUR_MS = 60 * 60 * 1000

async function contentFileOf(api: Client, key: string) {
  const entry = await api.get<{ entries: { url: string }[] }>(`/content/${key}`)
  return entry.status === 200 ? (entry.body.entries[0]?.url ?? null) : null
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
    const lonely = (await res.json()) as { id: string; url: string }
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
    expect((await fetch(new URL(lonely.url, server.url))).status).toBe(404)
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
    const res = await admin.api.get<OpsOrder>(`/ops/orders/${guid}`)
    expect(res.status).toBe(200)
    return res.body
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
    const summary = await api.get<OrderSummary>(`/order/events/${LIVE}/orders/${order.guid}`)
    const lastEnd = Math.max(...summary.body.slots.map((s) => s.endEpochMs))
    const photo = await contentFileOf(api, content.key)
    await server.deps.jobs.runNow('mail-planner')
    expect((await mailsOf(order.guid)).map((m) => m.to)).toContain('oma@example.com')
    const before = await opsOrder(order.guid)
    expect(before.contact).toMatchObject({ email: 'oma@example.com', firstName: 'Ana' })
    expect(before.message.multilineMessage).toBe('Für Oma, 80!')

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
