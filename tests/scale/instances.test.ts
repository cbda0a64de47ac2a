// The proof: three instances of the server (each its own process, src/server/main.ts) on one
// PostgreSQL and one S3 bucket (s3rver), paying through the Stripe stand-in. 60 shoppers race for 20
// slots across the instances; two videos are uploaded; one instance is killed (SIGKILL) while it holds
// a content job and orders in Processing (their charges made at Stripe, the answers not yet back). The
// two others finish everything within 30 s: no order left Processing, no slot sold twice, no card
// charged twice, every video ready. Before that, the promo limit: the instances stand behind one trusted
// proxy (TRUST_PROXY=1, the client in X-Forwarded-For); one client whose lookups are spread over the
// three instances is limited as one, and two clients behind that proxy each get their own limit.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { makeTestVideo } from '../../src/server/video/test-videos.ts'
import {
  type Checkout,
  client,
  daySlots,
  freshPostgres,
  generateContent,
  LIVE,
  orderBody,
  POSTGRES_URL,
  placeOrder,
  requireFfmpeg,
} from '../api/helpers.ts'
import { type Instance, spawnInstance, until } from '../api/instances.ts'
import { type StripeStandIn, startStripeStandIn } from '../api/stripe-stand-in.ts'

type S3rverInstance = { run(): Promise<{ port: number }>; close(): Promise<void> }
type S3rverClass = new (options: {
  address: string
  port: number
  silent: boolean
  directory: string
  configureBuckets: { name: string }[]
}) => S3rverInstance
// s3rver ships no types: its constructor is described above.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass

const SECRET = 'sk_test_shouts_scale'
const BUCKET = 'shouts-scale'
const LEASE_SECONDS = 2
const SHOPPERS = 60
const SLOTS = daySlots(6, 0, 20)
// Bought on the victim alone after the race, so that it surely holds orders in Processing when it is
// killed: which instance wins each raced slot is up to the race. Each slot is raced by one shopper on
// each instance, and one instance usually wins all 20: timed per request (after a run where the victim won none), each
// instance answered its 20 orders in one burst (in one run instance 0 answered its 20 at 1.3-1.9 s
// and won them all, instance 2 at 2.5-2.9 s, instance 1 at 2.8-3.1 s; in the run before, the victim
// lost all 20). Three busy servers, PostgreSQL, the Stripe stand-in and this test share two cores:
// the scheduler runs one server's event loop long enough to take all its waiting requests through
// to their insert before the next one runs. That is fairness of CPU time, not a defect: a slot goes
// to the first insert to commit, the unique key refuses the others, and no instance is favoured by
// the code (the same statements, the same pool of 10 connections each).
const VICTIM_SLOTS = daySlots(6, 30, 3)
const ALL_SLOTS = [...SLOTS, ...VICTIM_SLOTS]
// Promo lookups a client may make per minute, over all the instances together.
const PROMO_LIMIT = 6

if (!POSTGRES_URL) {
  console.warn(
    'tests/scale skipped: TEST_DATABASE_URL is not set (a PostgreSQL the instances share; .ci/run sets it)',
  )
}

