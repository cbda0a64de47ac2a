import Stripe from 'stripe'
import { declineProblemCode } from '../../contract/problems.ts'
import type {
  ActionOutcome,
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

/**
 * What the Payment Element may save, and the charge accept: methods whose PaymentIntent settles
 * at once. `card` carries Apple Pay and Google Pay (a wallet saves a card PaymentMethod) and the
 * co-badged Cartes Bancaires choice (kept on the card as its preferred network, which Stripe
 * charges); `link` is Stripe's own wallet. A method that settles days later (SEPA Debit) would leave
 * an order neither charged nor failed, and one that redirects would leave the checkout: neither is
 * asked for. Stripe offers of these only what the Dashboard enables and the device supports.
 */
const SAVED_METHOD_TYPES = ['card', 'link'] as const

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
        allowed_payment_method_types: [...SAVED_METHOD_TYPES],
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
      const onSession = request.onSession === true
      const key = `order-${request.orderGuid}`
      try {
        // On session (the shopper is at the checkout), a charge the bank wants confirmed comes
        // back `requires_action`, for Stripe.js's handleNextAction (use_stripe_sdk); off session it
        // is declined with authentication_required.
        const intent = await stripe.paymentIntents.create(
          {
            amount: request.amountCents,
            currency: request.currency.toLowerCase(),
            customer: request.setup.customerId,
            ...(request.setup.paymentMethodId
              ? { payment_method: request.setup.paymentMethodId }
              : {}),
            // the saved method's own type, whichever of these the SetupIntent produced; no
            // network is named, so a co-badged card is charged on the network its holder chose
            allowed_payment_method_types: [...SAVED_METHOD_TYPES],
            ...(onSession ? { use_stripe_sdk: true } : { off_session: true }),
            confirm: true,
            description: request.description,
            metadata: { orderGuid: request.orderGuid },
          },
          { idempotencyKey: key },
        )
        return chargeAnswer(intent, onSession)
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const declined = error.decline_code ?? error.code ?? 'card_declined'
          const intent = error.payment_intent
          // A decline that asks for the cardholder: on session, the same PaymentIntent is
          // confirmed again so that the bank can ask them (its own key: a retry confirms once).
          if (onSession && declined === 'authentication_required' && intent) {
            const confirmed = await stripe.paymentIntents.confirm(
              intent.id,
              { use_stripe_sdk: true },
              { idempotencyKey: `${key}-authentication` },
            )
            return chargeAnswer(confirmed, true)
          }
          // Stripe's decline code names the reason; the shopper reads the catalogue's sentence
          return { ok: false, problem: { code: declineProblemCode(declined) }, paymentId: null }
        }
        throw error
      }
    },
    async actionOutcome(paymentId: string) {
      return outcomeOf(await stripe.paymentIntents.retrieve(paymentId))
    },
    async cancelAction(paymentId: string) {
      try {
        await stripe.paymentIntents.cancel(paymentId)
        return 'failed'
      } catch (error) {
        // Not cancellable: confirmed (or cancelled) meanwhile; its state says which
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error
        const outcome = outcomeOf(await stripe.paymentIntents.retrieve(paymentId))
        return outcome === 'succeeded' ? 'succeeded' : 'failed'
      }
    },
    // A Refund of the PaymentIntent, under the refund's own idempotency key: a retry (after a
    // crash, or a cancel sent twice) gets Stripe's first answer back instead of a second refund.
    async refund(request: RefundRequest) {
      const refund = await stripe.refunds.create(
        {
          payment_intent: request.paymentId,
          amount: request.amountCents,
          // the key tells an order's refunds apart in Stripe's events (webhooks.ts)
          metadata: { orderGuid: request.orderGuid, refundKey: request.idempotencyKey },
        },
        { idempotencyKey: request.idempotencyKey },
      )
      return { refundId: refund.id, status: refund.status ?? null }
    },
  }
}

function chargeAnswer(intent: Stripe.PaymentIntent, onSession: boolean): ChargeResult {
  if (intent.status === 'succeeded') return { ok: true, paymentId: intent.id }
  if (intent.status === 'requires_action') {
    const waiting = { ok: false as const, problem: { code: 'authentication_required' as const } }
    return onSession && intent.client_secret
      ? { ...waiting, paymentId: intent.id, action: { clientSecret: intent.client_secret } }
      : { ...waiting, paymentId: intent.id }
  }
  return { ok: false, problem: { code: 'card_declined' }, paymentId: intent.id }
}

/** A PaymentIntent that waited for the cardholder: confirmed, still waiting, or refused. */
function outcomeOf(intent: Stripe.PaymentIntent): ActionOutcome {
  if (intent.status === 'succeeded') return 'succeeded'
  if (
    intent.status === 'requires_action' ||
    intent.status === 'requires_confirmation' ||
    intent.status === 'processing'
  )
    return 'pending'
  return 'failed'
}
