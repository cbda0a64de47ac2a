import * as v from 'valibot'
import { endpoint } from './endpoint'

// api-v1 "Payments": what the payment provider calls, not a browser. Stripe posts its events here,
// signed with the endpoint's secret (the Stripe-Signature header); the body is read raw, as signed.

export const WebhookReceivedSchema = v.object({
  received: v.literal(true),
  /** false when the event was handled before (Stripe delivered it again): nothing changed. */
  handled: v.boolean(),
})
export type WebhookReceived = v.InferOutput<typeof WebhookReceivedSchema>

export const payment = {
  stripeWebhook: endpoint({
    name: 'stripeWebhook',
    method: 'POST',
    path: '/payment/stripe/webhook',
    summary:
      "Stripe's events (payments settled late, refunds, disputes), signed with STRIPE_WEBHOOK_SECRET",
    headers: [
      {
        name: 'Stripe-Signature',
        required: true,
        description: "Stripe's signature of the raw body (t=…,v1=…)",
      },
    ],
    response: WebhookReceivedSchema,
    errors: [
      'webhook_signature_invalid',
      'webhooks_not_configured',
      'body_too_large',
      'too_many_requests',
    ],
  }),
} as const
