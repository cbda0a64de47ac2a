import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages } from '../../src/domain/index.ts'
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

// Bodies that used to be 500s (deep JSON, a lone surrogate) are 400s with
// {errors, codes}, and a failed generation leaves no file behind in content storage.

const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

describe.each(BACKENDS)('hostile bodies (%s)', (backend) => {
  let server: TestServer
  let api: Client
  const logs: string[] = []
  let moderationFails = false

  beforeAll(async () => {
    server = await startTestServer(backend, {
      log: createLogger('error', {}, (line) => logs.push(line)),
      content: {
        // The real text moderator's shape; it fails on demand, as a crashed model would.
        moderate: async () => {
          if (moderationFails) throw new Error('moderation crashed')
          return { flagged: false, reasons: [] }
        },
      },
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

  it('a generation that fails after rendering leaves no file without its row', async () => {
    const files = join(server.dataDir, 'content', 'files')
    await uploadedPhoto(api)
    const before = readdirSync(files).sort()
    moderationFails = true
    try {
      const res = await api.post('/content/generate', {
        contentGenerationRequest: {
          generatorId: 'hearts',
          deviceId: 'paris-opera-1',
          eventSlug: LIVE,
          uploadId: await uploadedPhoto(api),
          buyerName: 'Ana',
          recipientName: 'Mum',
          multilineMessage: 'Hi',
        },
        async: false,
      })
      expect(res.status).toBe(500)
    } finally {
      moderationFails = false
      logs.length = 0
    }
    expect(readdirSync(files).sort()).toEqual(before)
  })

  it('a once-per-customer code is once per mailbox: once+1@gmail.com and o.nce@ do not pass', async () => {
    const event = 'share-your-dragon-france'
    const content = await generateContent(api, 'paris-opera-1', event)
    const placed = await placeOrder(
      api,
      orderBody({
        slots: daySlots(3, 60, 1),
        content,
        checkout: await savedCard(api),
        promoCode: 'DRAGONFR',
        email: 'once@gmail.com',
      }),
    )
    expect(placed.status).toBe(201)
    const lookup = (email: string) =>
      api.get(
        `/spotlight/promos/code/DRAGONFR?eventSlug=${event}&email=${encodeURIComponent(email)}`,
      )
    for (const email of ['once+1@gmail.com', 'o.nce@googlemail.com', 'ONCE+promo@gmail.com']) {
      expect((await lookup(email)).body, email).toEqual({
        errors: [messages.promoOncePerCustomer],
        codes: ['promo_once_per_customer'],
      })
    }
    const again = await placeOrder(
      api,
      orderBody({
        slots: daySlots(3, 61, 1),
        content,
        checkout: await savedCard(api),
        promoCode: 'DRAGONFR',
        email: 'once+2@gmail.com',
      }),
    )
    expect(again.status).toBe(422)
    expect(again.body.errors).toEqual([messages.promoOncePerCustomer])
    // another mailbox is another customer
    expect((await lookup('twice@gmail.com')).status).toBe(200)
  })
})
