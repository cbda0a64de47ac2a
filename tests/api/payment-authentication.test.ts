// A charge the shopper's bank wants confirmed (3-D Secure): the order waits for them with its slots
// held, the status gives the app what Stripe.js (or the local provider's test screen) needs, and the
// order is confirmed after the bank's check, or fails (slots free again) when the check fails or
// nobody answers within PAYMENT_ACTION_MINUTES. Through the local provider (Stripe's 3-D Secure test
// cards) and through the real Stripe SDK against the stand-in; the timeout by a manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import { order } from '../../src/contract/order.ts'
import { englishOf } from '../../src/contract/problems.ts'
import { slotStartEpochMs } from '../../src/domain/index.ts'
import { createManualClock, type ManualClock } from '../../src/server/platform/clock.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  type Checkout,
  type Client,
  type ContentSource,
  client,
  DAY_MS,
  daySlots,
  eventOf,
  generateContent,
  LIVE,
  newKey,
  orderBody,
  placeOrder,
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts'

type Status = {
  orderState: string
  errors?: string[]
  codes?: string[]
  params?: unknown[]
  paymentAction?: {
    provider: string
    publishableKey: string | null
    clientSecret: string
    amountCents: number
    currency: string
    untilEpochMs: number
  } | null
}

const MINUTE = 60_000

function shop(backend: 'pglite' | 'postgres', env: Record<string, string> = {}) {
  const state = {} as {
    server: TestServer
    api: Client
    clock: ManualClock
    content: { key: string; source: ContentSource }
  }
  let group = 0
  beforeAll(async () => {
    state.clock = createManualClock(Date.now())
    state.server = await startTestServer(backend, {
      env,
      now: () => state.clock.now(),
      clock: state.clock,
    })
    state.api = client(state.server.url)
    state.content = await generateContent(state.api)
  })
  afterAll(async () => {
    await state.server?.stop()
  })

  // Slots of their own for each order (days 3 to 12 of the live event)
  const freshSlots = () => {
    const g = group++
    return daySlots(3 + (g % 10), 60 + 2 * Math.floor(g / 10), 2)
  }

  const openOf = async (slots: number[]) => {
    const event = await eventOf(state.api, LIVE)
    const start = slotStartEpochMs(event, 'Europe/Paris', slots[0] as number)
    const search = answerOf(
      spotlight.slotSearch,
      await state.api.post('/spotlight/slots/search', {
        deviceId: 'paris-opera-1',
        eventSlug: LIVE,
        startEpochMs: start - DAY_MS,
        endEpochMs: start + DAY_MS,
      }),
    )
    return slots.filter((s) => search.openSlots.includes(s))
  }

  const place = async (checkout: Checkout, slots = freshSlots(), key = newKey()) => {
    const placed = await placeOrder(
      state.api,
      orderBody({ slots, content: state.content, checkout }),
      key,
    )
    expect(placed.status).toBe(201)
    const guid = placed.body.guid as string
    const status = (await settledStatus(state.api, LIVE, guid)) as Status
    return { guid, slots, key, status, checkout }
  }

  const authenticated = async (guid: string) => {
    const res = answerOf(
      order.authenticated,
      await state.api.post(`/order/events/${LIVE}/orders/${guid}/authentication`),
    )
    return res
  }

  const status = async (guid: string) =>
    answerOf(order.status, await state.api.get(`/order/events/${LIVE}/orders/${guid}/status`))

  const localAnswer = (clientSecret: string, outcome: 'complete' | 'fail') =>
    state.api.post('/order/payment/local/authentication', {
      clientSecret,
      outcome,
    })

  return { state, freshSlots, openOf, place, authenticated, status, localAnswer }
}

