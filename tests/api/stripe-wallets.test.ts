// Wallets and local cards through Stripe: what the shop asks Stripe for (read from the stand-in's
// record of the calls the real SDK made), and that an order is charged off whatever the Payment
// Element saved: a card, a card from Apple Pay or Google Pay, Link, or a co-badged Cartes Bancaires card
// charged on the network its holder chose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { order } from '../../src/contract/order.ts'
import {
  answerOf,
  BACKENDS,
  type Client,
  type ContentSource,
  client,
  daySlots,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import {
  listOf,
  type SavedMethod,
  type StripeStandIn,
  startStripeStandIn,
} from './stripe-stand-in.ts'

const SECRET = 'sk_test_shouts_wallets'

describe.each(BACKENDS)('wallets and local cards through Stripe (%s)', (backend) => {
  let stripe: StripeStandIn
  let server: TestServer
  let api: Client
  let content: { key: string; source: ContentSource }
  let group = 0

  beforeAll(async () => {
    stripe = await startStripeStandIn(SECRET)
    server = await startTestServer(backend, { env: stripe.env })
    api = client(server.url)
    content = await generateContent(api)
  })
  afterAll(async () => {
    await server?.stop()
    await stripe?.close()
  })

  const setupIntent = async () => {
    const res = answerOf(order.setupIntent, await api.post('/order/payment/setup-intent'))
    return res
  }

  /** Saves `method` as the Payment Element would, places an order with it; its status and charge. */
  const buyWith = async (paymentMethod: string, method: SavedMethod) => {
    const setup = await setupIntent()
    stripe.confirmSetup(setup.clientSecret, paymentMethod, method)
    const placed = await placeOrder(
      api,
      orderBody({ slots: daySlots(4 + group++, 30, 2), content, checkout: setup }),
    )
    expect(placed.status).toBe(201)
    const status = await settledStatus(api, LIVE, placed.body.guid)
    const charge = stripe.calls.findLast(
      (c) => c.path === '/v1/payment_intents' && c.form.get('payment_method') === paymentMethod,
    )
    return { status, charge, intent: stripe.paymentIntents.at(-1) as string }
  }

  it('asks Stripe for a SetupIntent offering cards (with their wallets) and Link, off session', async () => {
    const before = stripe.calls.length
    const setup = await setupIntent()
    const asked = stripe.calls
      .slice(before)
      .find((c) => c.method === 'POST' && c.path === '/v1/setup_intents')
    expect(asked?.form.get('usage')).toBe('off_session')
    expect(listOf(asked?.form ?? new URLSearchParams(), 'allowed_payment_method_types')).toEqual([
      'card',
      'link',
    ])
    // nothing that settles days later (SEPA Debit, on in the stand-in's Dashboard) or redirects
    expect([...(asked?.form.keys() ?? [])].some((k) => k.startsWith('automatic_payment'))).toBe(
      false,
    )
    // The Payment Element offers Link, and a card (Apple Pay and Google Pay save one); not SEPA Debit.
    stripe.confirmSetup(setup.clientSecret, 'pm_link_standin_offered', { type: 'link' })
    const other = await setupIntent()
    expect(() =>
      stripe.confirmSetup(other.clientSecret, 'pm_sepa_standin', { type: 'sepa_debit' }),
    ).toThrow(/does not offer sepa_debit/)
  })

  it('confirms an order paid with Apple Pay or Google Pay, charging the saved card once', async () => {
    for (const wallet of ['apple_pay', 'google_pay'] as const) {
      const { status, charge, intent } = await buyWith(`pm_${wallet}_standin`, {
        type: 'card',
        wallet,
      })
      expect(status.orderState).toBe('Confirmed')
      expect(listOf(charge?.form ?? new URLSearchParams(), 'allowed_payment_method_types')).toEqual(
        ['card', 'link'],
      )
      expect(stripe.paymentIntent(intent)?.status).toBe('succeeded')
    }
  })

  it('confirms an order paid with Link, the saved Link method being charged', async () => {
    const { status, charge, intent } = await buyWith('pm_link_standin', { type: 'link' })
    expect(status.orderState).toBe('Confirmed')
    expect(charge?.form.get('payment_method')).toBe('pm_link_standin')
    expect(stripe.paymentIntent(intent)).toMatchObject({
      status: 'succeeded',
      payment_method: 'pm_link_standin',
    })
  })

  it('charges a co-badged card on the network its holder chose (Cartes Bancaires)', async () => {
    const { status, charge, intent } = await buyWith('pm_cb_visa_standin', {
      type: 'card',
      networks: { available: ['visa', 'cartes_bancaires'], preferred: 'cartes_bancaires' },
    })
    expect(status.orderState).toBe('Confirmed')
    // the shop names no network of its own: the holder's choice stands
    expect(charge?.form.has('payment_method_options[card][network]')).toBe(false)
    expect(stripe.chargedNetwork(intent)).toBe('cartes_bancaires')
  })
})