describe.skipIf(!POSTGRES_URL)('three instances on one PostgreSQL and one bucket', () => {
  let database: Awaited<ReturnType<typeof freshPostgres>>
  let work: string
  let s3: S3rverInstance
  let stripe: StripeStandIn
  let db: Database
  const instances: Instance[] = []

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'shouts-scale-'))
    database = await freshPostgres()
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(work, 's3'),
      configureBuckets: [{ name: BUCKET }],
    })
    const { port } = await s3.run()
    stripe = await startStripeStandIn(SECRET)
    const shared = {
      DATABASE_URL: database.url,
      APP_ENV: 'local',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: '0',
      LEASE_SECONDS: String(LEASE_SECONDS),
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'eu-west-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      ...stripe.env,
      // One proxy in front (the load balancer): the client is the last X-Forwarded-For entry.
      TRUST_PROXY: '1',
      PROMO_LOOKUPS_PER_MINUTE: String(PROMO_LIMIT),
    }
    // Started at once: one imports the demo catalogue (under its lock), the others find it there.
    instances.push(
      ...(await Promise.all(
        [0, 1, 2].map((i) =>
          spawnInstance('src/server/main.ts', { ...shared, DATA_DIR: path.join(work, `i${i}`) }, [
            '--api-only',
          ]),
        ),
      )),
    )
    db = await openDatabase({ dataDir: work, databaseUrl: database.url })
  })

  afterAll(async () => {
    stripe?.holdCharges(false)
    for (const instance of instances) await instance.kill()
    await db?.close()
    await stripe?.close()
    await s3?.close()
    await database?.drop()
    if (work) await rm(work, { recursive: true, force: true })
  })

  it('limits promo lookups per client across the instances, behind a trusted proxy', async () => {
    const apis = instances.map((instance) => client(instance.url))
    // What the load balancer sends: the client's address appended to X-Forwarded-For.
    const from = (address: string) => ({ 'x-forwarded-for': address })
    const lookup = (i: number, address: string) =>
      (apis[i % 3] as ReturnType<typeof client>).get<{ codes?: string[] }>(
        `/spotlight/promos/code/GUESS${i}?eventSlug=${LIVE}`,
        from(address),
      )
    // One client, its lookups spread over the three instances in turn: the limit is one budget.
    const one: Awaited<ReturnType<typeof lookup>>[] = []
    for (let i = 0; i < PROMO_LIMIT + 3; i++) one.push(await lookup(i, '198.51.100.20'))
    expect(one.slice(0, PROMO_LIMIT).map((r) => r.body.codes)).toEqual(
      Array(PROMO_LIMIT).fill(['promo_invalid']),
    )
    for (const r of one.slice(PROMO_LIMIT)) {
      expect(r.status).toBe(429)
      expect(r.body.codes).toEqual(['promo_too_many_lookups'])
    }
    // Another client behind the same proxy has a budget of its own, on every instance; a made-up
    // entry left of the proxy's changes nothing (it is the client's own word).
    const other: Awaited<ReturnType<typeof lookup>>[] = []
    for (let i = 0; i < PROMO_LIMIT; i++) {
      other.push(await lookup(i + 1, i % 2 ? '203.0.113.9, 198.51.100.21' : '198.51.100.21'))
    }
    expect(other.map((r) => r.body.codes)).toEqual(Array(PROMO_LIMIT).fill(['promo_invalid']))
    expect((await lookup(0, '198.51.100.21')).status).toBe(429)
    expect((await lookup(1, '203.0.113.250, 198.51.100.20')).status).toBe(429)
  })

  it('sells each slot once, and finishes a killed instance’s orders and videos', async () => {
    const apis = instances.map((instance) => client(instance.url))
    const [victim, ...survivors] = instances as [Instance, Instance, Instance]
    const onVictim = apis[0] as ReturnType<typeof client>
    const onSurvivor = apis[1] as ReturnType<typeof client>
    const content = await generateContent(onVictim)

    // Every shopper saves a card (through the instance they shop on), as Stripe.js would.
    const checkouts = await Promise.all(
      Array.from({ length: SHOPPERS }, async (_, i) => {
        const api = apis[i % 3] as ReturnType<typeof client>
        const setup = await api.post<Checkout>('/order/payment/setup-intent')
        expect(setup.status).toBe(200)
        stripe.confirmSetup(setup.body.clientSecret, 'pm_card_visa')
        return setup.body
      }),
    )

    // Stripe makes each charge, but its answers are held back until the victim is dead.
    stripe.holdCharges(true)
    const placed = await Promise.all(
      checkouts.map((checkout, i) =>
        placeOrder(
          apis[i % 3] as ReturnType<typeof client>,
          orderBody({ slots: [SLOTS[i % SLOTS.length] as number], content, checkout }),
        ),
      ),
    )
    const sold = placed.filter((r) => r.status === 201)
    const refused = placed.filter((r) => r.status !== 201)
    expect(sold).toHaveLength(SLOTS.length)
    expect(refused).toHaveLength(SHOPPERS - SLOTS.length)
    for (const r of refused) expect(r.status === 409 && r.body.codes).toEqual(['slots_taken'])
    const victimOrders = await Promise.all(
      VICTIM_SLOTS.map(async (slot) => {
        const setup = await onVictim.post<Checkout>('/order/payment/setup-intent')
        stripe.confirmSetup(setup.body.clientSecret, 'pm_card_visa')
        return placeOrder(onVictim, orderBody({ slots: [slot], content, checkout: setup.body }))
      }),
    )
    for (const r of victimOrders) expect(r.status).toBe(201)

    // Two videos, uploaded to the victim: their raw files go to the bucket, their jobs to the queue.
    const tools = requireFfmpeg()
    const uploads: string[] = []
    for (const name of ['one.mp4', 'two.mp4']) {
      const file = await makeTestVideo(tools, path.join(work, name), {
        seconds: 6,
        width: 640,
        height: 360,
      })
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(await readFile(file))]), name)
      const res = await fetch(`${victim.url}/api/v1/content/uploads`, {
        method: 'POST',
        body: form,
      })
      expect(res.status).toBe(201)
      uploads.push(((await res.json()) as { id: string }).id)
    }

    // The moment: the victim runs a content job and holds orders in Processing.
    const owner = `%:${victim.pid}:%`
    const held = await until(
      async () => {
        const [row] = await db.query(sql<{ jobs: number; orders: number }>`
          select
            (select count(*)::int from content_jobs where status = 'running'
              and lease_owner like ${owner}) as jobs,
            (select count(*)::int from orders where state = 'Processing'
              and lease_owner like ${owner}) as orders`)
        return row && row.jobs > 0 && row.orders > 0 ? row : null
      },
      30_000,
      'the victim to hold a job and orders',
    )
    expect(held.jobs).toBeGreaterThan(0)
    await victim.kill()
    const killedAt = Date.now()
    stripe.holdCharges(false)

    // The survivors finish all of it within 30 s.
    await until(
      async () => {
        const [row] = await db.query(sql<{ n: number }>`
          select count(*)::int as n from orders where state = 'Processing'`)
        if ((row?.n ?? 1) > 0) return null
        for (const id of uploads) {
          const res = await onSurvivor.get<{ status: string }>(`/content/uploads/${id}`)
          if (res.body.status !== 'ready') return null
        }
        return true
      },
      30_000,
      'every order finished and every video ready',
    )
    expect(Date.now() - killedAt).toBeLessThan(30_000)
    for (const survivor of survivors)
      expect((await client(survivor.url).get('/readyz')).status).toBe(200)

    // No slot sold twice: one reservation a slot, each of a Confirmed order.
    const reservations = await db.query(sql<{ slot: number; state: string }>`
      select r.slot_number as slot, o.state from slot_reservations r
      join orders o on o.guid = r.order_guid`)
    expect(reservations.map((r) => r.slot).sort((a, b) => a - b)).toEqual(
      [...ALL_SLOTS].sort((a, b) => a - b),
    )
    expect(new Set(reservations.map((r) => r.state))).toEqual(new Set(['Confirmed']))

    // No card charged twice: one PaymentIntent per order, each order's own.
    const orders = await db.query(sql<{ guid: string; paymentId: string | null }>`
      select guid, payment_id as "paymentId" from orders`)
    expect(orders).toHaveLength(ALL_SLOTS.length)
    expect(stripe.paymentIntents).toHaveLength(ALL_SLOTS.length)
    expect(new Set(orders.map((o) => o.paymentId))).toEqual(new Set(stripe.paymentIntents))
    const charges = stripe.calls.filter((c) => c.path === '/v1/payment_intents')
    expect(new Set(charges.map((c) => c.idempotencyKey))).toEqual(
      new Set(orders.map((o) => `order-${o.guid}`)),
    )
  })
})
