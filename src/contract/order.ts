import * as v from 'valibot'
import type { RequiredAgreement } from '../domain/order-rules'
import { ORDER_STATES } from '../domain/order-state'
import { DEFAULT_PLAYS_PER_SLOT, DEFAULT_SECONDS_PER_SHOUT } from '../domain/slot-package'
import {
  EmailSchema,
  FirstNameSchema,
  LastNameSchema,
  PhoneSchema,
  wellFormed,
} from '../domain/validation'
import { PromoCodeSchema } from './catalogue'
import {
  ContentTypeSchema,
  CurrencySchema,
  EpochMsSchema,
  issue,
  LocaleSchema,
  nonNegativeInt,
  positiveInt,
  problemEntries,
  TimeZoneIdSchema,
  text,
  unique,
} from './common'
import { type ContentGenerationRequest, ContentGenerationRequestSchema } from './content'
import { endpoint } from './endpoint'
import { OrderPlaySchema } from './player'

// api-v1 "Order": defaults, saving a card, placing an order, its status and its summary.

export const OrderDefaultsQuerySchema = v.object({ deviceId: text(), eventSlug: text() })
export type OrderDefaultsQuery = v.InferOutput<typeof OrderDefaultsQuerySchema>

export const OrderDefaultsSchema = v.object({
  marketingAcknowledgement: v.object({ willReceive: v.boolean() }),
  isShareInfoWithSponsorVisible: v.boolean(),
})
export type OrderDefaults = v.InferOutput<typeof OrderDefaultsSchema>

export const PAYMENT_PROVIDERS = ['stripe', 'local'] as const
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number]
export const SetupIntentResponseSchema = v.object({
  provider: v.picklist(PAYMENT_PROVIDERS),
  publishableKey: v.nullable(v.string()),
  clientSecret: text(500),
  customerId: text(),
  checkoutSecretKey: text(500),
})
export type SetupIntentResponse = v.InferOutput<typeof SetupIntentResponseSchema>

export const LocalConfirmRequestSchema = v.strictObject({
  clientSecret: text(500),
  cardNumber: v.pipe(
    v.string(issue('incorrect_number')),
    v.transform((n) => n.replace(/[\s-]/g, '')),
    v.regex(/^\d{12,19}$/, issue('incorrect_number')),
  ),
  expMonth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)),
  expYear: v.pipe(v.number(), v.integer(), v.minValue(2000), v.maxValue(2100)),
  cvc: v.pipe(v.string(), v.regex(/^\d{3,4}$/, issue('cvc_invalid'))),
})
export type LocalConfirmRequest = v.InferOutput<typeof LocalConfirmRequestSchema>

export const LocalConfirmResponseSchema = v.object({
  status: v.literal('succeeded'),
  card: v.object({ brand: text(), last4: v.pipe(v.string(), v.regex(/^\d{4}$/)) }),
})
export type LocalConfirmResponse = v.InferOutput<typeof LocalConfirmResponseSchema>

// The local provider's test authentication screen (as Stripe's test page): the shopper completes
// or fails the bank's check of a charge; the order then settles (order.authenticated).
export const LOCAL_AUTHENTICATION_OUTCOMES = ['complete', 'fail'] as const
export const LocalAuthenticationRequestSchema = v.strictObject({
  clientSecret: text(500),
  outcome: v.picklist(LOCAL_AUTHENTICATION_OUTCOMES),
})
export type LocalAuthenticationRequest = v.InferOutput<typeof LocalAuthenticationRequestSchema>
export const LocalAuthenticationResponseSchema = v.object({
  status: v.picklist(['succeeded', 'failed']),
})
export type LocalAuthenticationResponse = v.InferOutput<typeof LocalAuthenticationResponseSchema>

// What the app needs while an order waits for the cardholder (AwaitingAuthentication): Stripe.js's
// handleNextAction takes the PaymentIntent's client secret with the publishable key; the local
// provider's test screen takes the same secret. `untilEpochMs`: when the order fails unconfirmed.
export const PaymentActionSchema = v.object({
  provider: v.picklist(PAYMENT_PROVIDERS),
  publishableKey: v.nullable(v.string()),
  clientSecret: text(500),
  amountCents: nonNegativeInt(),
  currency: CurrencySchema,
  untilEpochMs: EpochMsSchema,
})
export type PaymentAction = v.InferOutput<typeof PaymentActionSchema>

/* @__NO_SIDE_EFFECTS__ */
const required = (agreement: RequiredAgreement) =>
  v.pipe(v.boolean(), v.value(true, issue('agreement_required', { agreement })))

export const AgreementsSchema = v.strictObject({
  safetyWarning: required('safetyWarning'),
  terms: required('terms'),
  noChanges: required('noChanges'),
  privacyPolicy: required('privacyPolicy'),
  userGeneratedContentPolicy: v.boolean(),
  shareInfoWithSponsor: v.boolean(),
  marketingEmails: v.boolean(),
  sms: v.boolean(),
})
export type Agreements = v.InferOutput<typeof AgreementsSchema>

export const MAX_SLOTS_PER_ENTRY = 5000

