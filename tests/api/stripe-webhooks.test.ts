import type { ParsedMail } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ops } from '../../src/contract/ops/orders.ts'
import { order as orderEndpoints } from '../../src/contract/order.ts'
import { confirmationCode } from '../../src/domain/confirmation.ts'
import type { IntentSettled } from '../../src/server/payment/webhooks.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  type Client,
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
  clientWith,
  newOperator,
  OPS_PASSWORD,
  type SignedIn,
  sessionCookieOf,
  signedInOperator,
} from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts'

// What Stripe tells the shop after the fact, posted by the stand-in of Stripe to the shop's webhook
// endpoint and signed as Stripe signs it (the SDK's test-header helper): a refund the card's bank
// refuses days later, a chargeback and its end, a PaymentIntent settled while nobody waited. The
// operators see it on the order's console page (the console API), admins get a mail in the language
// of their console (a real SMTP server), the audit log keeps it; an event sent again or forged
// changes nothing.

const SECRET = 'sk_test_shouts_webhooks'
const SHOP = 'https://shop.example'

describe.each(BACKENDS)("Stripe's events on %s", (backend) => {
  let stripe: StripeStandIn
  let smtp: SmtpTestServer
  let server: TestServer
  let api: Client
  let admin: SignedIn
  let frenchAdmin: string

  beforeAll(async () => {
    stripe = await startStripeStandIn(SECRET)
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, {
      env: {
        ...stripe.env,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Shouts <shop@shop.example>',
        MAIL_POLL_SECONDS: '0.1',
        PUBLIC_BASE_URL: SHOP,
      },
    })
    stripe.deliverTo(`${server.url}/api/v1/payment/stripe/webhook`)
    api = client(server.url)
    admin = await signedInOperator(server, 'admin', 'ana@shop.example', SHOP)
    frenchAdmin = await signedInIn(server, 'fr', 'camille@shop.example')
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
    await stripe?.close()
  })

  /** An admin who signed in to the console in a language: their mails are written in it. */
  async function signedInIn(s: TestServer, locale: 'fr' | 'de', email: string) {
    const anonymous = clientWith(s.url, { origin: SHOP })
    const made = await newOperator(s, 'admin', email)
    await anonymous.post('/ops/set-password', { token: made.token, password: OPS_PASSWORD })
    const signIn = await anonymous.post('/ops/session', {
      email: made.email,
      password: OPS_PASSWORD,
      locale,
    })
    expect(signIn.status).toBe(204)
    expect(sessionCookieOf(signIn.headers)).toBeTruthy()
    return made.email
  }

  async function paidOrder(slots: number[]) {
    const setup = answerOf(
      orderEndpoints.setupIntent,
      await api.post('/order/payment/setup-intent'),
    )
    stripe.confirmSetup(setup.clientSecret, 'pm_card_visa')
    const placed = await placeOrder(
      api,
      orderBody({ slots, content: await generateContent(api), checkout: setup }),
    )
    expect(placed.status).toBe(201)
    expect((await settledStatus(api, LIVE, placed.body.guid)).orderState).toBe('Confirmed')
    const order = answerOf(ops.order, await admin.api.get(`/ops/orders/${placed.body.guid}`))
    return order
  }

  async function cancelledOrder(slots: number[]) {
    const order = await paidOrder(slots)
    const res = answerOf(
      ops.cancel,
      await admin.api.post(`/ops/orders/${order.guid}/cancel`, {
        reason: 'Asked by the shopper',
      }),
    )
    expect(res.payment.refund?.status).toBe('succeeded')
    const refund = stripe.refunds.find((r) => r.paymentIntent === order.payment.paymentId)
    if (!refund) throw new Error('no refund made at Stripe')
    return { order: res, refundId: refund.id }
  }

  const opsOrder = async (guid: string) =>
    answerOf(ops.order, await admin.api.get(`/ops/orders/${guid}`))
  const auditOf = async (guid: string) =>
    answerOf(ops.audit, await admin.api.get('/ops/audit')).entries.filter(
      (e) => e.orderGuid === guid,
    )

  it("shows a refund the card's bank refuses later as failed on the order, and why", async () => {
    const { order, refundId } = await cancelledOrder(daySlots(4, 10, 1))
    expect(order.payment).toMatchObject({
      state: 'charged',
      refundedCents: order.totalCents,
      refund: { status: 'succeeded', providerStatus: 'succeeded' },
    })
    const [updated, failed] = await stripe.failRefund(refundId, 'expired_or_canceled_card')
    expect(updated).toMatchObject({ status: 200, body: { received: true, handled: true } })
    expect(failed).toMatchObject({ status: 200, body: { received: true, handled: true } })
    const after = await opsOrder(order.guid)
    expect(after.payment).toMatchObject({
      refundedCents: 0,
      refund: {
        status: 'failed',
        providerStatus: 'failed',
        error: { code: 'refund_failed', params: { reason: 'expired_or_canceled_card' } },
      },
    })
    expect((await auditOf(order.guid)).map((e) => e.action)).toContain('refund_failed')
  })

  it('closes a refund still pending here when Stripe says the charge was refunded', async () => {
    const order = await paidOrder(daySlots(4, 60, 1))
    // refunded in Stripe's dashboard first: the shop's own refund is refused and stays pending
    const dashboard = await fetch(`${stripe.url}/v1/refunds`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SECRET}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ payment_intent: order.payment.paymentId ?? '' }),
    })
    expect(dashboard.status).toBe(200)
    const cancelled = answerOf(
      ops.cancel,
      await admin.api.post(`/ops/orders/${order.guid}/cancel`, {
        reason: 'Refunded by phone',
      }),
    )
    expect(cancelled.payment).toMatchObject({
      refundedCents: 0,
      refund: { status: 'pending' },
    })
    const refunded = await stripe.send('charge.refunded', {
      id: 'ch_dashboard',
      object: 'charge',
      amount: order.totalCents,
      amount_refunded: order.totalCents,
      payment_intent: order.payment.paymentId,
      refunded: true,
    })
    expect(refunded.status).toBe(200)
    expect((await opsOrder(order.guid)).payment).toMatchObject({
      refundedCents: order.totalCents,
      refund: { status: 'succeeded', providerStatus: 'succeeded', error: null },
    })
  })

  it('changes nothing when Stripe sends an event again', async () => {
    const { order, refundId } = await cancelledOrder(daySlots(4, 20, 1))
    const [updated] = await stripe.failRefund(refundId, 'lost_or_stolen_card')
    const before = await opsOrder(order.guid)
    const audit = await auditOf(order.guid)
    const again = await stripe.redeliver(updated as NonNullable<typeof updated>)
    expect(again).toMatchObject({ status: 200, body: { received: true, handled: false } })
    expect(await opsOrder(order.guid)).toEqual(before)
    expect(await auditOf(order.guid)).toEqual(audit)
    // a late "succeeded" of the same refund does not undo its failure either
    const late = await stripe.send('refund.updated', {
      id: refundId,
      object: 'refund',
      amount: order.totalCents,
      payment_intent: order.payment.paymentId,
      status: 'succeeded',
      metadata: { orderGuid: order.guid },
    })
    expect(late.status).toBe(200)
    expect((await opsOrder(order.guid)).payment.refund).toMatchObject({
      status: 'failed',
      providerStatus: 'failed',
    })
  })

  it('refuses a forged or altered event with 400 and changes nothing', async () => {
    const { order, refundId } = await cancelledOrder(daySlots(4, 30, 1))
    const before = await opsOrder(order.guid)
    const refund = {
      id: refundId,
      object: 'refund',
      amount: order.totalCents,
      payment_intent: order.payment.paymentId,
      status: 'failed',
      failure_reason: 'declined',
      metadata: { orderGuid: order.guid },
    }
    const forged = await stripe.send('refund.failed', refund, { secret: 'whsec_not_the_shops' })
    expect(forged.status).toBe(400)
    expect(forged.body).toMatchObject({ codes: ['webhook_signature_invalid'] })
    // a real signature over another body
    const genuine = await stripe.send('refund.updated', { ...refund, status: 'pending' })
    expect(genuine.status).toBe(200)
    const altered = await stripe.redeliver({
      ...genuine,
      payload: genuine.payload.replace('"status": "pending"', '"status": "failed"'),
    })
    expect(altered.status).toBe(400)
    const unsigned = await fetch(`${server.url}/api/v1/payment/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: forged.payload,
    })
    expect(unsigned.status).toBe(400)
    const after = await opsOrder(order.guid)
    expect(after.payment.refund).toMatchObject({ status: 'succeeded' })
    expect(after.payment.refund?.error).toBeNull()
    expect(after.payment.refundedCents).toBe(before.payment.refundedCents)
    const [row] = await server.deps.database.query(sql<{ n: number }>`
      select count(*)::int as n from payment_webhook_events where event_id = ${forged.event.id}`)
    expect(row?.n).toBe(0)
  })

  it('shows a dispute on the order, mails the admins in their language, and logs it', async () => {
    const order = await paidOrder(daySlots(4, 40, 2))
    const code = confirmationCode(order.guid)
    const opened = await stripe.dispute(order.payment.paymentId ?? '', 'fraudulent')
    expect(opened).toMatchObject({ status: 200, body: { handled: true } })
    const disputeId = String(opened.event.data.object.id)
    expect((await opsOrder(order.guid)).payment.disputes).toEqual([
      {
        disputeId,
        amountCents: order.totalCents,
        currency: order.currency,
        reason: 'fraudulent',
        status: 'needs_response',
        evidenceDueEpochMs: expect.any(Number),
        openedAtEpochMs: expect.any(Number),
        closedAtEpochMs: null,
      },
    ])
    const toAna = (m: ParsedMail) => mailTo(m, admin.email) && m.subject?.includes(code) === true
    const english = await smtp.waitFor(toAna)
    expect(english.subject).toBe(`A payment was disputed: order ${code}`)
    expect(english.text).toContain('fraudulent')
    expect(english.text).toContain(`${SHOP}/ops/orders?order=${order.guid}`)
    const french = await smtp.waitFor(
      (m) => mailTo(m, frenchAdmin) && m.subject?.includes(code) === true,
    )
    expect(french.subject).toBe(`Un paiement est contesté\u202f: commande ${code}`)
    expect(String(french.html)).toContain('<html lang="fr">')
    expect((await auditOf(order.guid)).map((e) => e.action)).toEqual(['payment_disputed'])

    // sent again: no second dispute, mail or audit row
    expect((await stripe.redeliver(opened)).body).toMatchObject({ handled: false })
    const mails = await server.deps.database.query(sql<{ n: number }>`
      select count(*)::int as n from mail_outbox where kind = 'payment_dispute'
        and subject like ${`%${code}%`}`)
    expect(mails[0]?.n).toBe(2)
    expect((await opsOrder(order.guid)).payment.disputes).toHaveLength(1)

    const closed = await stripe.closeDispute(disputeId, 'lost')
    expect(closed.status).toBe(200)
    const [dispute] = (await opsOrder(order.guid)).payment.disputes
    expect(dispute).toMatchObject({ status: 'lost', closedAtEpochMs: expect.any(Number) })
    const ended = await smtp.waitFor(
      (m) => mailTo(m, admin.email) && m.subject === `A dispute ended: order ${code}`,
    )
    expect(ended.text).toContain('The bank decided for the cardholder')
    expect((await auditOf(order.guid)).map((e) => e.action)).toEqual([
      'payment_dispute_closed',
      'payment_disputed',
    ])
  })

  it('hands a PaymentIntent Stripe settled to the order module once', async () => {
    const order = await paidOrder(daySlots(4, 50, 1))
    const heard: IntentSettled[] = []
    server.deps.stripeWebhooks.onIntentSettled(async (settled) => {
      heard.push(settled)
    })
    const intent = {
      id: 'pi_settled_late',
      object: 'payment_intent',
      amount: order.totalCents,
      status: 'requires_payment_method',
      metadata: { orderGuid: order.guid },
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
      },
    }
    const failed = await stripe.send('payment_intent.payment_failed', intent)
    expect(failed.status).toBe(200)
    await stripe.redeliver(failed)
    const succeeded = await stripe.send('payment_intent.succeeded', {
      ...intent,
      status: 'succeeded',
    })
    expect(succeeded.status).toBe(200)
    expect(heard).toEqual([
      {
        orderGuid: order.guid,
        paymentIntentId: 'pi_settled_late',
        succeeded: false,
        problem: { code: 'insufficient_funds' },
      },
      { orderGuid: order.guid, paymentIntentId: 'pi_settled_late', succeeded: true, problem: null },
    ])
  })
})

function mailTo(mail: ParsedMail, email: string): boolean {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []
  return to.some((a) => a.value.some((v) => v.address?.toLowerCase() === email.toLowerCase()))
}

describe("Stripe's webhook endpoint", () => {
  it('is rate-limited per address like every write, and answers 404 without its secret', async () => {
    const server = await startTestServer('pglite', { env: { WRITES_PER_MINUTE: '2' } })
    try {
      const post = () =>
        fetch(`${server.url}/api/v1/payment/stripe/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
          body: '{}',
        })
      const answers = [await post(), await post(), await post()]
      expect(answers.map((r) => r.status)).toEqual([404, 404, 429])
      expect(await answers[0]?.json()).toMatchObject({ codes: ['webhooks_not_configured'] })
    } finally {
      await server.stop()
    }
  })
})
