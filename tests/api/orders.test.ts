import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OrderRequestSchema, order, parseWithErrors, spotlight } from '../../src/contract/index.ts'
import { englishOf } from '../../src/contract/problems.ts'
import { confirmationFor, shoutTimesLabel, slotStartEpochMs } from '../../src/domain/index.ts'
import { createOrderService } from '../../src/server/order/service.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  type Client,
  type ContentSource,
  client,
  DAY_MS,
  daySlots,
  generateContent,
  LIVE,
  LIVE_UK,
  LIVE_US,
  newKey,
  orderBody,
  placeOrder,
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// Orders: validated, priced by the server, slots reserved in one transaction, Processing then
// Confirmed / UnderReview / Failed, payment bound by the checkoutSecretKey, Idempotency-Key replays.
describe.each(BACKENDS)('orders on %s', (backend) => {
  let server: TestServer
  let api: Client
  let content: { key: string; source: ContentSource }
  let group = 0
  // Each call takes slots of their own (up to 4, days 2 to 12 of the live event): tests never collide.
  const freshSlots = (count = 2) => {
    const g = group++
    return daySlots(2 + (g % 11), 40 + 4 * Math.floor(g / 11), count)
  }

  beforeAll(async () => {
    server = await startTestServer(backend)
    api = client(server.url)
    content = await generateContent(api)
  })
  afterAll(async () => {
    await server?.stop()
  })
  const summaryOf = async (eventSlug: string, guid: string) =>
    answerOf(order.summary, await api.get(`/order/events/${eventSlug}/orders/${guid}`))

  it('places a paid order: Processing, then Confirmed, priced by the server', async () => {
    const checkout = await savedCard(api)
    const slots = freshSlots(3)
    // The search that follows the sale, asked once before it: the answer kept for it must not be reused.
    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    const start = slotStartEpochMs(event, 'Europe/Paris', slots[0] as number)
    const searchBody = {
      deviceId: 'paris-opera-1',
      eventSlug: LIVE,
      startEpochMs: start - DAY_MS,
      endEpochMs: start + DAY_MS,
    }
    const before = answerOf(
      spotlight.slotSearch,
      await api.post('/spotlight/slots/search', searchBody),
    )
    expect(before.openSlots).toEqual(expect.arrayContaining(slots))
    const placed = answerOf(
      order.place,
      await placeOrder(api, orderBody({ slots, content, checkout })),
    )
    expect(placed.orderState).toBe('Processing')
    const status = await settledStatus(api, LIVE, placed.guid)
    expect(status).toEqual({
      orderState: 'Confirmed',
      errors: [],
      codes: [],
      confirmationDateEpochMs: null,
    })

    const summary = await summaryOf(LIVE, placed.guid)
    expect(summary).toMatchObject({
      guid: placed.guid,
      confirmationCode: placed.guid.slice(0, 8),
      eventSlug: LIVE,
      orderState: 'Confirmed',
      subtotalCents: 12000,
      discountCents: 0,
      totalCents: 12000,
      currency: 'EUR',
      device: { deviceId: 'paris-opera-1', timeZoneId: 'Europe/Paris' },
    })
    expect(summary.slots.map((s) => s.slotNumber)).toEqual(slots)
    expect(summary.contentUrl).toEqual(expect.any(String))

    // The slots are no longer offered.
    const search = answerOf(
      spotlight.slotSearch,
      await api.post('/spotlight/slots/search', searchBody),
    )
    for (const s of slots) expect(search.openSlots).not.toContain(s)
  })

  it('stores the consents with the order and the time they were given', async () => {
    const checkout = await savedCard(api)
    const before = Date.now()
    const placed = await placeOrder(api, orderBody({ slots: freshSlots(), content, checkout }))
    expect(placed.status).toBe(201)
    const rows = await server.deps.database.query(
      sql<{
        agreements: Record<string, boolean>
        agreements_accepted_at: Date
      }>`select agreements, agreements_accepted_at from orders where guid = ${placed.body.guid}`,
    )
    expect(rows[0]?.agreements).toMatchObject({
      terms: true,
      privacyPolicy: true,
      safetyWarning: true,
    })
    expect(new Date(rows[0]?.agreements_accepted_at as Date).getTime()).toBeGreaterThanOrEqual(
      before - 1000,
    )
  })

  it('applies promo codes on the server: percent, fixed, free order without payment', async () => {
    const percent = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(2),
        content,
        checkout: await savedCard(api),
        promoCode: 'love10',
      }),
    )
    expect(percent.status).toBe(201)
    const s1 = await summaryOf(LIVE, percent.body.guid)
    expect(s1).toMatchObject({
      subtotalCents: 8000,
      discountCents: 800,
      totalCents: 7200,
      promoCode: 'LOVE10',
    })

    const fixed = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(2),
        content,
        checkout: await savedCard(api),
        promoCode: 'LOVE5OFF',
      }),
    )
    const s2 = await summaryOf(LIVE, fixed.body.guid)
    expect(s2).toMatchObject({ subtotalCents: 8000, discountCents: 500, totalCents: 7500 })

    // spec §5: a free order needs no payment: no checkout at all.
    const free = await placeOrder(
      api,
      orderBody({ slots: freshSlots(2), content, promoCode: 'FREELOVE' }),
    )
    expect(free.status).toBe(201)
    expect((await settledStatus(api, LIVE, free.body.guid)).orderState).toBe('Confirmed')
    const s3 = await summaryOf(LIVE, free.body.guid)
    expect(s3).toMatchObject({ subtotalCents: 8000, discountCents: 8000, totalCents: 0 })
  })

  it('refuses promo codes of another event, unknown ones, and a once-per-customer code used twice', async () => {
    const wrong = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(),
        content,
        checkout: await savedCard(api),
        promoCode: 'DRAGONUK',
      }),
    )
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors).toEqual([englishOf({ code: 'promo_wrong_event' })])
    const unknown = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(),
        content,
        checkout: await savedCard(api),
        promoCode: 'NOPE42',
      }),
    )
    expect(unknown.status).toBe(422)
    expect(unknown.body.errors).toEqual([englishOf({ code: 'promo_invalid' })])

    const email = `once-${backend}@example.com`
    const first = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(2),
        content,
        checkout: await savedCard(api),
        promoCode: 'FIRSTFREE',
        email,
      }),
    )
    expect(first.status).toBe(201)
    // spec §5: first shout free: 2 slots at 4000 with 4000 off
    const s = await summaryOf(LIVE, first.body.guid)
    expect(s).toMatchObject({ subtotalCents: 8000, discountCents: 4000, totalCents: 4000 })
    const again = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(2),
        content,
        checkout: await savedCard(api),
        promoCode: 'FIRSTFREE',
        email: email.toUpperCase(),
      }),
    )
    expect(again.status).toBe(422)
    expect(again.body.errors).toEqual([englishOf({ code: 'promo_once_per_customer' })])
    const lookup = await api.get(
      `/spotlight/promos/code/FIRSTFREE?eventSlug=${LIVE}&email=${email}`,
    )
    expect(lookup.status).toBe(422)
    expect(lookup.body).toEqual({
      errors: [englishOf({ code: 'promo_once_per_customer' })],
      codes: ['promo_once_per_customer'],
    })
  })

  it('binds the order to its checkout: mismatch, unconfirmed setup and reuse are refused', async () => {
    const checkout = await savedCard(api)
    const mismatch = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(),
        content,
        checkout: { ...checkout, customerId: 'cus_someone_else' },
      }),
    )
    expect(mismatch.status).toBe(400)
    expect(mismatch.body.errors).toEqual([englishOf({ code: 'checkout_mismatch' })])

    const unknownKey = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(),
        content,
        checkout: { ...checkout, checkoutSecretKey: 'cks_forged' },
      }),
    )
    expect(unknownKey.status).toBe(400)
    expect(unknownKey.body.errors).toEqual([englishOf({ code: 'checkout_mismatch' })])

    const unconfirmed = answerOf(order.setupIntent, await api.post('/order/payment/setup-intent'))
    const notSaved = await placeOrder(
      api,
      orderBody({ slots: freshSlots(), content, checkout: unconfirmed }),
    )
    expect(notSaved.status).toBe(400)
    expect(notSaved.body.errors).toEqual([englishOf({ code: 'setup_not_confirmed' })])

    const first = await placeOrder(api, orderBody({ slots: freshSlots(), content, checkout }))
    expect(first.status).toBe(201)
    const reuse = await placeOrder(api, orderBody({ slots: freshSlots(), content, checkout }))
    expect(reuse.status).toBe(409)
    expect(reuse.body.errors).toEqual([englishOf({ code: 'payment_already_saved' })])
  })

  it('answers the test cards as Stripe does and keeps only brand and last four digits', async () => {
    const setup = answerOf(order.setupIntent, await api.post('/order/payment/setup-intent'))
    const confirm = (cardNumber: string, extra: Record<string, unknown> = {}) =>
      api.post('/order/payment/local/confirm', {
        clientSecret: setup.clientSecret,
        cardNumber,
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 1,
        cvc: '123',
        ...extra,
      })
    expect(await confirm('4000000000000002')).toMatchObject({
      status: 402,
      // Stripe's own decline codes beside the texts (docs.stripe.com/declines/codes).
      body: { errors: [englishOf({ code: 'card_declined' })], codes: ['card_declined'] },
    })
    expect(await confirm('4000 0000 0000 9995')).toMatchObject({
      status: 402,
      body: { errors: [englishOf({ code: 'insufficient_funds' })], codes: ['insufficient_funds'] },
    })
    expect(await confirm('4000000000000069')).toMatchObject({
      status: 402,
      body: { errors: [englishOf({ code: 'expired_card' })], codes: ['expired_card'] },
    })
    expect(await confirm('4242424242424241')).toMatchObject({
      status: 402,
      body: { errors: [englishOf({ code: 'incorrect_number' })], codes: ['incorrect_number'] },
    })
    expect(await confirm('4242424242424242', { expYear: 2020 })).toMatchObject({
      status: 402,
      body: { errors: [englishOf({ code: 'expired_card' })], codes: ['expired_card'] },
    })
    const ok = answerOf(order.localConfirm, await confirm('4242-4242-4242-4242'))
    expect(ok).toMatchObject({ status: 'succeeded', card: { brand: 'visa', last4: '4242' } })
    expect(await confirm('4242424242424242')).toMatchObject({
      status: 409,
      body: {
        errors: [englishOf({ code: 'payment_already_saved' })],
        codes: ['payment_already_saved'],
      },
    })
    const stored = await server.deps.database.query(
      sql`select * from payment_setups where checkout_secret_key = ${setup.checkoutSecretKey}`,
    )
    expect(JSON.stringify(stored)).not.toContain('4242424242424242')
    expect(stored[0]).toMatchObject({ card_brand: 'visa', card_last4: '4242' })
  })

  it('fails an order whose card is refused when charged, and frees its slots', async () => {
    const checkout = await savedCard(api, '4000000000000341')
    const slots = freshSlots(2)
    // The same search before the sale and after the slots are freed: the server keeps answers per
    // sold-slot list, and each change must show.
    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    const start = slotStartEpochMs(event, 'Europe/Paris', slots[0] as number)
    const offered = async () =>
      answerOf(
        spotlight.slotSearch,
        await api.post('/spotlight/slots/search', {
          deviceId: 'paris-opera-1',
          eventSlug: LIVE,
          startEpochMs: start - DAY_MS,
          endEpochMs: start + DAY_MS,
        }),
      ).openSlots
    expect(await offered()).toEqual(expect.arrayContaining(slots))
    const placed = await placeOrder(api, orderBody({ slots, content, checkout }))
    expect(placed.status).toBe(201)
    const status = await settledStatus(api, LIVE, placed.body.guid)
    expect(status).toEqual({
      orderState: 'Failed',
      errors: [englishOf({ code: 'card_declined' })],
      codes: ['card_declined'],
      confirmationDateEpochMs: null,
    })
    expect(await offered()).toEqual(expect.arrayContaining(slots))
    // the same slots can be bought again
    const retry = await placeOrder(
      api,
      orderBody({ slots, content, checkout: await savedCard(api) }),
    )
    expect(retry.status).toBe(201)
    expect((await settledStatus(api, LIVE, retry.body.guid)).orderState).toBe('Confirmed')
  })

  it('refuses taken slots with the exact message naming them', async () => {
    const slots = freshSlots(3)
    const first = await placeOrder(
      api,
      orderBody({ slots: slots.slice(0, 2), content, checkout: await savedCard(api) }),
    )
    expect(first.status).toBe(201)
    const second = await placeOrder(
      api,
      orderBody({ slots, content, checkout: await savedCard(api) }),
    )
    expect(second.status).toBe(409)
    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    const labels = shoutTimesLabel(event, 'Europe/Paris', slots.slice(0, 2), 'en').join(', ')
    expect(second.body.errors).toEqual([
      englishOf({ code: 'slots_taken', params: { slots: labels } }),
    ])
    expect(second.body.codes).toEqual(['slots_taken'])
    expect(second.body.takenSlots).toEqual(slots.slice(0, 2))
  })

  it('needs generated content for this billboard', async () => {
    const missing = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(),
        content: { ...content, key: 'no-such-content' },
        checkout: await savedCard(api),
      }),
    )
    expect(missing.status).toBe(400)
    expect(missing.body.errors).toEqual([englishOf({ code: 'missing_billboard_content' })])
    const other = await generateContent(api, 'paris-republique')
    const elsewhere = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(),
        content: { key: other.key, source: content.source },
        checkout: await savedCard(api),
      }),
    )
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.body.errors).toEqual([englishOf({ code: 'missing_billboard_content' })])
    const empty = await placeOrder(
      api,
      orderBody({
        slots: freshSlots(),
        content: { ...content, key: '' },
        checkout: await savedCard(api),
      }),
    )
    expect(empty.status).toBe(400)
    expect(empty.body.errors).toContain(englishOf({ code: 'missing_billboard_content' }))
  })

  it('refuses sold-out and unavailable billboards, slots past the cut-off or outside the event', async () => {
    const london = await generateContent(api, 'london-kings-cross', LIVE_UK, 'hearts')
    const soldOut = await placeOrder(
      api,
      orderBody({ slots: freshSlots(), content: london, checkout: await savedCard(api) }),
    )
    expect(soldOut.status).toBe(409)
    expect(soldOut.body.errors).toEqual([englishOf({ code: 'sold_out' })])

    const union = await generateContent(api, 'nyc-union-square', LIVE_US, 'hearts')
    const unavailable = await placeOrder(
      api,
      orderBody({ slots: freshSlots(), content: union, checkout: await savedCard(api) }),
    )
    expect(unavailable.status).toBe(409)
    expect(unavailable.body.errors).toEqual([
      englishOf({ code: 'not_available_for_event', params: { event: 'Love New York' } }),
    ])

    // slot 0 started at midnight today: always within 5 hours of now or past
    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    const firstOpen = answerOf(
      spotlight.slotSearch,
      await api.post('/spotlight/slots/search', {
        deviceId: 'paris-opera-1',
        eventSlug: LIVE,
        startEpochMs: 0,
        endEpochMs: Date.now() + 2 * DAY_MS,
      }),
    ).openSlots[0] as number
    const tooSoon = firstOpen - 1
    const cut = await placeOrder(
      api,
      orderBody({ slots: [tooSoon], content, checkout: await savedCard(api) }),
    )
    expect(cut.status).toBe(400)
    expect(cut.body.errors).toEqual([
      englishOf({ code: 'slot_past_cutoff', params: { slot: tooSoon } }),
    ])
    expect(cut.body.codes).toEqual(['slot_past_cutoff'])
    expect(slotStartEpochMs(event, 'Europe/Paris', tooSoon)).toBeLessThan(
      Date.now() + 5 * 3_600_000,
    )

    const outside = await placeOrder(
      api,
      orderBody({ slots: [14 * 96 + 5], content, checkout: await savedCard(api) }),
    )
    expect(outside.status).toBe(400)
    expect(outside.body.errors).toEqual([
      englishOf({ code: 'slot_not_in_event', params: { slot: 14 * 96 + 5 } }),
    ])
    expect(outside.body.codes).toEqual(['slot_not_in_event'])
  })

  it('puts presale slots under review with the confirmation date of the domain rule', async () => {
    const uk = 'share-your-dragon-uk'
    const ukContent = await generateContent(api, 'london-piccadilly-1', uk, 'hearts-wide')
    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${uk}`))
    const presaleSlots = daySlots(10, 30, 2)
    const placed = await placeOrder(
      api,
      orderBody({ slots: presaleSlots, content: ukContent, checkout: await savedCard(api) }),
    )
    expect(placed.status).toBe(201)
    const status = await settledStatus(api, uk, placed.body.guid)
    const expected = confirmationFor({
      event,
      timeZoneId: 'Europe/London',
      slotNumbers: presaleSlots,
      minPresaleSlotEpochMs: event.minPresaleSlotEpochMs,
    })
    expect(expected.instant).toBe(false)
    expect(status).toEqual({
      orderState: 'UnderReview',
      errors: [],
      codes: [],
      confirmationDateEpochMs: expected.instant ? null : expected.confirmationDateEpochMs,
    })
    const early = await placeOrder(
      api,
      orderBody({ slots: daySlots(2, 30, 1), content: ukContent, checkout: await savedCard(api) }),
    )
    expect((await settledStatus(api, uk, early.body.guid)).orderState).toBe('Confirmed')
    // priced in the event's own currency and price
    const summary = await summaryOf(uk, early.body.guid)
    expect(summary).toMatchObject({ currency: 'GBP', totalCents: 2500 })
  })

  it('puts an order for flagged content under review', async () => {
    const flagged = await generateContent(api, 'paris-opera-1')
    // What moderation does to content it flags: the order must then wait for a person.
    await server.deps.database.query(
      sql`update generated_content set flagged = true where key = ${flagged.key}`,
    )
    const placed = await placeOrder(
      api,
      orderBody({ slots: freshSlots(), content: flagged, checkout: await savedCard(api) }),
    )
    expect(placed.status).toBe(201)
    expect(await settledStatus(api, LIVE, placed.body.guid)).toEqual({
      orderState: 'UnderReview',
      errors: [],
      codes: [],
      confirmationDateEpochMs: null,
    })
  })

  it('replays a retried POST with the same Idempotency-Key and refuses another body under it', async () => {
    const checkout = await savedCard(api)
    const body = orderBody({ slots: freshSlots(2), content, checkout })
    const key = newKey()
    const first = await placeOrder(api, body, key)
    expect(first.status).toBe(201)
    // the same body, keys in another order, is the same request
    const reordered = Object.fromEntries(Object.entries(body).reverse())
    const again = answerOf(order.place, await placeOrder(api, reordered, key))
    expect(again).toMatchObject({ guid: first.body.guid, orderState: 'Processing' })
    const other = await placeOrder(api, { ...body, emailAddress: 'someone@example.com' }, key)
    expect(other.status).toBe(422)
    expect(other.body.errors).toEqual([englishOf({ code: 'idempotency_key_reused' })])
    const count = await server.deps.database.query(sql<{ n: number }>`
      select count(*) as n from orders
      where email = 'ana@example.com' and checkout_secret_key = ${checkout.checkoutSecretKey}`)
    expect(Number(count[0]?.n)).toBe(1)

    const noKey = await api.post('/order/orders', body)
    expect(noKey).toMatchObject({
      status: 400,
      body: { errors: [englishOf({ code: 'idempotency_key_missing' })] },
    })
  })

  it('answers concurrent retries of one order with one order', async () => {
    const body = orderBody({ slots: freshSlots(2), content, checkout: await savedCard(api) })
    const key = newKey()
    const replies = await Promise.all(Array.from({ length: 8 }, () => placeOrder(api, body, key)))
    const guids = new Set(replies.map((r) => r.body.guid))
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(201))
    expect(guids.size).toBe(1)
  })

  it('validates the order strictly with the shared schema', async () => {
    const body = orderBody({ slots: freshSlots(), content, checkout: await savedCard(api) })
    const bad = await placeOrder(api, {
      ...body,
      emailAddress: 'not-an-email',
      customer: { ...body.customer, phoneNumber: '12', firstName: '' },
      agreements: { ...body.agreements, terms: false },
      surprise: 1,
    })
    expect(bad.status).toBe(400)
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        englishOf({ code: 'email_invalid' }),
        englishOf({ code: 'phone_invalid' }),
        englishOf({ code: 'first_name_empty' }),
        'surprise: is not an allowed field',
      ]),
    )
    expect(bad.body.errors?.some((e) => e.includes('terms'))).toBe(true)
    const noSlots = await placeOrder(api, {
      ...body,
      entries: [{ deviceId: 'paris-opera-1', slots: [] }],
    })
    expect(noSlots.status).toBe(400)
    expect(noSlots.body.errors?.join(' ')).toContain(englishOf({ code: 'no_slots_selected' }))
  })

  it('takes only Standard orders on a production server (spec §7: Test elsewhere)', async () => {
    const prod = createOrderService({
      ...server.deps,
      catalogue: server.deps.catalogue.reads,
      promo: server.deps.catalogue.promos,
      playsOf: async () => [],
      appEnv: 'prod',
      orderDataTtlMs: 30 * 86_400_000,
      paymentActionMs: 15 * 60_000,
    })
    const body = orderBody({ slots: freshSlots(), content, checkout: await savedCard(api) })
    const parsed = parseWithErrors(OrderRequestSchema, body)
    if (!parsed.success) throw new Error(parsed.errors.join())
    const test = await prod.place(parsed.output, newKey(), 'hash-test')
    expect(test).toEqual({ ok: false, error: { code: 'order_type_production' } })
    const standard = await prod.place(
      { ...parsed.output, orderType: 'Standard' },
      newKey(),
      'hash-standard',
    )
    if (!standard.ok) throw new Error(standard.error.code)
    await prod.drain()
    const rows = await server.deps.database.query(
      sql<{
        order_type: string
      }>`select order_type from orders where guid = ${standard.value.guid}`,
    )
    expect(rows[0]?.order_type).toBe('Standard')
  })

  it('reports order status and summary 404 for unknown orders', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000'
    expect(await api.get(`/order/events/${LIVE}/orders/${unknown}/status`)).toMatchObject({
      status: 404,
      body: { errors: [englishOf({ code: 'order_not_found' })] },
    })
    expect((await api.get(`/order/events/${LIVE}/orders/not-a-guid`)).status).toBe(404)
  })

  it('gives order defaults: marketing opt-in off, sponsor sharing only for branded events', async () => {
    const defaultsOf = async (query: string) =>
      answerOf(order.defaults, await api.get(`/order/defaults?${query}`))
    expect(await defaultsOf(`deviceId=paris-opera-1&eventSlug=${LIVE}`)).toMatchObject({
      marketingAcknowledgement: { willReceive: false },
      isShareInfoWithSponsorVisible: false,
    })
    expect(
      await defaultsOf('deviceId=paris-opera-1&eventSlug=share-your-dragon-france'),
    ).toMatchObject({ isShareInfoWithSponsorVisible: true })
    expect((await api.get(`/order/defaults?deviceId=nowhere&eventSlug=${LIVE}`)).status).toBe(404)
    expect((await api.get('/order/defaults?deviceId=paris-opera-1&eventSlug=nothing')).status).toBe(
      404,
    )
    expect((await api.get('/order/defaults')).status).toBe(400)
  })
})