export const OrderEntrySchema = v.strictObject({
  deviceId: text(),
  slots: v.pipe(
    v.array(nonNegativeInt()),
    v.minLength(1, issue('no_slots_selected')),
    v.maxLength(MAX_SLOTS_PER_ENTRY),
    v.check(unique, issue('slot_listed_twice')),
  ),
})
export type OrderEntry = v.InferOutput<typeof OrderEntrySchema>

export const ORDER_TYPES = ['Standard', 'Test'] as const
export type OrderType = (typeof ORDER_TYPES)[number]

export const CustomerSchema = v.strictObject({
  firstName: FirstNameSchema,
  lastName: LastNameSchema,
  phoneNumber: PhoneSchema,
  marketingAcknowledgement: v.strictObject({ willReceive: v.boolean() }),
})

// api-v1 OrderRequest: the spec's order-creation payload (§3).
export const OrderRequestSchema = v.strictObject({
  entries: v.pipe(
    v.array(OrderEntrySchema),
    v.minLength(1, issue('no_slots_selected')),
    v.check((entries) => unique(entries.map((e) => e.deviceId)), issue('billboard_listed_twice')),
  ),
  eventSlug: text(),
  emailAddress: EmailSchema,
  orderType: v.picklist(ORDER_TYPES),
  customer: CustomerSchema,
  // spec §8 / api-v1: a missing key is the "missing billboard content" error
  executionContentKey: v.pipe(
    v.nullish(v.pipe(v.string(issue('missing_billboard_content')), wellFormed()), ''),
    v.nonEmpty(issue('missing_billboard_content')),
  ),
  checkout: v.strictObject({
    stripeData: v.strictObject({
      customerId: text(),
      promoCode: v.nullable(PromoCodeSchema),
      checkoutSecretKey: text(500),
    }),
    state: v.literal('New'),
  }),
  // the content-generation request the content was made from (spec §5: "content request metadata")
  contentSource: v.pipe(
    v.nullish(ContentGenerationRequestSchema, null),
    v.check((source) => source != null, issue('missing_content_metadata')),
    // the check above has ruled out null and undefined
    v.transform((source) => source as ContentGenerationRequest),
  ),
  locale: LocaleSchema,
  agreements: AgreementsSchema,
})
export type OrderRequest = v.InferOutput<typeof OrderRequestSchema>
export type OrderRequestInput = v.InferInput<typeof OrderRequestSchema>

// The order's states are the domain's (src/domain/order-state.ts). a Cancelled order has
// the reason in `errors`; its slots are free again and its payment refunded.
export { ORDER_STATES }
export const OrderStateSchema = v.picklist(ORDER_STATES)
export type OrderState = v.InferOutput<typeof OrderStateSchema>

export const OrderCreatedSchema = v.object({ guid: text(), orderState: v.literal('Processing') })
export type OrderCreated = v.InferOutput<typeof OrderCreatedSchema>

// `errors`: why a Failed order failed, or a Cancelled order's reason, in English, with their codes
// and params beside (common.ts problemEntries).
export const OrderStatusSchema = v.object({
  orderState: OrderStateSchema,
  ...problemEntries,
  confirmationDateEpochMs: v.nullable(EpochMsSchema),
  // only while AwaitingAuthentication
  paymentAction: v.optional(v.nullable(PaymentActionSchema)),
})
export type OrderStatus = v.InferOutput<typeof OrderStatusSchema>

// api-v1: "the order as the confirmation page shows it". Labels are made by the app in the
// shopper's locale from slot numbers (slots.ts), so the server sends instants, not text.
export const OrderSummarySchema = v.object({
  guid: text(),
  confirmationCode: text(),
  eventSlug: text(),
  eventName: text(),
  orderState: OrderStateSchema,
  ...problemEntries,
  confirmationDateEpochMs: v.nullable(EpochMsSchema),
  device: v.object({
    deviceId: text(),
    location: text(500),
    city: text(),
    stateAbbr: v.nullable(text(10)),
    country: text(),
    timeZoneId: TimeZoneIdSchema,
  }),
  slots: v.array(
    v.object({
      slotNumber: nonNegativeInt(),
      startEpochMs: EpochMsSchema,
      endEpochMs: EpochMsSchema,
    }),
  ),
  contentUrl: v.nullable(v.string()),
  contentType: v.nullable(ContentTypeSchema),
  // (E-mail) a picture of the content for the mails: the photo itself, or a video's first
  // frame (a JPEG stored beside the clip). Optional for summaries kept from before it existed.
  contentImageUrl: v.optional(v.nullable(v.string()), null),
  currency: CurrencySchema,
  subtotalCents: nonNegativeInt(),
  discountCents: nonNegativeInt(),
  totalCents: nonNegativeInt(),
  promoCode: v.nullable(v.string()),
  locale: LocaleSchema,
  // The slot package and the proof of play (one entry per play the billboard reported)
  playsPerSlot: v.optional(positiveInt(), DEFAULT_PLAYS_PER_SLOT),
  secondsPerShout: v.optional(positiveInt(), DEFAULT_SECONDS_PER_SHOUT),
  plays: v.optional(v.array(OrderPlaySchema), []),
  // The make-good of the slots decided so far (each MAKE_GOOD_GRACE_HOURS after it ends): the plays
  // proven of theirs, each slot's plays without proof, and the share of the payment refunded for
  // them (refundStatus: their refunds' state together; none when nothing was owed); decidedAtEpochMs:
  // the latest decision. Null before the first slot is decided.
  makeGood: v.optional(
    v.nullable(
      v.object({
        playsDue: nonNegativeInt(),
        playsProven: nonNegativeInt(),
        missed: v.array(
          v.object({
            slotNumber: nonNegativeInt(),
            missedPlays: nonNegativeInt(),
            refundCents: nonNegativeInt(),
          }),
        ),
        refundCents: nonNegativeInt(),
        refundStatus: v.picklist(['none', 'pending', 'succeeded', 'failed']),
        decidedAtEpochMs: EpochMsSchema,
      }),
    ),
    null,
  ),
})
export type OrderSummary = v.InferOutput<typeof OrderSummarySchema>
export type OrderMakeGood = NonNullable<OrderSummary['makeGood']>

