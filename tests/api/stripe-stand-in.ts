// A stand-in for Stripe's HTTP API on loopback, for the tests of the Stripe provider: the real Stripe
// SDK (payment/stripe.ts) talks to it exactly as it talks to api.stripe.com (form-encoded POSTs, a
// Bearer secret key, Idempotency-Key headers, Stripe's error bodies). It keeps what it was sent, so a
// test can check the charge the server made. Only what the shop calls is answered. It also plays
// Stripe's side of the webhooks: events about its objects (a refund that fails later, a dispute, a
// PaymentIntent settled) posted to the shop's endpoint, signed with the endpoint's secret as Stripe
// signs them (the SDK's test-header helper makes the same Stripe-Signature header).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'

export type StripeCall = {
  method: string
  path: string
  form: URLSearchParams
  idempotencyKey: string | null
  authorization: string | null
}

type SetupIntent = {
  id: string
  object: 'setup_intent'
  client_secret: string
  customer: string
  status: 'requires_payment_method' | 'succeeded'
  payment_method: string | null
  usage: string
  /** what the Payment Element may offer: the allowed types the shop asked for, or the Dashboard's */
  payment_method_types: string[]
}

/**
 * A saved PaymentMethod, as Stripe keeps it. A wallet (Apple Pay, Google Pay) saves a `card` whose
 * `wallet` names it; a co-badged card lists its networks and the one its holder chose in the Payment
 * Element (`preferred`), which Stripe charges unless the PaymentIntent names another.
 */
export type SavedMethod = {
  type: 'card' | 'link' | 'sepa_debit'
  wallet?: 'apple_pay' | 'google_pay'
  networks?: { available: string[]; preferred: string | null }
}

// The types the stand-in's Dashboard has on: what a SetupIntent or PaymentIntent that names none
// gets (dynamic payment methods), and what `allowed_payment_method_types` is filtered down to.
const DASHBOARD_TYPES = ['card', 'link', 'sepa_debit']

/**
 * Stripe's rules for the payment method parameters of a SetupIntent or PaymentIntent (API version
 * 2026-09-30 and later): `payment_method_types` is gone, and `allowed_payment_method_types` excludes the
 * others. The types offered, or the refusal.
 */
/** An array parameter as the SDK form-encodes it (`name[0]=a&name[1]=b`). */
export function listOf(form: URLSearchParams, name: string): string[] {
  return [...form].filter(([key]) => key.startsWith(`${name}[`)).map(([, value]) => value)
}