describe.each(BACKENDS)(
  'a charge the bank asks the shopper to confirm, local provider (%s)',
  (backend) => {
    const t = shop(backend)

    it('waits with its slots held, then is confirmed once the shopper completes the check, charged once', async () => {
      const checkout = await savedCard(t.state.api, '4000002760003184')
      const { guid, slots, key, status } = await t.place(checkout)
      expect(status).toMatchObject({
        orderState: 'AwaitingAuthentication',
        paymentAction: {
          provider: 'local',
          publishableKey: null,
          clientSecret: expect.stringMatching(/^pi_local_\w+_secret_/),
          currency: 'EUR',
          untilEpochMs: t.state.clock.now() + 15 * MINUTE,
        },
      })
      expect(status.paymentAction?.amountCents).toBeGreaterThan(0)
      expect(await t.openOf(slots)).toEqual([])
      // asking before the shopper answered changes nothing
      expect((await t.authenticated(guid)).orderState).toBe('AwaitingAuthentication')

      const answer = await t.localAnswer(status.paymentAction?.clientSecret as string, 'complete')
      expect(answerOf(order.localAuthenticate, answer)).toEqual({ status: 'succeeded' })
      const settled = await t.authenticated(guid)
      expect(settled.orderState).toBe('Confirmed')
      expect(settled.paymentAction).toBeUndefined()

      // A retried order request, a second settle and a second processing charge nothing more
      const retried = await placeOrder(
        t.state.api,
        orderBody({ slots, content: t.state.content, checkout }),
        key,
      )
      expect(retried.body.guid).toBe(guid)
      await t.authenticated(guid)
      await t.state.server.deps.orders.processOrder(guid)
      const charges = await t.state.server.deps.database.query(sql<{ status: string }>`
      select status from payments where order_guid = ${guid}`)
      expect(charges).toEqual([{ status: 'succeeded' }])
      expect((await t.status(guid)).orderState).toBe('Confirmed')
      expect(await t.openOf(slots)).toEqual([])
    })

    it('fails when the shopper fails the check, says why, and frees its slots', async () => {
      const checkout = await savedCard(t.state.api, '4000000000003220')
      const { guid, slots, status } = await t.place(checkout)
      expect(status.orderState).toBe('AwaitingAuthentication')
      const answer = await t.localAnswer(status.paymentAction?.clientSecret as string, 'fail')
      expect(answerOf(order.localAuthenticate, answer)).toEqual({ status: 'failed' })
      expect(await t.authenticated(guid)).toMatchObject({
        orderState: 'Failed',
        errors: [englishOf({ code: 'authentication_failed' })],
        codes: ['authentication_failed'],
      })
      expect(await t.openOf(slots)).toEqual(slots)
      // the test screen's secret is gone with the wait
      const late = await t.localAnswer(status.paymentAction?.clientSecret as string, 'complete')
      expect(late.status).toBe(404)
    })

    it('fails when nobody answers within PAYMENT_ACTION_MINUTES, and a late answer cannot charge', async () => {
      const checkout = await savedCard(t.state.api, '4000002760003184')
      const { guid, slots, status } = await t.place(checkout)
      expect(status.orderState).toBe('AwaitingAuthentication')
      const secret = status.paymentAction?.clientSecret as string

      t.state.clock.advance(15 * MINUTE - 1000)
      await t.state.server.deps.jobs.runNow('authentication-timeout')
      expect((await t.status(guid)).orderState).toBe('AwaitingAuthentication')
      expect(await t.openOf(slots)).toEqual([])

      t.state.clock.advance(1000)
      await t.state.server.deps.jobs.runNow('authentication-timeout')
      expect(await t.status(guid)).toMatchObject({
        orderState: 'Failed',
        errors: [englishOf({ code: 'authentication_timed_out', params: { minutes: 15 } })],
        codes: ['authentication_timed_out'],
        params: [{ minutes: 15 }],
      })
      expect(await t.openOf(slots)).toEqual(slots)
      expect((await t.localAnswer(secret, 'complete')).status).toBe(404)
      const charges = await t.state.server.deps.database.query(sql<{ status: string }>`
      select status from payments where order_guid = ${guid}`)
      expect(charges).toEqual([{ status: 'failed' }])
    })

    it('charges a card set up for later use (4000 0025 0000 3155) without asking', async () => {
      const checkout = await savedCard(t.state.api, '4000002500003155')
      const { status } = await t.place(checkout)
      expect(status.orderState).toBe('Confirmed')
      expect(status.paymentAction).toBeUndefined()
    })
  },
)

