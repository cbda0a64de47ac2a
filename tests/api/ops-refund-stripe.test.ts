import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ops } from '../../src/contract/ops/orders.ts'
import { order } from '../../src/contract/order.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
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
import { type SignedIn, signedInOperator } from './ops-helpers.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts'

// Cancelling an order paid through Stripe makes a real Refund of its PaymentIntent (the
// Stripe SDK against the stand-in of Stripe's API), once: a retried cancel and a refund sent again
// after a crash carry the same Idempotency-Key, and Stripe answers the first refund again.

const SECRET = 'sk_test_shouts_ops_refunds'

describe('refunds through Stripe', () => {
  let stripe: StripeStandIn
  let server: TestServer
  let api: Client
  let admin: SignedIn

  beforeAll(async () => {
    stripe = await startStripeStandIn(SECRET)
    server = await startTestServer('pglite', { env: stripe.env })
    api = client(server.url)
    admin = await signedInOperator(server, 'admin')
  })
  afterAll(async () => {
    await server?.stop()
    await stripe?.close()
  })

  async function paidOrder(slots: number[]) {
    const setup = answerOf(order.setupIntent, await api.post('/order/payment/setup-intent'))
    stripe.confirmSetup(setup.clientSecret, 'pm_card_visa')
    const placed = await placeOrder(
      api,
      orderBody({ slots, content: await generateContent(api), checkout: setup }),
    )
    expect(placed.status).toBe(201)
    expect((await settledStatus(api, LIVE, placed.body.guid)).orderState).toBe('Confirmed')
    return placed.body.guid
  }

  it('refunds the PaymentIntent once, also when the cancel is sent again', async () => {
    const guid = await paidOrder(daySlots(3, 40, 2))
    const cancel = () =>
      admin.api.post(`/ops/orders/${guid}/cancel`, { reason: 'Asked by the shopper' })
    const res = answerOf(ops.cancel, await cancel())
    expect(res.payment).toMatchObject({
      provider: 'stripe',
      paymentId: expect.stringMatching(/^pi_/),
      chargedCents: res.totalCents,
      refundedCents: res.totalCents,
      refund: { status: 'succeeded' },
    })
    const made = stripe.refunds.filter((r) => r.paymentIntent === res.payment.paymentId)
    expect(made).toEqual([
      {
        id: expect.stringMatching(/^re_/),
        paymentIntent: res.payment.paymentId,
        amount: res.totalCents,
      },
    ])
    const call = stripe.calls.find((c) => c.path === '/v1/refunds')
    expect(call?.idempotencyKey).toBe(`refund-${guid}`)
    expect(call?.form.get('amount')).toBe(String(res.totalCents))
    expect((await cancel()).status).toBe(200)
    expect(stripe.refunds.filter((r) => r.paymentIntent === res.payment.paymentId)).toHaveLength(1)
  })

  it('sends a refund again after a crash with the same key: Stripe refunds once', async () => {
    const guid = await paidOrder(daySlots(3, 50, 1))
    const res = answerOf(
      ops.cancel,
      await admin.api.post(`/ops/orders/${guid}/cancel`, { reason: 'Refused' }),
    )
    expect(res.payment.refund?.status).toBe('succeeded')
    // the refund was made, but the process died before it was marked done
    await server.deps.database.query(sql`
      update refunds set status = 'pending', completed_at = null,
        created_at = now() - interval '1 hour'
      where order_guid = ${guid}`)
    const before = stripe.calls.filter((c) => c.path === '/v1/refunds').length
    await server.deps.payment.retryRefunds()
    const sent = stripe.calls.filter((c) => c.path === '/v1/refunds')
    expect(sent.length).toBe(before + 1)
    expect(sent.at(-1)?.idempotencyKey).toBe(`refund-${guid}`)
    expect(stripe.refunds.filter((r) => r.paymentIntent === res.payment.paymentId)).toHaveLength(1)
    const after = answerOf(ops.order, await admin.api.get(`/ops/orders/${guid}`))
    expect(after.payment.refund?.status).toBe('succeeded')
  })

  it('keeps a refund Stripe refuses pending with its error, for the sweep to try again', async () => {
    const guid = await paidOrder(daySlots(3, 60, 1))
    // someone refunded it in Stripe's dashboard meanwhile: Stripe refuses a second refund
    const [row] = await server.deps.database.query(sql<{ paymentId: string }>`
      select payment_id as "paymentId" from orders where guid = ${guid}`)
    const dashboard = await fetch(`${stripe.url}/v1/refunds`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SECRET}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ payment_intent: row?.paymentId ?? '' }),
    })
    expect(dashboard.status).toBe(200)
    const res = answerOf(
      ops.cancel,
      await admin.api.post(`/ops/orders/${guid}/cancel`, { reason: 'Refused' }),
    )
    expect(res.orderState).toBe('Cancelled')
    expect(res.payment).toMatchObject({
      refundedCents: 0,
      refund: {
        status: 'pending',
        error: {
          code: 'refund_failed',
          params: { reason: expect.stringMatching(/already been refunded/) },
        },
      },
    })
  })
})
