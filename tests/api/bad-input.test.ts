import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import {
  BACKENDS,
  type Client,
  client,
  daySlots,
  generateContent,
  LIVE,
  newKey,
  orderBody,
  placeOrder,
  savedCard,
  startTestServer,
  type TestServer,
  uploadedPhoto,
} from './helpers.ts'

// Malformed JSON, wrong types, unknown fields, huge bodies: 400 or 413 with {errors}, never 5xx
// (and their codes).
let server: TestServer
let api: Client

beforeAll(async () => {
  server = await startTestServer('pglite')
  api = client(server.url)
})
afterAll(async () => {
  await server?.stop()
})

const JSON_ENDPOINTS = [
  '/spotlight/slots/search',
  '/order/orders',
  '/order/payment/local/confirm',
  '/content/generate',
]

const BAD_BODIES: [string, string][] = [
  ['malformed', '{"deviceId": '],
  ['not an object', '[1,2,3]'],
  ['a string', '"hello"'],
  ['null', 'null'],
  ['number', '42'],
  ['empty', ''],
  [
    'wrong types',
    JSON.stringify({ deviceId: 5, eventSlug: [], startEpochMs: 'x', endEpochMs: {} }),
  ],
  [
    'unknown field',
    JSON.stringify({
      deviceId: 'paris-opera-1',
      eventSlug: LIVE,
      startEpochMs: 1,
      endEpochMs: 2,
      extra: true,
    }),
  ],
  ['deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ['proto pollution', '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}'],
  ['invalid unicode', '{"a": "\\ud800"}'],
  [
    'NUL in a string',
    JSON.stringify({ deviceId: 'a\u0000b', eventSlug: LIVE, startEpochMs: 1, endEpochMs: 2 }),
  ],
  ['huge number', '{"startEpochMs": 1e400, "endEpochMs": -1e400}'],
]

// Beside each text a stable code, in the same order, that a client can translate, and the values of
// its text when any has some.
function expectErrorsBody(body: unknown, label: string) {
  const { params, ...rest } = body as { params?: unknown }
  expect(rest, label).toEqual({ errors: expect.any(Array), codes: expect.any(Array) })
  const { errors, codes } = body as { errors: unknown[]; codes: unknown[] }
  expect(errors.length, label).toBeGreaterThan(0)
  expect(codes.length, label).toBe(errors.length)
  if (params !== undefined) expect((params as unknown[]).length, label).toBe(errors.length)
  for (const e of errors) expect(typeof e, label).toBe('string')
  for (const code of codes) expect(code, label).toMatch(/^[a-z]+(?:_[a-z0-9]+)*$/)
}

describe('bad input on every JSON endpoint', () => {
  for (const path of JSON_ENDPOINTS) {
    it(`${path}: 400 with {errors}, never a 5xx`, async () => {
      for (const [label, text] of BAD_BODIES) {
        const res = await api.post(path, text, {
          'content-type': 'application/json',
          'idempotency-key': `bad-${label}`,
        })
        expect(
          res.status,
          `${label} -> ${res.status} ${JSON.stringify(res.body)}`,
        ).toBeGreaterThanOrEqual(400)
        expect(res.status, label).toBeLessThan(500)
        expectErrorsBody(res.body, label)
      }
      const notJson = await api.post(path, 'a=1', {
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': 'form',
      })
      expect(notJson.status).toBeGreaterThanOrEqual(400)
      expect(notJson.status).toBeLessThan(500)
    })

    it(`${path}: a JSON body over 64 KB is a 413`, async () => {
      const huge = JSON.stringify({ padding: 'x'.repeat(70 * 1024) })
      const res = await api.post(path, huge, { 'idempotency-key': 'huge' })
      expect(res.status).toBe(413)
      expectErrorsBody(res.body, 'huge')
      // the same without a Content-Length (chunked): still refused, not read whole
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 80; i++)
            controller.enqueue(new TextEncoder().encode('x'.repeat(1024)))
          controller.close()
        },
      })
      const chunked = await fetch(`${server.url}/api/v1${path}`, {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'chunked' },
        duplex: 'half',
      } as RequestInit)
      expect(chunked.status).toBe(413)
    })
  }
})