describe.each(BACKENDS)(
  'a charge the bank asks the shopper to confirm, through Stripe (%s)',
  (backend) => {
    let stripe: StripeStandIn
    const env: Record<string, string> = {}
    beforeAll(async () => {
      stripe = await startStripeStandIn('sk_test_shouts_3ds')
      Object.assign(env, stripe.env)
    })
    afterAll(async () => {
      await stripe?.close()
    })
    const t = shop(backend, env)

    const stripeCard = async (paymentMethod: string): Promise<Checkout> => {
      const setup = answerOf(
        order.setupIntent,
        await t.state.api.post('/order/payment/setup-intent'),
      )
      stripe.confirmSetup(setup.clientSecret, paymentMethod)
      return setup
    }

    it('charges on session, hands the PaymentIntent to Stripe.js, and confirms the order after it, once', async () => {
      const { guid, slots, key, status, checkout } = await t.place(
        await stripeCard('pm_card_authenticationRequired'),
      )
      const intentId = stripe.paymentIntents.at(-1) as string
      const intent = stripe.paymentIntent(intentId)
      expect(status).toMatchObject({
        orderState: 'AwaitingAuthentication',
        paymentAction: {
          provider: 'stripe',
          publishableKey: 'pk_test_shouts_3ds',
          clientSecret: intent?.client_secret,
        },
      })
      const charge = stripe.calls.find(
        (c) => c.path === '/v1/payment_intents' && c.method === 'POST',
      )
      expect(charge?.form.get('use_stripe_sdk')).toBe('true')
      expect(charge?.form.get('off_session')).toBeNull()
      expect(charge?.idempotencyKey).toBe(`order-${guid}`)
      expect(await t.openOf(slots)).toEqual([])

      stripe.authenticate(intent?.client_secret as string, 'complete')
      expect(await t.authenticated(guid)).toMatchObject({
        orderState: 'Confirmed',
      })
      const made = stripe.paymentIntents.length
      const retried = await placeOrder(
        t.state.api,
        orderBody({ slots, content: t.state.content, checkout }),
        key,
      )
      expect(retried.body.guid).toBe(guid)
      await t.authenticated(guid)
      await t.state.server.deps.orders.processOrder(guid)
      expect(stripe.paymentIntents.length).toBe(made)
      expect((await t.status(guid)).orderState).toBe('Confirmed')
    })

    // Before the clock moves: the event's signature is checked against the shop's clock
    it("confirms the order by Stripe's event when the shopper's page is gone, once", async () => {
      stripe.deliverTo(`${t.state.server.url}/api/v1/payment/stripe/webhook`)
      const { guid, status } = await t.place(await stripeCard('pm_card_authenticationRequired'))
      expect(status.orderState).toBe('AwaitingAuthentication')
      const intentId = stripe.paymentIntents.at(-1) as string
      stripe.authenticate(status.paymentAction?.clientSecret as string, 'complete')
      const delivered = await stripe.send(
        'payment_intent.succeeded',
        stripe.paymentIntent(intentId) as never,
      )
      expect(delivered.status).toBe(200)
      expect((await t.status(guid)).orderState).toBe('Confirmed')
      expect((await stripe.redeliver(delivered)).status).toBe(200)
      expect((await t.status(guid)).orderState).toBe('Confirmed')
      expect(stripe.paymentIntents.filter((id) => id === intentId)).toHaveLength(1)
    })

    it('fails the order when the shopper fails the check, and frees its slots', async () => {
      const { guid, slots, status } = await t.place(
        await stripeCard('pm_card_authenticationRequired'),
      )
      stripe.authenticate(status.paymentAction?.clientSecret as string, 'fail')
      expect(await t.authenticated(guid)).toMatchObject({
        orderState: 'Failed',
        codes: ['authentication_failed'],
      })
      expect(await t.openOf(slots)).toEqual(slots)
    })

    it('cancels the PaymentIntent and fails the order when nobody answers in time', async () => {
      const { guid, slots, status } = await t.place(
        await stripeCard('pm_card_threeDSecure2Required'),
      )
      expect(status.orderState).toBe('AwaitingAuthentication')
      const intentId = stripe.paymentIntents.at(-1) as string
      t.state.clock.advance(15 * MINUTE)
      await t.state.server.deps.jobs.runNow('authentication-timeout')
      expect(stripe.paymentIntent(intentId)?.status).toBe('canceled')
      expect(await t.status(guid)).toMatchObject({
        orderState: 'Failed',
        codes: ['authentication_timed_out'],
        params: [{ minutes: 15 }],
      })
      expect(await t.openOf(slots)).toEqual(slots)
    })

    it('confirms the order when the bank confirmed just as the wait ended', async () => {
      const { guid, status } = await t.place(await stripeCard('pm_card_authenticationRequired'))
      stripe.authenticate(status.paymentAction?.clientSecret as string, 'complete')
      t.state.clock.advance(15 * MINUTE)
      // the app never said so: the job finds the charge confirmed
      await t.state.server.deps.jobs.runNow('authentication-timeout')
      expect((await t.status(guid)).orderState).toBe('Confirmed')
    })
  },
)

describe.each(BACKENDS)('a failed bank check, mailed (%s)', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let api: Client
  let content: { key: string; source: ContentSource }
  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, {
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Shouts <shop@shop.example>',
        MAIL_POLL_SECONDS: '0.1',
        PUBLIC_BASE_URL: 'https://shop.example',
      },
    })
    api = client(server.url)
    content = await generateContent(api)
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  it('tells the shopper in their language that their bank did not confirm the payment, and why', async () => {
    const checkout = await savedCard(api, '4000002760003184')
    const placed = await placeOrder(
      api,
      orderBody({
        slots: daySlots(4, 30, 1),
        content,
        checkout,
        email: 'refused-fr@example.com',
        locale: 'fr',
      }),
    )
    const guid = placed.body.guid as string
    const waiting = (await settledStatus(api, LIVE, guid)) as Status
    await api.post('/order/payment/local/authentication', {
      clientSecret: waiting.paymentAction?.clientSecret,
      outcome: 'fail',
    })
    await api.post(`/order/events/${LIVE}/orders/${guid}/authentication`)
    const mail = await smtp.waitFor(
      (m) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address === 'refused-fr@example.com',
    )
    expect(mail.subject).toMatch(
      /^Votre commande n'a pas été passée\u202f: le paiement n'a pas été confirmé/,
    )
    expect(mail.text).toContain("Votre banque n'a pas confirmé le paiement.")
  })
})
