import Stripe from 'stripe'
import { declineProblemCode } from '../../contract/problems.ts'
import type {
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  PaymentSetupRecord,
  RefundRequest,
} from './provider.ts'

/**
 * Stripe: a Customer and a SetupIntent at setup (the card form in the browser confirms it with
 * Stripe.js), then an off-session PaymentIntent for the server's total when the order is processed.
 * The order guid is the idempotency key, so a charge repeated after a crash is made once.
 */
export function createStripeProvider(
  secretKey: string,
  publishableKey: string | null,
  options: { apiUrl?: string | undefined } = {},
): PaymentProvider {
  const api = options.apiUrl ? new URL(options.apiUrl) : null
  const stripe = new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'http:' ? 80 : 443),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  })
  return {
    name: 'stripe',
    publishableKey,
    async createSetup() {
      const customer = await stripe.customers.create({ metadata: { shop: 'shouts' } })
      const intent = await stripe.setupIntents.create({
        customer: customer.id,
        usage: 'off_session',
        allowed_payment_method_types: ['card'],
      })
      if (!intent.client_secret)
        throw new Error('Stripe returned a SetupIntent without client_secret')
      return {
        customerId: customer.id,
        clientSecret: intent.client_secret,
        setupIntentId: intent.id,
      }
    },
    async checkSetup(setup: PaymentSetupRecord) {
      const intent = await stripe.setupIntents.retrieve(setup.setupIntentId)
      if (intent.status !== 'succeeded') return { confirmed: false }
      const method = intent.payment_method
      return {
        confirmed: true,
        paymentMethodId: typeof method === 'string' ? method : (method?.id ?? null),
      }
    },
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: request.amountCents,
            currency: request.currency.toLowerCase(),
            customer: request.setup.customerId,
            ...(request.setup.paymentMethodId
              ? { payment_method: request.setup.paymentMethodId }
              : {}),
            off_session: true,
            confirm: true,
            description: request.description,
            metadata: { orderGuid: request.orderGuid },
          },
          { idempotencyKey: `order-${request.orderGuid}` },
        )
        return intent.status === 'succeeded'
          ? { ok: true, paymentId: intent.id }
          : { ok: false, problem: { code: 'card_declined' }, paymentId: intent.id }
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          // Stripe's decline code names the reason; the shopper reads the catalogue's sentence
          const code = declineProblemCode(error.decline_code ?? error.code ?? 'card_declined')
          return { ok: false, problem: { code }, paymentId: null }
        }
        throw error
      }
    },
    // A Refund of the PaymentIntent, under the refund's own idempotency key: a retry (after a
    // crash, or a cancel sent twice) gets Stripe's first answer back instead of a second refund.
    async refund(request: RefundRequest) {
      const refund = await stripe.refunds.create(
        {
          payment_intent: request.paymentId,
          amount: request.amountCents,
          metadata: { orderGuid: request.orderGuid },
        },
        { idempotencyKey: request.idempotencyKey },
      )
      return { refundId: refund.id, status: refund.status ?? null }
    },
  }
}
