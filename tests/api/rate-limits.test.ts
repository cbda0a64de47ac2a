import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { englishOf } from '../../src/contract/problems.ts'
import { startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  BACKENDS,
  type Client,
  client,
  daySlots,
  freshDataDir,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  type Reply,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// Rate limits per client address, counted in the database so that they hold across instances: promo
// checks on every path, and every kind of write. The address is read from X-Forwarded-For only as far
// as TRUST_PROXY says; so is the scheme (HSTS) from X-Forwarded-Proto.

const PROMO_LIMIT = 5
const WRITE_LIMIT = 8

function expect429(reply: Reply, codes: string[]) {
  expect(reply.status).toBe(429)
  expect((reply.body as { codes: string[] }).codes).toEqual(codes)
  expect((reply.body as { errors: string[] }).errors).toHaveLength(1)
  expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(Number(reply.headers.get('retry-after'))).toBeLessThanOrEqual(60)
}

async function pngForm(): Promise<FormData> {
  const png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 200, b: 90 } },
  })
    .png()
    .toBuffer()
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png')
  return form
}

describe.each(BACKENDS)('rate limits per client address (%s)', (backend) => {
  let server: TestServer
  let api: Client
  let clock = Date.now()

  beforeAll(async () => {
    server = await startTestServer(backend, {
      now: () => clock,
      env: {
        PROMO_LOOKUPS_PER_MINUTE: String(PROMO_LIMIT),
        WRITES_PER_MINUTE: String(WRITE_LIMIT),
        TRUST_PROXY: '1',
      },
    })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  // Each test is its own client, as a proxy we trust reports it.
  const as = (address: string) => ({ 'x-forwarded-for': address })

  it('thirty card setups at once: as many as the limit are made, the rest are 429', async () => {
    const before = await server.deps.database.query(
      sql`select count(*)::int as n from payment_setups`,
    )
    const replies = await Promise.all(
      Array.from({ length: 30 }, () =>
        api.post('/order/payment/setup-intent', undefined, as('203.0.113.1')),
      ),
    )
    expect(replies.filter((r) => r.status === 200)).toHaveLength(WRITE_LIMIT)
    for (const r of replies.filter((r) => r.status !== 200)) expect429(r, ['too_many_requests'])
    const after = await server.deps.database.query(
      sql`select count(*)::int as n from payment_setups`,
    )
    expect(Number(after[0]?.n) - Number(before[0]?.n)).toBe(WRITE_LIMIT)
    // another shopper is not held by this one
    expect(
      (await api.post('/order/payment/setup-intent', undefined, as('203.0.113.2'))).status,
    ).toBe(200)
  })

  it('uploads and renders are limited per client too', async () => {
    const uploads: number[] = []
    for (let i = 0; i < WRITE_LIMIT + 2; i++) {
      const res = await fetch(`${server.url}/api/v1/content/uploads`, {
        method: 'POST',
        body: await pngForm(),
        headers: as('203.0.113.3'),
      })
      uploads.push(res.status)
      if (res.status === 429) {
        expect(await res.json()).toMatchObject({ codes: ['too_many_requests'] })
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
      }
    }
    expect(uploads.filter((s) => s === 201)).toHaveLength(WRITE_LIMIT)
    expect(uploads.slice(WRITE_LIMIT)).toEqual([429, 429])

    const renders: Reply[] = []
    for (let i = 0; i < WRITE_LIMIT + 1; i++) {
      renders.push(await api.post('/content/generate', { bad: true }, as('203.0.113.4')))
    }
    // even refused bodies count: a flood of them is still a flood
    expect(renders.slice(0, WRITE_LIMIT).map((r) => r.status)).toEqual(Array(WRITE_LIMIT).fill(400))
    expect429(renders[WRITE_LIMIT] as Reply, ['too_many_requests'])
  })

  it('guessing promo codes by placing orders spends the same budget as looking them up', async () => {
    const content = await generateContent(api)
    const guesser = as('198.51.100.7')
    const lookups = []
    for (let i = 0; i < PROMO_LIMIT - 2; i++) {
      lookups.push(await api.get(`/spotlight/promos/code/GUESS${i}?eventSlug=${LIVE}`, guesser))
    }
    expect(lookups.map((r) => r.body)).toEqual(
      Array(PROMO_LIMIT - 2).fill({
        errors: [englishOf({ code: 'promo_invalid' })],
        codes: ['promo_invalid'],
      }),
    )
    const guesses: Reply[] = []
    for (let i = 0; i < 6; i++) {
      const body = orderBody({ slots: daySlots(3, i, 1), content, promoCode: `GUESS${i}X` })
      guesses.push(
        await api.post('/order/orders', body, {
          ...guesser,
          'idempotency-key': `guess-${backend}-${i}`,
        }),
      )
    }
    // two more checks fit the budget (422 Promo Code Invalid); then 429 before any lookup
    expect(guesses.slice(0, 2).map((r) => r.status)).toEqual([422, 422])
    for (const r of guesses.slice(2)) expect429(r, ['promo_too_many_lookups'])
    expect(((guesses[2] as Reply).body as { errors: string[] }).errors).toEqual([
      englishOf({ code: 'promo_too_many_lookups' }),
    ])
    // and the lookup path is closed for this client as well
    expect429(await api.get(`/spotlight/promos/code/LOVE10?eventSlug=${LIVE}`, guesser), [
      'promo_too_many_lookups',
    ])
    // an order without a code is no promo check: it is placed
    const checkout = await savedCard(api)
    const plain = await placeOrder(
      api,
      orderBody({ slots: daySlots(3, 40, 1), content, checkout }),
      `plain-${backend}`,
    )
    expect(plain.status).toBe(201)
  })

  it('behind one trusted proxy, an address the client made up is ignored', async () => {
    // The proxy appends the real client (203.0.113.9) to whatever the client sent.
    const spoofed = (i: number) => as(`10.9.9.${i}, 203.0.113.9`)
    const replies = []
    for (let i = 0; i < WRITE_LIMIT + 1; i++) {
      replies.push(await api.post('/order/payment/setup-intent', undefined, spoofed(i)))
    }
    expect(replies.map((r) => r.status)).toEqual([...Array(WRITE_LIMIT).fill(200), 429])
  })

  it('an IPv6 client is counted by its /64: new addresses in it share one budget', async () => {
    // one subscriber holds a whole /64 (2^64 addresses); each setup intent makes a Stripe Customer
    const replies = []
    for (let i = 0; i < WRITE_LIMIT + 3; i++) {
      const address = `2001:db8:60:1:${(i + 1).toString(16)}::${i.toString(16)}`
      replies.push(await api.post('/order/payment/setup-intent', undefined, as(address)))
    }
    expect(replies.slice(0, WRITE_LIMIT).map((r) => r.status)).toEqual(Array(WRITE_LIMIT).fill(200))
    for (const r of replies.slice(WRITE_LIMIT)) expect429(r, ['too_many_requests'])
    // the next /64 is another client
    expect(
      (await api.post('/order/payment/setup-intent', undefined, as('2001:db8:60:2::1'))).status,
    ).toBe(200)
  })

  it('HSTS when the trusted proxy says the browser came over https, not otherwise', async () => {
    const https = await api.get('/health', { 'x-forwarded-proto': 'https' })
    expect(https.headers.get('strict-transport-security')).toBe(
      'max-age=63072000; includeSubDomains',
    )
    expect((await api.get('/health')).headers.get('strict-transport-security')).toBeNull()
    // the browser's own (made-up) entry left of the proxy's does not count
    const spoofed = await api.get('/health', { 'x-forwarded-proto': 'https, http' })
    expect(spoofed.headers.get('strict-transport-security')).toBeNull()
  })

  it('a client is served again a minute later, and ended windows are forgotten', async () => {
    const client = as('203.0.113.20')
    for (let i = 0; i < WRITE_LIMIT; i++) {
      await api.post('/order/payment/setup-intent', undefined, client)
    }
    expect((await api.post('/order/payment/setup-intent', undefined, client)).status).toBe(429)
    clock += 61_000
    expect((await api.post('/order/payment/setup-intent', undefined, client)).status).toBe(200)
    // the sweep (a background job, once a minute) deletes every window that has ended
    expect(await server.deps.jobs.runNow('rate-limit-sweep')).toBe('done')
    // (the hour's upload quotas of the uploads above are windows still open)
    const rows = await server.deps.database.query(sql<{ key: string; ended: boolean }>`
      select key, window_ends_ms <= ${clock} as ended from rate_limits`)
    expect(rows.filter((r) => r.ended)).toEqual([])
    expect(rows.map((r) => r.key)).toContain('setup-intents:203.0.113.20')
    expect(rows.filter((r) => !r.key.startsWith('upload-bytes:'))).toEqual([
      { key: 'setup-intents:203.0.113.20', ended: false },
    ])
  })

  it('orders past the write limit are a 429 that writes nothing; refused orders count too', async () => {
    clock += 61_000 // windows of their own for this test's clients
    const content = await generateContent(api)
    const cards = await Promise.all(Array.from({ length: 6 }, () => savedCard(api)))
    const shopper = as('198.51.100.30')
    const send = (body: unknown, i: number) =>
      api.post('/order/orders', body, {
        ...shopper,
        'idempotency-key': `limit-${backend}-${i}`,
      })
    // three refused orders (bad input) are three writes of this client's budget
    for (let i = 0; i < 3; i++) {
      expect((await send({ not: 'an order' }, i)).status).toBe(400)
    }
    const orders = async () =>
      Number(
        (
          await server.deps.database.query(
            sql<{ n: number }>`select count(*)::int as n from orders`,
          )
        )[0]?.n,
      )
    const before = await orders()
    // six good orders at once: five fit the budget, the sixth is refused and writes nothing
    const replies = await Promise.all(
      cards.map((checkout, i) =>
        send(orderBody({ slots: daySlots(5, 10 + 2 * i, 1), content, checkout }), 10 + i),
      ),
    )
    expect(replies.filter((r) => r.status === 201)).toHaveLength(WRITE_LIMIT - 3)
    const refused = replies.filter((r) => r.status !== 201)
    expect(refused).toHaveLength(1)
    expect429(refused[0] as Reply, ['too_many_requests'])
    expect(await orders()).toBe(before + WRITE_LIMIT - 3)
    // and the next one is refused before anything is written as well
    const late = await send(
      orderBody({ slots: daySlots(5, 40, 1), content, checkout: cards[0] }),
      20,
    )
    expect429(late, ['too_many_requests'])
    expect(await orders()).toBe(before + WRITE_LIMIT - 3)
  })
})

describe('without a trusted proxy', () => {
  let server: TestServer
  let api: Client
  beforeAll(async () => {
    server = await startTestServer('pglite', { env: { WRITES_PER_MINUTE: '3' } })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('X-Forwarded-For is ignored: a client cannot mint new addresses', async () => {
    const statuses = []
    for (let i = 0; i < 5; i++) {
      const res = await api.post('/order/payment/setup-intent', undefined, {
        'x-forwarded-for': `192.0.2.${i}`,
      })
      statuses.push(res.status)
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429])
  })

  it('X-Forwarded-Proto is ignored too: no HSTS over plain HTTP', async () => {
    const res = await api.get('/health', { 'x-forwarded-proto': 'https' })
    expect(res.status).toBe(200)
    expect(res.headers.get('strict-transport-security')).toBeNull()
  })
})

describe.runIf(BACKENDS.includes('postgres'))('two instances on one PostgreSQL', () => {
  it('count together: the limit holds across them', async () => {
    const first = await startTestServer('postgres', { env: { WRITES_PER_MINUTE: '6' } })
    const dataDir = await freshDataDir()
    const second = await startServer({
      port: 0,
      dataDir,
      serveApp: false,
      databaseUrl: first.deps.env.DATABASE_URL as string,
      env: { LOG_LEVEL: 'error', WRITES_PER_MINUTE: '6' },
    })
    try {
      const a = client(first.url)
      const b = client(second.url)
      const replies = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).post('/order/payment/setup-intent')),
      )
      expect(replies.filter((r) => r.status === 200)).toHaveLength(6)
      expect(replies.filter((r) => r.status === 429)).toHaveLength(6)
    } finally {
      await second.close()
      await first.stop()
    }
  })
})