function methodTypesOf(
  form: URLSearchParams,
): { types: string[] } | { refused: { status: number; body: unknown } } {
  const keys = [...new Set([...form.keys()].map((key) => key.replace(/\[.*$/, '')))]
  const refuse = (code: string, message: string) => ({
    refused: { status: 400, body: { error: { type: 'invalid_request_error', code, message } } },
  })
  if (keys.includes('payment_method_types')) {
    return refuse(
      'payment_method_types_no_longer_supported',
      'payment_method_types is no longer supported: use allowed_payment_method_types or dynamic payment methods.',
    )
  }
  const allowed = listOf(form, 'allowed_payment_method_types')
  const others = ['excluded_payment_method_types', 'automatic_payment_methods']
  if (keys.includes('allowed_payment_method_types')) {
    const clash = others.find((other) => keys.includes(other))
    if (clash) {
      return refuse(
        'parameters_exclusive',
        `You cannot pass both allowed_payment_method_types and ${clash}.`,
      )
    }
    return { types: DASHBOARD_TYPES.filter((type) => allowed.includes(type)) }
  }
  const excluded = listOf(form, 'excluded_payment_method_types')
  return { types: DASHBOARD_TYPES.filter((type) => !excluded.includes(type)) }
}

/** `metadata[key]=value` fields of a form-encoded call, as the object's metadata. */
function metadataOf(form: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {}
  for (const [key, value] of form) {
    const name = /^metadata\[(.+)\]$/.exec(key)?.[1]
    if (name) metadata[name] = value
  }
  return metadata
}

// Stripe's documented test payment methods that the stand-in declines when charged.
const DECLINED = new Set(['pm_card_chargeDeclined', 'pm_card_chargeDeclinedInsufficientFunds'])
// ... and those whose bank asks the cardholder (3-D Secure) on every charge: on session the
// PaymentIntent comes back `requires_action` (Stripe.js's handleNextAction), off session it is
// declined with authentication_required.
const AUTHENTICATING = new Set(['pm_card_authenticationRequired', 'pm_card_threeDSecure2Required'])

type PaymentIntent = {
  id: string
  object: 'payment_intent'
  amount: number
  currency: string
  customer: string | null
  payment_method: string
  client_secret: string
  status: 'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled'
  next_action: { type: 'use_stripe_sdk'; use_stripe_sdk: { type: string } } | null
  last_payment_error: { code: string; type: string; message: string } | null
  latest_charge: string | null
  metadata: Record<string, string>
  payment_method_types: string[]
}

/** An event as Stripe posts it to a webhook endpoint. */
export type StripeEvent = {
  id: string
  object: 'event'
  api_version: string
  created: number
  livemode: false
  pending_webhooks: number
  type: string
  data: { object: Record<string, unknown> }
}

/** One delivery of an event: what was posted (to post it again) and the shop's answer. */
export type Delivery = {
  event: StripeEvent
  payload: string
  signature: string
  status: number
  body: unknown
}

export type StripeStandIn = {
  url: string
  /** The server's settings that point it at this stand-in (the publishable key pairs with the secret). */
  env: {
    STRIPE_SECRET_KEY: string
    STRIPE_PUBLISHABLE_KEY: string
    STRIPE_API_URL: string
    STRIPE_WEBHOOK_SECRET: string
  }
  /** Where events are posted: the shop's webhook endpoint (its address is known once it started). */
  deliverTo(url: string): void
  /** Posts an event about an object, signed with the endpoint's secret (or `secret`, a forgery). */
  send(
    type: string,
    object: Record<string, unknown>,
    options?: { secret?: string },
  ): Promise<Delivery>
  /** Posts a delivery again, byte for byte: Stripe retries, and may deliver an event twice. */
  redeliver(delivery: Delivery): Promise<Delivery>
  /** The card issuer refuses a refund after Stripe accepted it: refund.updated, then refund.failed. */
  failRefund(refundId: string, failureReason: string): Promise<Delivery[]>
  /** The cardholder disputes a PaymentIntent's charge: charge.dispute.created. */
  dispute(paymentIntent: string, reason: string): Promise<Delivery>
  /** The bank decides: charge.dispute.closed with `won` or `lost`. */
  closeDispute(disputeId: string, status: 'won' | 'lost'): Promise<Delivery>
  calls: StripeCall[]
  /** The PaymentIntents made (a replayed Idempotency-Key makes none): one per card charge. */
  paymentIntents: string[]
  /** The Refunds made (a replayed Idempotency-Key makes none), by id. */
  refunds: { id: string; paymentIntent: string; amount: number }[]
  /**
   * While on, a PaymentIntent is made (and kept for its Idempotency-Key) but its answer is held back,
   * as when the caller dies before it hears Stripe's reply. Turning it off drops the held
   * answers.
   */
  holdCharges(on: boolean, held?: 'drop' | 'keep'): void
  /** Sends the answers held back (kept when holding was turned off with 'keep'). */
  answerHeld(): void
  /**
   * What Stripe.js does in the browser when the shopper's card is saved: a card unless `method` says
   * otherwise (a wallet, Link, a co-badged card and the network chosen). Refused, as the Payment
   * Element would not offer it, when the SetupIntent does not allow the method's type.
   */
  confirmSetup(clientSecret: string, paymentMethod: string, method?: SavedMethod): void
  /** The card network a PaymentIntent was charged on (null: not charged, or not a card). */
  chargedNetwork(paymentIntent: string): string | null
  /**
   * What Stripe.js's handleNextAction does in the browser when the cardholder completes (or fails)
   * the bank's check of a `requires_action` PaymentIntent.
   */
  authenticate(clientSecret: string, outcome: 'complete' | 'fail'): void
  /** A PaymentIntent as Stripe keeps it now. */
  paymentIntent(id: string): PaymentIntent | undefined
  close(): Promise<void>
}

export async function startStripeStandIn(
  secretKey: string,
  webhookSecret = 'whsec_shouts_stand_in',
): Promise<StripeStandIn> {
  const calls: StripeCall[] = []
  let webhookUrl: string | null = null
  const refundObjects = new Map<string, Record<string, unknown>>()
  const disputes = new Map<string, Record<string, unknown>>()
  const chargeOf = new Map<string, string>()
  const savedMethods = new Map<string, SavedMethod>()
  const methodOf = (paymentMethod: string): SavedMethod =>
    savedMethods.get(paymentMethod) ?? { type: 'card' }
  const networks = new Map<string, string>()
  const setupIntents = new Map<string, SetupIntent>()
  const replies = new Map<string, { status: number; body: unknown }>()
  const paymentIntents: string[] = []
  const intents = new Map<string, PaymentIntent>()
  // amount and currency charged, and how much was refunded, per PaymentIntent
  const charged = new Map<string, { amount: number; currency: string; refunded: number }>()
  const refunds: StripeStandIn['refunds'] = []
  let holding = false
  const held: { res: http.ServerResponse; reply: { status: number; body: unknown } }[] = []
  let counter = 0
  const id = (prefix: string) => `${prefix}_standin${++counter}`

  const succeed = (intent: PaymentIntent) => {
    chargeOf.set(intent.id, id('ch'))
    intent.latest_charge = chargeOf.get(intent.id) ?? null
    intent.status = 'succeeded'
    intent.next_action = null
    charged.set(intent.id, { amount: intent.amount, currency: intent.currency, refunded: 0 })
  }
  const askCardholder = (intent: PaymentIntent) => {
    intent.status = 'requires_action'
    intent.next_action = {
      type: 'use_stripe_sdk',
      use_stripe_sdk: { type: 'three_d_secure_redirect' },
    }
  }
  const unexpectedState = (intent: PaymentIntent) => ({
    status: 400,
    body: {
      error: {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `This PaymentIntent's status is ${intent.status}.`,
        payment_intent: intent,
      },
    },
  })

  const answer = (call: StripeCall): { status: number; body: unknown } => {
    if (call.authorization !== `Bearer ${secretKey}`) {
      return {
        status: 401,
        body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
      }
    }
    if (call.method === 'POST' && call.path === '/v1/customers') {
      return { status: 200, body: { id: id('cus'), object: 'customer', metadata: {} } }
    }
    if (call.method === 'POST' && call.path === '/v1/setup_intents') {
      const methods = methodTypesOf(call.form)
      if ('refused' in methods) return methods.refused
      const intentId = id('seti')
      const intent: SetupIntent = {
        id: intentId,
        object: 'setup_intent',
        client_secret: `${intentId}_secret_${counter}`,
        customer: call.form.get('customer') ?? '',
        status: 'requires_payment_method',
        payment_method: null,
        usage: call.form.get('usage') ?? 'off_session',
        payment_method_types: methods.types,
      }
      setupIntents.set(intentId, intent)
      return { status: 200, body: intent }
    }
    const setup = /^\/v1\/setup_intents\/([\w-]+)$/.exec(call.path)
    if (call.method === 'GET' && setup) {
      const intent = setupIntents.get(setup[1] as string)
      return intent
        ? { status: 200, body: intent }
        : {
            status: 404,
            body: { error: { type: 'invalid_request_error', message: 'No such setupintent' } },
          }
    }
    if (call.method === 'POST' && call.path === '/v1/payment_intents') {
      const method = call.form.get('payment_method') ?? ''
      const methods = methodTypesOf(call.form)
      if ('refused' in methods) return methods.refused
      const saved = methodOf(method)
      if (!methods.types.includes(saved.type)) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_incompatible_payment_method',
              message: `The PaymentMethod ${method} (${saved.type}) is not allowed by this PaymentIntent.`,
            },
          },
        }
      }
      // the network named by the PaymentIntent, else the one the cardholder chose, else the card's own
      const network =
        saved.type !== 'card'
          ? null
          : (call.form.get('payment_method_options[card][network]') ??
            saved.networks?.preferred ??
            saved.networks?.available[0] ??
            'visa')
      if (DECLINED.has(method)) {
        return {
          status: 402,
          body: {
            error: {
              type: 'card_error',
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
            },
          },
        }
      }
      const intentId = id('pi')
      paymentIntents.push(intentId)
      const intent: PaymentIntent = {
        id: intentId,
        object: 'payment_intent',
        amount: Number(call.form.get('amount')),
        currency: call.form.get('currency') ?? 'usd',
        customer: call.form.get('customer'),
        payment_method: method,
        client_secret: `${intentId}_secret_${counter}`,
        status: 'succeeded',
        next_action: null,
        last_payment_error: null,
        latest_charge: null,
        metadata: metadataOf(call.form),
        payment_method_types: methods.types,
      }
      intents.set(intentId, intent)
      if (network) networks.set(intentId, network)
      if (AUTHENTICATING.has(method)) {
        if (call.form.get('off_session') === 'true') {
          intent.status = 'requires_payment_method'
          return {
            status: 402,
            body: {
              error: {
                type: 'card_error',
                code: 'authentication_required',
                decline_code: 'authentication_required',
                message: 'Your card was declined. This transaction requires authentication.',
                payment_intent: intent,
              },
            },
          }
        }
        askCardholder(intent)
        return { status: 200, body: intent }
      }
      succeed(intent)
      return { status: 200, body: intent }
    }
    const intentCall = /^\/v1\/payment_intents\/([\w-]+)(\/confirm|\/cancel)?$/.exec(call.path)
    if (intentCall) {
      const intent = intents.get(intentCall[1] as string)
      if (!intent) {
        return {
          status: 404,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such payment_intent: '${intentCall[1]}'`,
            },
          },
        }
      }
      if (call.method === 'GET' && !intentCall[2]) return { status: 200, body: intent }
      if (call.method === 'POST' && intentCall[2] === '/confirm') {
        if (intent.status !== 'requires_payment_method') return unexpectedState(intent)
        if (AUTHENTICATING.has(intent.payment_method)) askCardholder(intent)
        else succeed(intent)
        return { status: 200, body: intent }
      }
      if (call.method === 'POST' && intentCall[2] === '/cancel') {
        if (intent.status === 'succeeded' || intent.status === 'canceled')
          return unexpectedState(intent)
        intent.status = 'canceled'
        intent.next_action = null
        return { status: 200, body: intent }
      }
    }
    // docs.stripe.com/api/refunds/create: a refund of a PaymentIntent, its whole amount unless told;
    // more than what is left is refused as Stripe refuses it.
    if (call.method === 'POST' && call.path === '/v1/refunds') {
      const intentId = call.form.get('payment_intent') ?? ''
      const charge = charged.get(intentId)
      if (!charge) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              param: 'payment_intent',
              message: `No such payment_intent: '${intentId}'`,
            },
          },
        }
      }
      const left = charge.amount - charge.refunded
      const amount = call.form.has('amount') ? Number(call.form.get('amount')) : left
      if (left <= 0) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: `Charge for ${intentId} has already been refunded.`,
            },
          },
        }
      }
      if (!(amount > 0) || amount > left) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'amount_too_large',
              param: 'amount',
              message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
            },
          },
        }
      }
      charge.refunded += amount
      const refundId = id('re')
      refunds.push({ id: refundId, paymentIntent: intentId, amount })
      const refund = {
        id: refundId,
        object: 'refund',
        amount,
        charge: chargeOf.get(intentId) ?? null,
        currency: charge.currency,
        payment_intent: intentId,
        status: 'succeeded',
        failure_reason: null,
        metadata: metadataOf(call.form),
      }
      refundObjects.set(refundId, refund)
      return { status: 200, body: refund }
    }
    return {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL` } },
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in')
      const call: StripeCall = {
        method: req.method ?? 'GET',
        path: url.pathname,
        form: new URLSearchParams(
          req.method === 'GET' ? url.search : Buffer.concat(chunks).toString('utf8'),
        ),
        idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
        authorization: req.headers.authorization ?? null,
      }
      calls.push(call)
      // Stripe answers a repeated Idempotency-Key with the first answer.
      const key = call.idempotencyKey ? `${call.path} ${call.idempotencyKey}` : null
      const reply = (key && replies.get(key)) || answer(call)
      if (key && call.method === 'POST') replies.set(key, reply)
      if (holding && call.method === 'POST' && call.path === '/v1/payment_intents') {
        held.push({ res, reply })
        return
      }
      res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': id('req') })
      res.end(JSON.stringify(reply.body))
    })
  })
  const post = async (
    event: StripeEvent,
    payload: string,
    signature: string,
  ): Promise<Delivery> => {
    if (!webhookUrl) throw new Error('deliverTo(url) first: where is the webhook endpoint?')
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
    })
    const text = await res.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {}
    return { event, payload, signature, status: res.status, body }
  }
  const send: StripeStandIn['send'] = (type, object, options = {}) => {
    const event: StripeEvent = {
      id: id('evt'),
      object: 'event',
      api_version: '2025-03-31.basil',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      type,
      // a copy: the object as it was when the event happened
      data: { object: structuredClone(object) },
    }
    const payload = JSON.stringify(event, null, 2)
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? webhookSecret,
    })
    return post(event, payload, signature)
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_PUBLISHABLE_KEY: secretKey.replace(/^sk_/, 'pk_'),
      STRIPE_API_URL: url,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
    },
    deliverTo(to) {
      webhookUrl = to
    },
    send,
    redeliver: (delivery) => post(delivery.event, delivery.payload, delivery.signature),
    async failRefund(refundId, failureReason) {
      const refund = refundObjects.get(refundId)
      if (!refund) throw new Error(`no refund ${refundId}`)
      refund.status = 'failed'
      refund.failure_reason = failureReason
      const intent = charged.get(String(refund.payment_intent))
      if (intent) intent.refunded -= Number(refund.amount)
      return [await send('refund.updated', refund), await send('refund.failed', refund)]
    },
    dispute(paymentIntent, reason) {
      const charge = charged.get(paymentIntent)
      if (!charge) throw new Error(`no PaymentIntent ${paymentIntent}`)
      const created = Math.floor(Date.now() / 1000)
      const dispute = {
        id: id('du'),
        object: 'dispute',
        amount: charge.amount,
        charge: chargeOf.get(paymentIntent) ?? null,
        currency: charge.currency,
        created,
        evidence_details: {
          due_by: created + 14 * 86_400,
          has_evidence: false,
          past_due: false,
          submission_count: 0,
        },
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        payment_intent: paymentIntent,
        reason,
        status: 'needs_response',
      }
      disputes.set(dispute.id, dispute)
      return send('charge.dispute.created', dispute)
    },
    closeDispute(disputeId, status) {
      const dispute = disputes.get(disputeId)
      if (!dispute) throw new Error(`no dispute ${disputeId}`)
      dispute.status = status
      return send('charge.dispute.closed', dispute)
    },
    calls,
    paymentIntents,
    refunds,
    holdCharges(on, keep = 'drop') {
      holding = on
      if (!on && keep === 'drop') for (const { res } of held.splice(0)) res.destroy()
    },
    answerHeld() {
      for (const { res, reply } of held.splice(0)) {
        res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': id('req') })
        res.end(JSON.stringify(reply.body))
      }
    },
    authenticate(clientSecret, outcome) {
      const intent = [...intents.values()].find((i) => i.client_secret === clientSecret)
      if (!intent) throw new Error(`no payment intent with client secret ${clientSecret}`)
      if (intent.status !== 'requires_action') throw new Error(`${intent.id} is ${intent.status}`)
      if (outcome === 'complete') {
        succeed(intent)
        return
      }
      intent.status = 'requires_payment_method'
      intent.next_action = null
      intent.last_payment_error = {
        code: 'payment_intent_authentication_failure',
        type: 'card_error',
        message: 'We are unable to authenticate your payment method.',
      }
    },
    paymentIntent: (intentId) => intents.get(intentId),
    chargedNetwork: (intentId) =>
      intents.get(intentId)?.status === 'succeeded' ? (networks.get(intentId) ?? null) : null,
    confirmSetup(clientSecret, paymentMethod, method = { type: 'card' }) {
      const intent = [...setupIntents.values()].find((i) => i.client_secret === clientSecret)
      if (!intent) throw new Error(`no setup intent with client secret ${clientSecret}`)
      if (!intent.payment_method_types.includes(method.type)) {
        throw new Error(`${intent.id} does not offer ${method.type}`)
      }
      savedMethods.set(paymentMethod, method)
      intent.status = 'succeeded'
      intent.payment_method = paymentMethod
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
