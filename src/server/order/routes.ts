import * as v from 'valibot'
import {
  IdempotencyKeySchema,
  OrderRequestSchema,
  order as orderApi,
  parseWithErrors,
} from '../../contract/index.ts'
import { promoRefusal } from '../catalogue/refusals.ts'
import { type PaymentRefusalCode, paymentRefusal } from '../payment/refusals.ts'
import type { PaymentError } from '../payment/service.ts'
import {
  errorResponse,
  inputProblems,
  type ProblemCode,
  problem,
  type Refusal,
  refuse,
  withProblemFields,
} from '../platform/http/errors.ts'
import { readJson } from '../platform/http/json.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { type ClientLimits, tooManyRequests } from '../platform/rate-limit.ts'
import { err, mapErr, mapOk } from '../platform/result.ts'
import { type OrderError, type OrderService, requestHash, type SlotProblem } from './service.ts'

// api-v1 "Order" over HTTP. The status and the text of each of the service's errors are here.

const GuidSchema = v.pipe(v.string(), v.uuid())

/**
 * The answer to each of the service's errors: its problems (their status and English are the
 * catalogue's), with the status only where api-v1 fixes another.
 */
export const orderRefusal = <E extends OrderError>(error: E) =>
  refusalOf(error) as Refusal<OrderRefusalCode<E>>

/** The codes an order error is answered with: each slot's reason, the limit's, the card's, its own. */
export type OrderRefusalCode<E extends OrderError> = E extends { code: 'slots_invalid' }
  ? SlotProblem['reason']
  : E extends { code: 'writes_limited' }
    ? 'too_many_requests'
    : E extends PaymentError
      ? PaymentRefusalCode<E>
      : Extract<E['code'], ProblemCode>

function refusalOf(error: OrderError): Refusal {
  switch (error.code) {
    case 'not_available_for_event':
      return { problems: [problem(error.code, { event: error.eventName })] }
    case 'phone_invalid_for_country':
      return { problems: [problem(error.code, { example: error.example })] }
    case 'slots_invalid':
      return {
        problems: error.slots.map(({ slotNumber, reason }) =>
          problem(reason, { slot: slotNumber }),
        ),
      }
    case 'promo_invalid':
      // An order naming an unknown code cannot be placed as sent: 422, not the lookup's 404.
      return { status: 422, problems: [problem(error.code)] }
    case 'promo_wrong_event':
    case 'promo_once_per_customer':
      return promoRefusal(error)
    case 'checkout_mismatch':
    case 'payment_already_saved':
    case 'setup_not_confirmed':
    case 'payment_unavailable':
      return paymentRefusal(error)
    case 'slots_taken':
      return {
        problems: [problem(error.code, { slots: error.labels })],
        extra: { takenSlots: error.slots },
      }
    case 'writes_limited':
      // answered by limits.writesCountedWith, which knows the window's end (Retry-After)
      return { status: 429, problems: [tooManyRequests(60)] }
    default:
      return { problems: [problem(error.code)] }
  }
}

export function orderRoutes(router: ApiRouter, orders: OrderService, limits: ClientLimits) {
  router.handle(orderApi.defaults, async ({ query }) => {
    const defaults = await orders.defaults(query.eventSlug, query.deviceId)
    return mapErr(defaults, orderRefusal)
  })

  // spec §7 call 12, api-v1: the Idempotency-Key makes a retried POST answer as the first did. The
  // key is checked, and a body the schema refuses is answered as a replay when its key was used
  // before (a key already used with another body is a 422 even when this body is also invalid),
  // before the router's own validation answers 400.
  router.handle(
    orderApi.place,
    async ({ c, body }) => {
      const key = c.req.header('idempotency-key') as string
      // An order naming a code checks it, so it counts as a promo check.
      if (body.checkout.stripeData.promoCode !== null) await limits.takePromoCheck(c)
      const placed = await orders.place(
        body,
        key,
        requestHash(await readJson(c)),
        limits.pendingHit(c),
      )
      return mapErr(
        mapOk(placed, (value) => c.json(value, 201)),
        orderRefusal,
      )
    },
    // The order's write count is taken in the order's own statement (one commit); a request that
    // writes nothing is counted after it answered (rate-limit.ts).
    limits.writesCountedWith('orders'),
    async (c, next) => {
      const keyHeader = c.req.header('idempotency-key')
      if (keyHeader === undefined) {
        return errorResponse(c, 400, problem('idempotency_key_missing'))
      }
      const key = v.safeParse(IdempotencyKeySchema, keyHeader)
      if (!key.success) {
        return errorResponse(c, 400, problem('idempotency_key_invalid'))
      }
      const json = await readJson(c)
      const parsed = parseWithErrors(OrderRequestSchema, json)
      if (!parsed.success) {
        const replay = await orders.replay(key.output, requestHash(json))
        if (replay?.ok) return c.json(replay.value, 201)
        if (replay) return refuse(orderRefusal(replay.error))
        return errorResponse(c, 400, inputProblems(parsed.errors))
      }
      await next()
    },
  )

  router.handle(orderApi.status, async ({ params }) => {
    const guid = v.safeParse(GuidSchema, params.guid)
    if (!guid.success) return err(orderRefusal({ code: 'order_not_found' }))
    const status = await orders.status(params.eventSlug, guid.output)
    return mapErr(mapOk(status, withProblemFields), orderRefusal)
  })

  // After the cardholder answered their bank (Stripe.js's handleNextAction, or the local test
  // screen): the order settles by its charge, asked of the provider, never by what the app says.
  router.handle(
    orderApi.authenticated,
    async ({ params }) => {
      const guid = v.safeParse(GuidSchema, params.guid)
      if (!guid.success) return err(orderRefusal({ code: 'order_not_found' }))
      const status = await orders.authenticated(params.eventSlug, guid.output)
      return mapErr(mapOk(status, withProblemFields), orderRefusal)
    },
    limits.writes('authentications'),
  )

  router.handle(orderApi.summary, async ({ params }) => {
    const guid = v.safeParse(GuidSchema, params.guid)
    if (!guid.success) return err(orderRefusal({ code: 'order_not_found' }))
    const summary = await orders.summary(params.eventSlug, guid.output)
    return mapErr(mapOk(summary, withProblemFields), orderRefusal)
  })
}
