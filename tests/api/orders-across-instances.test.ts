// Orders: an order in Processing is held by the instance that placed it under a lease. While
// that instance lives, no other touches the order; when it dies mid-charge, a live instance claims the
// order once the lease ends and finishes it, and the card is charged once (the charge is keyed by the
// order: Stripe's Idempotency-Key).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { order } from '../../src/contract/order.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import {
  answerOf,
  client,
  daySlots,
  freshPostgres,
  generateContent,
  LIVE,
  orderBody,
  POSTGRES_URL,
  placeOrder,
} from './helpers.ts'
import { type Instance, sleep, spawnInstance, until } from './instances.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts'

const SECRET = 'sk_test_shouts_leases'
const LEASE_SECONDS = 1

describe.skipIf(!POSTGRES_URL)('orders in Processing across instances (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof freshPostgres>>
  let dataDir: string
  let stripe: StripeStandIn
  let a: Instance | null = null
  let b: RunningServer | null = null

  beforeAll(async () => {
    database = await freshPostgres()
    dataDir = await mkdtemp(path.join(tmpdir(), 'shouts-order-leases-'))
    stripe = await startStripeStandIn(SECRET)
  })
  afterAll(async () => {
    stripe?.holdCharges(false)
    await a?.kill()
    await b?.close()
    await stripe?.close()
    await database?.drop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('finishes the order of an instance killed mid-charge, charging the card once', async () => {
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LEASE_SECONDS: String(LEASE_SECONDS),
      ...stripe.env,
    }
    // B first: it imports the demo catalogue into the empty database.
    b = await startServer({
      port: 0,
      serveApp: false,
      log: createLogger('silent'),
      env,
    })
    a = await spawnInstance('tests/api/fixtures/probe-instance.ts', env)
    const onA = client(a.url)
    const onB = client(b.url)

    const content = await generateContent(onA)
    const setup = answerOf(order.setupIntent, await onA.post('/order/payment/setup-intent'))
    stripe.confirmSetup(setup.clientSecret, 'pm_card_visa')

    // Stripe makes the charge, but A never hears back: it keeps waiting, renewing its lease.
    stripe.holdCharges(true)
    const placed = await placeOrder(
      onA,
      orderBody({ slots: daySlots(3, 40, 2), content, checkout: setup }),
    )
    expect(placed.status).toBe(201)
    const guid = placed.body.guid
    const chargeCalls = () => stripe.calls.filter((c) => c.path === '/v1/payment_intents')
    await until(async () => (chargeCalls().length > 0 ? true : null), 20_000, 'a charge')

    // For three lease lengths A lives: B leaves its order alone.
    await sleep(3 * LEASE_SECONDS * 1000)
    expect(chargeCalls()).toHaveLength(1)
    const during = answerOf(
      order.status,
      await onB.get(`/order/events/${LIVE}/orders/${guid}/status`),
    )
    expect(during.orderState).toBe('Processing')

    // A is killed: B claims the order once A's lease ends, and finishes it.
    await a.kill()
    stripe.holdCharges(false)
    const settled = await until(
      async () => {
        const res = answerOf(
          order.status,
          await onB.get(`/order/events/${LIVE}/orders/${guid}/status`),
        )
        return res.orderState === 'Processing' ? null : res
      },
      20_000,
      'the order to leave Processing',
    )
    expect(settled).toMatchObject({ orderState: 'Confirmed', errors: [] })

    // One card charge: B's retry carried the same Idempotency-Key and got Stripe's first answer.
    expect(chargeCalls().length).toBeGreaterThanOrEqual(2)
    expect(new Set(chargeCalls().map((c) => c.idempotencyKey))).toEqual(new Set([`order-${guid}`]))
    expect(stripe.paymentIntents).toHaveLength(1)
    const [row] = await b.deps.database.query(sql<{
      paymentId: string
      leaseOwner: string | null
    }>`select payment_id as "paymentId", lease_owner as "leaseOwner" from orders
      where guid = ${guid}`)
    expect(row).toEqual({ paymentId: stripe.paymentIntents[0], leaseOwner: null })
    const held = await b.deps.database.query(
      sql`select slot_number from slot_reservations where order_guid = ${guid}`,
    )
    expect(held).toHaveLength(2)
  })
})
