import { randomBytes } from 'node:crypto'
import * as v from 'valibot'
import {
  IdempotencyKeySchema,
  type LocalConfirmResponse,
  OrderRequestSchema,
  order as orderApi,
  parseWithErrors,
  type SetupIntentResponse,
} from '../../contract/index.ts'
import { messages } from '../../domain/index.ts'
import type { ServerDeps } from '../deps.ts'
import { paymentMessages, requestHash } from '../orders/service.ts'
import { cardBrand, cardOutcome } from '../payment/test-cards.ts'
import { errorResponse, fail } from '../platform/http/errors.ts'
import { readJson } from '../platform/http/json.ts'
import type { ApiRouter } from '../platform/http/router.ts'

const GuidSchema = v.pipe(v.string(), v.uuid())

export function orderRoutes(router: ApiRouter, deps: ServerDeps) {
  const { catalogue, orders, payment, database, now } = deps

  // spec §7 call 10: marketing e-mails are opt-in (default off); the sponsor-sharing consent is
  // shown only for a branded event.
  router.handle(orderApi.defaults, async ({ query }) => {
    const event = (await catalogue.event(query.eventSlug)) ?? fail(404, messages.eventNotFound)
    ;(await catalogue.eventDevice(event.slug, query.deviceId)) ?? fail(404, messages.deviceNotFound)
    return {
      marketingAcknowledgement: { willReceive: false },
      isShareInfoWithSponsorVisible: event.branded,
    }
  })

  // spec §7 call 11: a setup intent for this checkout, bound to a checkoutSecretKey.
  router.handle(orderApi.setupIntent, async ({ c }) => {
    const length = Number(c.req.header('content-length') ?? '0')
    if (length > 1024) return errorResponse(c, 413, 'This request takes no body')
    let setup: Awaited<ReturnType<typeof payment.createSetup>>
    try {
      setup = await payment.createSetup()
    } catch (error) {
      deps.log.error('payment provider unreachable', { error })
      return errorResponse(c, 503, paymentMessages.providerUnavailable)
    }
    const checkoutSecretKey = `cks_${randomBytes(24).toString('base64url')}`
    await database.raw(
      `insert into payment_setups (checkout_secret_key, provider, customer_id, client_secret, setup_intent_id)
       values ($1, $2, $3, $4, $5)`,
      [checkoutSecretKey, payment.name, setup.customerId, setup.clientSecret, setup.setupIntentId],
    )
    const answer: SetupIntentResponse = {
      provider: payment.name,
      publishableKey: payment.publishableKey,
      clientSecret: setup.clientSecret,
      customerId: setup.customerId,
      checkoutSecretKey,
    }
    return answer
  })

  // api-v1: the local provider's card form posts here; Stripe's documented test cards and outcomes.
  router.handle(orderApi.localConfirm, async ({ c, body }) => {
    if (payment.name !== 'local') {
      return errorResponse(c, 404, 'Cards are confirmed with Stripe on this server')
    }
    const rows = await database.raw<{ checkout_secret_key: string; status: string }>(
      'select checkout_secret_key, status from payment_setups where client_secret = $1',
      [body.clientSecret],
    )
    const setup = rows[0] ?? fail(404, 'This payment form has expired. Please refresh the page.')
    if (setup.status === 'succeeded') return errorResponse(c, 409, messages.paymentAlreadySaved)
    const current = new Date(now())
    const expired =
      body.expYear < current.getUTCFullYear() ||
      (body.expYear === current.getUTCFullYear() && body.expMonth < current.getUTCMonth() + 1)
    if (expired) return errorResponse(c, 402, messages.cardExpired)
    const outcome = cardOutcome(body.cardNumber)
    if (outcome.kind === 'declined') return errorResponse(c, 402, outcome.message)
    // Only the brand and the last four digits are kept: never the number or the code.
    const card = { brand: cardBrand(body.cardNumber), last4: body.cardNumber.slice(-4) }
    await database.raw(
      `update payment_setups set status = 'succeeded', payment_method_id = $2, card_brand = $3,
         card_last4 = $4, charge_outcome = $5 where checkout_secret_key = $1`,
      [
        setup.checkout_secret_key,
        `pm_local_${randomBytes(8).toString('hex')}`,
        card.brand,
        card.last4,
        outcome.kind === 'charge_declined' ? outcome.message : null,
      ],
    )
    const response: LocalConfirmResponse = { status: 'succeeded', card }
    return response
  })

  // spec §7 call 12, api-v1: the Idempotency-Key makes a retried POST answer as the first did. The
  // key is checked, and a body the schema refuses is answered as a replay when its key was used
  // before (a key already used with another body is a 422 even when this body is also invalid),
  // before the router's own validation answers 400.
  router.handle(
    orderApi.place,
    async ({ c, body }) => {
      const key = c.req.header('idempotency-key') as string
      // place() answers a key already used: the same body replays, another body is a 422.
      const answer = await orders.place(body, key, requestHash(await readJson(c)))
      return c.json(answer.body as object, answer.status)
    },
    async (c, next) => {
      const keyHeader = c.req.header('idempotency-key')
      if (keyHeader === undefined) return errorResponse(c, 400, messages.idempotencyKeyMissing)
      const key = v.safeParse(IdempotencyKeySchema, keyHeader)
      if (!key.success) return errorResponse(c, 400, key.issues[0].message)
      const json = await readJson(c)
      const parsed = parseWithErrors(OrderRequestSchema, json)
      if (!parsed.success) {
        const replay = await orders.storedAnswer(key.output, requestHash(json))
        if (replay) return c.json(replay.body as object, replay.status)
        return errorResponse(c, 400, parsed.errors)
      }
      await next()
    },
  )

  router.handle(orderApi.status, async ({ c, params }) => {
    const guid = v.safeParse(GuidSchema, params.guid)
    if (!guid.success) return errorResponse(c, 404, messages.orderNotFound)
    const status = await orders.status(params.eventSlug, guid.output)
    return status ?? errorResponse(c, 404, messages.orderNotFound)
  })

  router.handle(orderApi.summary, async ({ c, params }) => {
    const guid = v.safeParse(GuidSchema, params.guid)
    if (!guid.success) return errorResponse(c, 404, messages.orderNotFound)
    const summary = await orders.summary(params.eventSlug, guid.output)
    return summary ?? errorResponse(c, 404, messages.orderNotFound)
  })
}
