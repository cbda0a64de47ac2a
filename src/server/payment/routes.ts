import { order as orderApi, payment as paymentApi } from '../../contract/index.ts'
import { errorResponse, fail, problem } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import { mapErr, ok } from '../platform/result.ts'
import { paymentRefusal } from './refusals.ts'
import type { PaymentService } from './service.ts'
import type { StripeWebhooks } from './webhooks.ts'

// api-v1 "Order", its payment part over HTTP: the setup intent (spec §7 call 11) and the local
// provider's test-card form; api-v1 "Payments": Stripe's events.

/** Stripe's events are small (a few KB); a bigger body is no event of Stripe's. */
const WEBHOOK_MAX_BYTES = 512 * 1024

export function paymentRoutes(
  router: ApiRouter,
  payment: PaymentService,
  limits: ClientLimits,
  webhooks: StripeWebhooks,
) {
  router.handle(
    orderApi.setupIntent,
    async ({ c }) => {
      const length = Number(c.req.header('content-length') ?? '0')
      if (length > 1024) {
        return ok(errorResponse(c, 413, problem('body_not_expected')))
      }
      const setup = await payment.createSetup()
      return mapErr(setup, paymentRefusal)
    },
    limits.writes('setup-intents'),
  )

  router.handle(
    orderApi.localConfirm,
    async ({ body }) => {
      const confirmed = await payment.confirmLocalCard(body)
      return mapErr(confirmed, paymentRefusal)
    },
    limits.writes('card-confirms'),
  )

  router.handle(
    orderApi.localAuthenticate,
    async ({ body }) => {
      const answered = await payment.authenticateLocal(body)
      return mapErr(answered, paymentRefusal)
    },
    limits.writes('card-confirms'),
  )

  // Called by Stripe, not a browser: no session and no Origin to check; the signature is the
  // check. Rate-limited per address like any write (Stripe retries a 429 later). The body is read
  // raw: the signature covers its exact bytes.
  router.handle(
    paymentApi.stripeWebhook,
    async ({ c }) => {
      if (!webhooks.configured) fail(problem('webhooks_not_configured'))
      const length = Number(c.req.header('content-length') ?? '0')
      if (length > WEBHOOK_MAX_BYTES)
        fail(problem('body_too_large', { kb: WEBHOOK_MAX_BYTES / 1024 }))
      const payload = await c.req.text()
      const received = await webhooks.receive(payload, c.req.header('stripe-signature'))
      if (!received.ok) return received
      c.header('Cache-Control', 'no-store')
      return ok({ received: true as const, handled: received.value.handled })
    },
    limits.writes('stripe-webhooks'),
  )
}