export const IdempotencyKeySchema = v.pipe(
  v.string(),
  v.regex(/^[\x21-\x7e]{1,255}$/, issue('idempotency_key_invalid')),
)

// ---------- endpoints ----------

export const order = {
  defaults: endpoint({
    name: 'getOrderDefaults',
    method: 'GET',
    path: '/order/defaults',
    summary: 'Order defaults (spec §7 call 10)',
    query: OrderDefaultsQuerySchema,
    response: OrderDefaultsSchema,
    errors: ['event_not_found', 'device_not_found'],
  }),
  setupIntent: endpoint({
    name: 'createSetupIntent',
    method: 'POST',
    path: '/order/payment/setup-intent',
    summary: 'Start saving a card (spec §7 call 11); no body',
    response: SetupIntentResponseSchema,
    errors: ['body_not_expected', 'payment_unavailable', 'too_many_requests'],
  }),
  localConfirm: endpoint({
    name: 'confirmLocalCard',
    method: 'POST',
    path: '/order/payment/local/confirm',
    summary: "Save a card with the local provider (Stripe's test cards)",
    body: LocalConfirmRequestSchema,
    response: LocalConfirmResponseSchema,
    errors: [
      'card_declined',
      'insufficient_funds',
      'expired_card',
      'incorrect_cvc',
      'incorrect_number',
      'processing_error',
      'local_cards_disabled',
      'payment_form_expired',
      'payment_already_saved',
      'too_many_requests',
    ],
  }),
  place: endpoint({
    name: 'placeOrder',
    method: 'POST',
    path: '/order/orders',
    summary:
      'Place an order (spec §7 call 12); the same Idempotency-Key and body replay the answer',
    headers: [
      {
        name: 'Idempotency-Key',
        required: true,
        description: '1 to 255 visible characters; the same key and body return the first answer',
      },
    ],
    body: OrderRequestSchema,
    response: OrderCreatedSchema,
    status: 201,
    errors: [
      'idempotency_key_missing',
      'idempotency_key_invalid',
      'idempotency_key_reused',
      'request_in_progress',
      'event_not_found',
      'device_not_found',
      'sold_out',
      'not_available_for_event',
      'phone_invalid',
      'phone_invalid_for_country',
      'slot_not_in_event',
      'slot_past_cutoff',
      'slots_taken',
      'missing_billboard_content',
      'missing_content_metadata',
      'checkout_mismatch',
      'setup_not_confirmed',
      'payment_already_saved',
      'body_too_large',
      ['promo_invalid', 422],
      'promo_wrong_event',
      'promo_once_per_customer',
      'promo_too_many_lookups',
      'payment_unavailable',
      'too_many_requests',
    ],
  }),
  localAuthenticate: endpoint({
    name: 'authenticateLocalCharge',
    method: 'POST',
    path: '/order/payment/local/authentication',
    summary: "The local provider's test authentication: complete or fail the bank's check",
    body: LocalAuthenticationRequestSchema,
    response: LocalAuthenticationResponseSchema,
    errors: ['local_cards_disabled', 'payment_form_expired', 'too_many_requests'],
  }),
  authenticated: endpoint({
    name: 'settleOrderAuthentication',
    method: 'POST',
    path: '/order/events/{eventSlug}/orders/{guid}/authentication',
    summary:
      'After the cardholder answered their bank: the order settles by the charge (no body); its status',
    response: OrderStatusSchema,
    errors: ['order_not_found', 'too_many_requests'],
  }),
  status: endpoint({
    name: 'getOrderStatus',
    method: 'GET',
    path: '/order/events/{eventSlug}/orders/{guid}/status',
    summary: 'Order status (spec §7 call 13)',
    response: OrderStatusSchema,
    errors: ['order_not_found'],
  }),
  summary: endpoint({
    name: 'getOrderSummary',
    method: 'GET',
    path: '/order/events/{eventSlug}/orders/{guid}',
    summary: 'The order as the confirmation page shows it',
    response: OrderSummarySchema,
    errors: ['order_not_found'],
  }),
} as const