describe('bad input in paths and queries', () => {
  const weird = [
    '%00',
    '..%2F..%2Fetc',
    'a'.repeat(3000),
    '%E0%A4%A',
    "'; drop table orders; --",
    '<script>',
  ]
  it('answers 4xx with {errors} for strange ids on every GET endpoint', async () => {
    const paths = (w: string) => [
      `/spotlight/events/${w}`,
      `/spotlight/events/${w}/devices`,
      `/spotlight/events/${LIVE}/devices?limit=${w}&offset=${w}`,
      `/spotlight/promos/code/${w}?eventSlug=${w}`,
      `/order/defaults?deviceId=${w}&eventSlug=${w}`,
      `/order/events/${w}/orders/${w}/status`,
      `/order/events/${w}/orders/${w}`,
      `/content/generators?types=${w}&widthPx=${w}&heightPx=${w}`,
      `/content/uploads/${w}`,
      `/content/daemon/public/${w}`,
      `/content/${w}`,
      `/feature-flags/${w}`,
    ]
    for (const w of weird) {
      for (const path of paths(w)) {
        const res = await api.get(path)
        expect(res.status, `${path} -> ${res.status}`).toBeGreaterThanOrEqual(400)
        expect(res.status, path).toBeLessThan(500)
        expectErrorsBody(res.body, path)
      }
    }
    const orders = await server.deps.database.query(
      sql<{ n: number }>`select count(*) as n from orders`,
    )
    expect(Number(orders[0]?.n)).toBe(0)
  })

  it('refuses repeated query parameters and wrong methods without a 5xx', async () => {
    const repeated = await api.get(`/spotlight/events/${LIVE}/devices?limit=1&limit=2`)
    expect(repeated.status).toBe(400)
    for (const [method, path] of [
      ['DELETE', '/order/orders'],
      ['PUT', '/spotlight/slots/search'],
      ['PATCH', `/spotlight/events/${LIVE}`],
    ] as const) {
      const res = await api.call(method, path)
      expect(res.status, `${method} ${path}`).toBe(404)
      expectErrorsBody(res.body, path)
    }
  })

  it('takes no body at setup-intent, and a bad Idempotency-Key is a 400', async () => {
    const big = await api.post(
      '/order/payment/setup-intent',
      JSON.stringify({ pad: 'x'.repeat(4096) }),
    )
    expect(big.status).toBe(413)
    const badKey = await api.post('/order/orders', '{}', { 'idempotency-key': 'has spaces in it' })
    expect(badKey.status).toBe(400)
    expectErrorsBody(badKey.body, 'key')
  })
})

const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

