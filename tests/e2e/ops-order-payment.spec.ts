import { expect, test } from '@playwright/test'
import type { OpsOrder } from '../../src/contract/ops'
import {
  type Checkout,
  client,
  daySlots,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  settledStatus,
  startTestServer,
  type TestServer,
} from '../api/helpers'
import { clientWith, newOperator, OPS_PASSWORD, sessionCookieOf } from '../api/ops-helpers'
import { type StripeStandIn, startStripeStandIn } from '../api/stripe-stand-in'

// The console's order page after Stripe's events, on a phone: an order cancelled whose refund the
// card's bank refused later, and a paid order the cardholder disputed. The shop runs in-process with
// the Stripe SDK against the stand-in of Stripe, which posts the signed events to the shop.

let stripe: StripeStandIn
let server: TestServer
let operator: { email: string }
let refused: OpsOrder
let disputed: OpsOrder

test.beforeAll(async () => {
  stripe = await startStripeStandIn('sk_test_shouts_e2e_payments')
  server = await startTestServer('pglite', { serveApp: true, env: stripe.env })
  stripe.deliverTo(`${server.url}/api/v1/payment/stripe/webhook`)
  const api = client(server.url)
  const made = await newOperator(server, 'admin')
  const admin = clientWith(server.url, { origin: server.url })
  await admin.post('/ops/set-password', { token: made.token, password: OPS_PASSWORD })
  const signIn = await admin.post('/ops/session', { email: made.email, password: OPS_PASSWORD })
  const ops = clientWith(server.url, {
    origin: server.url,
    cookie: sessionCookieOf(signIn.headers) ?? '',
  })
  operator = made
  const paid = async (slots: number[]) => {
    const setup = await api.post<Checkout>('/order/payment/setup-intent')
    stripe.confirmSetup(setup.body.clientSecret, 'pm_card_visa')
    const placed = await placeOrder(
      api,
      orderBody({ slots, content: await generateContent(api), checkout: setup.body }),
    )
    await settledStatus(api, LIVE, placed.body.guid)
    return (await ops.get<OpsOrder>(`/ops/orders/${placed.body.guid}`)).body
  }
  refused = await paid(daySlots(5, 10, 1))
  await ops.post(`/ops/orders/${refused.guid}/cancel`, { reason: 'Asked by the shopper' })
  const refund = stripe.refunds.find((r) => r.paymentIntent === refused.payment.paymentId)
  await stripe.failRefund(refund?.id ?? '', 'expired_or_canceled_card')
  disputed = await paid(daySlots(5, 20, 1))
  await stripe.dispute(disputed.payment.paymentId ?? '', 'product_not_received')
})
test.afterAll(async () => {
  await server?.stop()
  await stripe?.close()
})

test("an operator sees a refund the bank refused and a dispute on the orders' pages", async ({
  page,
}) => {
  await page.goto(`${server.url}/ops/orders?order=${refused.guid}`)
  await page.getByLabel('E-mail').fill(operator.email)
  await page.getByLabel('Password').fill(OPS_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  const payment = page.getByRole('region', { name: 'Payment' })
  await expect(payment).toContainText('refund failed')
  await expect(payment).toContainText('expired_or_canceled_card')
  await expect(payment).toContainText("refused by the card's bank")
  await expect(payment).toContainText('charged')

  await page.goto(`${server.url}/ops/orders?order=${disputed.guid}`)
  const disputes = page.getByRole('list', { name: 'Disputes' })
  await expect(disputes).toContainText('Disputed: needs a response')
  await expect(disputes).toContainText('product_not_received')
  await expect(disputes).toContainText("answer with evidence in Stripe's dashboard before")
})
