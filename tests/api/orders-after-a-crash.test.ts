import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  BACKENDS,
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

// An order left Processing by a crash is finished or failed when the server starts again,
// and a shopper is never charged twice for it.
describe.each(BACKENDS)('orders a crash left Processing, on %s', (backend) => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer(backend)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('are finished when the server starts again, each card charged once', async () => {
    let api = client(server.url)
    const content = await generateContent(api)
    // A: the crash came after the charge but before the state was written.
    const a = await placeOrder(
      api,
      orderBody({ slots: daySlots(4, 10, 2), content, checkout: await savedCard(api) }),
    )
    // B: the crash came before the charge.
    const b = await placeOrder(
      api,
      orderBody({ slots: daySlots(4, 20, 2), content, checkout: await savedCard(api) }),
    )
    // C: the card is refused when charged: recovery fails the order and frees its slots.
    const c = await placeOrder(
      api,
      orderBody({
        slots: daySlots(4, 30, 2),
        content,
        checkout: await savedCard(api, '4000000000000341'),
      }),
    )
    for (const order of [a, b, c]) {
      expect(order.status).toBe(201)
      await settledStatus(api, LIVE, order.body.guid)
    }
    const db = server.deps.database
    const all = [a.body.guid, b.body.guid, c.body.guid]
    const unpaid = [b.body.guid, c.body.guid]
    await db.query(sql`update orders set state = 'Processing' where guid = any(${all})`)
    await db.query(sql`delete from payments where order_guid = any(${unpaid})`)
    await db.query(
      sql`update orders set payment_id = null, errors = '[]' where guid = any(${unpaid})`,
    )
    await db.query(sql`
      insert into slot_reservations (event_slug, device_id, slot_number, order_guid)
      select event_slug, device_id, unnest(slot_numbers), guid from orders where guid = ${c.body.guid}`)

    server = await server.restart()
    api = client(server.url)
    expect((await settledStatus(api, LIVE, a.body.guid)).orderState).toBe('Confirmed')
    expect((await settledStatus(api, LIVE, b.body.guid)).orderState).toBe('Confirmed')
    expect(await settledStatus(api, LIVE, c.body.guid)).toMatchObject({
      orderState: 'Failed',
      errors: ['Your card was declined.'],
    })
    const payments = await server.deps.database.query(sql<{ order_guid: string; status: string }>`
      select order_guid, status from payments
      where order_guid = any(${[a.body.guid, b.body.guid, c.body.guid]})`)
    expect(payments.filter((p) => p.order_guid === a.body.guid)).toHaveLength(1)
    expect(payments.filter((p) => p.order_guid === b.body.guid)).toEqual([
      { order_guid: b.body.guid, status: 'succeeded' },
    ])
    const held = await server.deps.database.query(
      sql`select 1 from slot_reservations where order_guid = ${c.body.guid}`,
    )
    expect(held).toHaveLength(0)
  })
})