// Bodies built to hurt the server (deep JSON, lone surrogates) are 400s with {errors, codes}, never a
// 5xx or an unhandled error, on both databases.
describe.each(BACKENDS)('bodies built to hurt the server (%s)', (backend) => {
  let server: TestServer
  let api: Client
  const logs: string[] = []

  beforeAll(async () => {
    server = await startTestServer(backend, {
      log: createLogger('error', {}, (line) => logs.push(line)),
    })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('4,000 nested arrays on POST /order/orders are a 400 before any hashing, every time', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/order/orders', deepArrays(4000), { 'idempotency-key': 'k1' })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        errors: ['The request body is nested too deeply (at most 32 levels)'],
        codes: ['body_too_deep'],
        params: [{ levels: 32 }],
      })
    }
    expect(logs.filter((line) => line.includes('unhandled error'))).toEqual([])
  })

  it('every JSON route refuses 33 levels and still reads 32 (an order nests 4)', async () => {
    for (const path of ['/spotlight/slots/search', '/content/generate', '/order/orders']) {
      const res = await api.post(path, deepArrays(33), { 'idempotency-key': newKey() })
      expect(res.status, path).toBe(400)
      expect((res.body as { codes: string[] }).codes, path).toEqual(['body_too_deep'])
      // 32 levels parse, and the schema answers instead
      const ok = await api.post(path, deepArrays(32), { 'idempotency-key': newKey() })
      expect(ok.status, path).toBe(400)
      expect((ok.body as { codes: string[] }).codes, path).not.toContain('body_too_deep')
    }
    // brackets inside strings are text, not nesting
    const text = await api.post('/spotlight/slots/search', {
      deviceId: '['.repeat(100),
      eventSlug: LIVE,
      startEpochMs: 1,
      endEpochMs: 2,
    })
    expect((text.body as { codes: string[] }).codes).not.toContain('body_too_deep')
  })

  it('a lone surrogate in a name on /content/generate is a 400, and no file is stored', async () => {
    const files = join(server.dataDir, 'content', 'files')
    await uploadedPhoto(api)
    const before = readdirSync(files).length
    for (const field of ['buyerName', 'recipientName', 'multilineMessage', 'generatorId']) {
      const res = await api.post('/content/generate', {
        contentGenerationRequest: {
          generatorId: 'hearts',
          deviceId: 'paris-opera-1',
          eventSlug: LIVE,
          uploadId: await uploadedPhoto(api),
          buyerName: 'Ana',
          recipientName: 'Mum',
          multilineMessage: 'Hi',
          [field]: 'An\ud800a',
        },
        async: false,
      })
      expect(res.status, field).toBe(400)
      expect(res.body, field).toEqual({
        errors: [`contentGenerationRequest.${field}: must be well-formed Unicode text`],
        codes: ['text_ill_formed'],
        params: [{ field: `contentGenerationRequest.${field}` }],
      })
    }
    expect(readdirSync(files).length).toBe(before)
  })

  it('lone surrogates in an order are a 400 with the field named', async () => {
    const content = await generateContent(api)
    const checkout = await savedCard(api)
    const body = orderBody({ slots: daySlots(2, 10, 1), content, checkout })
    body.customer.firstName = '\udc00Ana'
    const res = await placeOrder(api, body)
    expect(res.status).toBe(400)
    expect(res.body.errors).toEqual(['customer.firstName: must be well-formed Unicode text'])
    expect(logs.filter((line) => line.includes('unhandled error'))).toEqual([])
    // a well-formed astral character (an emoji: a surrogate pair) is text like any other
    body.customer.firstName = 'Ana 💖'
    const placed = await placeOrder(api, body)
    expect(placed.status).toBe(201)
  })
})

describe('names that are not one line', () => {
  it('a line break or control character in a name is a 400 naming the field, for orders and shouts', async () => {
    const source = {
      generatorId: 'hearts',
      deviceId: 'paris-opera-1',
      eventSlug: LIVE,
      uploadId: null,
      buyerName: 'Ana\r\nBcc: someone@example.com',
      recipientName: 'Mum\u0007',
      multilineMessage: 'Happy birthday!\nLove you',
    }
    const generate = await api.post('/content/generate', {
      contentGenerationRequest: source,
      async: false,
    })
    expect(generate.status).toBe(400)
    expect(generate.body).toMatchObject({
      codes: ['name_not_one_line', 'name_not_one_line'],
      errors: [
        expect.stringMatching(/buyerName: must be one line/),
        expect.stringMatching(/recipientName: must be one line/),
      ],
    })
    // the message may have its lines
    const order = orderBody({
      slots: daySlots(3, 1, 1),
      content: {
        key: 'no-content-needed',
        source: { ...source, buyerName: 'Ana', recipientName: 'Mum' },
      },
    })
    order.customer.firstName = 'Ana\r\nBcc: someone@example.com'
    order.customer.lastName = 'Lo\u2028pez'
    const placed = await placeOrder(api, order)
    expect(placed.status).toBe(400)
    expect(placed.body.codes).toEqual(['name_not_one_line', 'name_not_one_line'])
  })
})
