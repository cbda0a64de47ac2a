// Payments through Stripe: the real Stripe SDK of payment/stripe.ts against a stand-in for
// Stripe's API on loopback (Stripe itself cannot be reached from here). A Customer and a SetupIntent at
// setup; the order refused while the card is not saved; then one on-session PaymentIntent for the
// server's own total, keyed by the order, and a declined card failing the order and freeing its slots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import { order } from '../../src/contract/order.ts'
import { englishOf } from '../../src/contract/problems.ts'
import {
  answerOf,
  client,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts'

const SECRET = 'sk_test_shouts_stand_in'

describe('payments through Stripe', () => {
  let stripe: StripeStandIn
  let server: TestServer
  let api: ReturnType<typeof client>
  let content: Awaited<ReturnType<typeof generateContent>>
  let open: number[]

  beforeAll(async () => {
    stripe = await startStripeStandIn(SECRET)
    server = await startTestServer('pglite', { env: stripe.env })
    api = client(server.url)
    content = await generateContent(api)
    const now = Date.now()
    open = answerOf(
      spotlight.slotSearch,
      await api.post('/spotlight/slots/search', {
        deviceId: 'paris-opera-1',
        eventSlug: LIVE,
        startEpochMs: now,
        endEpochMs: now + 15 * 86_400_000,
      }),
    ).openSlots.slice(-20)
  })
  afterAll(async () => {
    await server?.stop()
    await stripe?.close()
  })

  const setupIntent = async () => {
    const res = answerOf(order.setupIntent, await api.post('/order/payment/setup-intent'))
    return res
  }

  it('creates a Customer and a SetupIntent for the card form, with the publishable key', async () => {
    const before = stripe.calls.length
    const setup = await setupIntent()
    expect(setup).toMatchObject({
      provider: 'stripe',
      publishableKey: 'pk_test_shouts_stand_in',
      customerId: expect.stringMatching(/^cus_/),
      clientSecret: expect.stringMatching(/^seti_.*_secret_/),
      checkoutSecretKey: expect.any(String),
    })
    const made = stripe.calls.slice(before)
    expect(made.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v1/customers',
      'POST /v1/setup_intents',
    ])
    expect(made[1]?.form.get('customer')).toBe(setup.customerId)
    expect(made[1]?.form.get('usage')).toBe('off_session')
    // The local test-card form is not offered when Stripe takes the cards.
    const local = await api.post('/order/payment/local/confirm', {
      clientSecret: setup.clientSecret,
      cardNumber: '4242424242424242',
      expMonth: 12,
      expYear: 2040,
      cvc: '123',
    })
    expect(local.status).toBe(404)
  })

  it('refuses an order whose card was not saved, then charges the saved card once, on session', async () => {
    const setup = await setupIntent()
    const slots = open.slice(0, 2)
    const early = await placeOrder(api, orderBody({ slots, content, checkout: setup }))
    expect(early.status).toBe(400)
    expect(early.body.errors).toEqual([englishOf({ code: 'setup_not_confirmed' })])

    stripe.confirmSetup(setup.clientSecret, 'pm_card_visa')
    const key = `stripe-order-${Date.now()}`
    const placed = await placeOrder(api, orderBody({ slots, content, checkout: setup }), key)
    expect(placed.status).toBe(201)
    expect(await settledStatus(api, LIVE, placed.body.guid)).toMatchObject({
      orderState: 'Confirmed',
    })
    // A retried POST (lost answer) returns the first answer and charges nothing more.
    const retried = await placeOrder(api, orderBody({ slots, content, checkout: setup }), key)
    expect(retried.body.guid).toBe(placed.body.guid)

    const summary = answerOf(
      order.summary,
      await api.get(`/order/events/${LIVE}/orders/${placed.body.guid}`),
    )
    const charges = stripe.calls.filter((c) => c.path === '/v1/payment_intents')
    expect(charges).toHaveLength(1)
    const charge = charges[0]
    expect(charge?.form.get('amount')).toBe(String(summary.totalCents))
    expect(summary.totalCents).toBeGreaterThan(0)
    expect(charge?.form.get('currency')).toBe(summary.currency.toLowerCase())
    expect(charge?.form.get('customer')).toBe(setup.customerId)
    expect(charge?.form.get('payment_method')).toBe('pm_card_visa')
    // the shopper is at the checkout: their bank may ask them (Stripe.js handles the next action)
    expect(charge?.form.get('off_session')).toBeNull()
    expect(charge?.form.get('use_stripe_sdk')).toBe('true')
    expect(charge?.form.get('confirm')).toBe('true')
    expect(charge?.form.get('metadata[orderGuid]')).toBe(placed.body.guid)
    expect(charge?.idempotencyKey).toBe(`order-${placed.body.guid}`)

    // The saved card belongs to that order: a second order with it is refused.
    const again = await placeOrder(
      api,
      orderBody({ slots: open.slice(2, 4), content, checkout: setup }),
    )
    expect(again.status).toBe(409)
    expect(again.body.errors).toEqual([englishOf({ code: 'payment_already_saved' })])
  })

  it('fails the order when Stripe declines the charge, and frees its slots', async () => {
    const setup = await setupIntent()
    stripe.confirmSetup(setup.clientSecret, 'pm_card_chargeDeclined')
    const slots = open.slice(6, 8)
    const placed = await placeOrder(api, orderBody({ slots, content, checkout: setup }))
    expect(placed.status).toBe(201)
    expect(await settledStatus(api, LIVE, placed.body.guid)).toEqual({
      orderState: 'Failed',
      errors: [englishOf({ code: 'card_declined' })],
      codes: ['card_declined'],
      confirmationDateEpochMs: null,
    })
    const next = await setupIntent()
    stripe.confirmSetup(next.clientSecret, 'pm_card_visa')
    const retry = await placeOrder(api, orderBody({ slots, content, checkout: next }))
    expect(retry.status).toBe(201)
    expect((await settledStatus(api, LIVE, retry.body.guid)).orderState).toBe('Confirmed')
  })
})
