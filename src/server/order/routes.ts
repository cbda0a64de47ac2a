import * as v from 'valibot'
import type { ErrorCode } from '../../contract/error-codes.ts'
import {
  IdempotencyKeySchema,
  OrderRequestSchema,
  order as orderApi,
  parseWithErrors,
} from '../../contract/index.ts'
import { messages } from '../../domain/index.ts'
import { paymentRefusal } from '../payment/refusals.ts'
import {
  errorResponse,
  inputProblems,
  type Problem,
  problem,
  type Refusal,
  refuse,
} from '../platform/http/errors.ts'
import { readJson } from '../platform/http/json.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { type ClientLimits, tooManyRequests } from '../platform/rate-limit.ts'
import { promoRefusal } from '../promo/refusals.ts'
import { orderMessages } from './messages.ts'
import { type OrderError, type OrderService, requestHash } from './service.ts'

// api-v1 "Order" over HTTP. The status and the text of each of the service's errors are here.

const GuidSchema = v.pipe(v.string(), v.uuid())

/** The service's codes answered as one problem of the same code (slots_invalid names its own). */
type OwnCode = Exclude<OrderError['code'], 'slots_invalid' | 'writes_limited'>

export function orderRefusal(error: OrderError): Refusal {
  const one = (status: Refusal['status'], message: string): Refusal => {
    // OwnCode must be codes of the registry: a service code missing there is a type error here.
    const code: ErrorCode = error.code as OwnCode
    return { status, problems: [problem(code, message)] }
  }
  switch (error.code) {
    case 'order_type_production':
      return one(400, orderMessages.orderTypeProduction)
    case 'one_billboard':
      return one(400, orderMessages.oneBillboard)
    case 'event_not_found':
      return one(404, messages.eventNotFound)
    case 'device_not_found':
      return one(404, messages.deviceNotFound)
    case 'sold_out':
      return one(409, messages.soldOut)
    case 'not_available_for_event':
      return one(409, messages.notAvailableFor(error.eventName))
    case 'slots_invalid':
      return {
        status: 400,
        problems: error.slots.map(
          ({ slotNumber, reason }): Problem =>
            problem(
              reason,
              reason === 'slot_not_in_event'
                ? messages.slotNotInEvent(slotNumber)
                : messages.slotPastCutoff(slotNumber),
            ),
        ),
      }
    case 'missing_content_metadata':
      return one(400, messages.missingContentMetadata)
    case 'missing_billboard_content':
      return one(400, messages.missingBillboardContent)
    case 'promo_invalid':
      // An order naming an unknown code cannot be placed as sent: 422, not the lookup's 404.
      return one(422, messages.promoInvalid)
    case 'promo_wrong_event':
    case 'promo_once_per_customer':
      return promoRefusal(error)
    case 'checkout_mismatch':
    case 'payment_already_saved':
    case 'setup_not_confirmed':
    case 'payment_unavailable':
      return paymentRefusal(error)
    case 'request_in_progress':
      return one(409, orderMessages.requestInProgress)
    case 'slots_taken':
      return { ...one(409, messages.slotsTaken(error.labels)), extra: { takenSlots: error.slots } }
    case 'idempotency_key_reused':
      return one(422, messages.idempotencyKeyReused)
    case 'order_not_found':
      return one(404, messages.orderNotFound)
    case 'writes_limited':
      // answered by limits.writesCountedWith, which knows the window's end (Retry-After)
      return { status: 429, problems: [tooManyRequests(60)] }
  }
}

export function orderRoutes(router: ApiRouter, orders: OrderService, limits: ClientLimits) {
  router.handle(orderApi.defaults, async ({ query }) => {
    const defaults = await orders.defaults(query.eventSlug, query.deviceId)
    return defaults.ok ? defaults.value : refuse(orderRefusal(defaults.error))
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
      return placed.ok ? c.json(placed.value, 201) : refuse(orderRefusal(placed.error))
    },
    // The order's write count is taken in the order's own statement (one commit); a request that
    // writes nothing is counted after it answered (rate-limit.ts).
    limits.writesCountedWith('orders'),
    async (c, next) => {
      const keyHeader = c.req.header('idempotency-key')
      if (keyHeader === undefined) {
        return errorResponse(
          c,
          400,
          problem('idempotency_key_missing', messages.idempotencyKeyMissing),
        )
      }
      const key = v.safeParse(IdempotencyKeySchema, keyHeader)
      if (!key.success) {
        return errorResponse(c, 400, problem('idempotency_key_invalid', key.issues[0].message))
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
    if (!guid.success) return refuse(orderRefusal({ code: 'order_not_found' }))
    const status = await orders.status(params.eventSlug, guid.output)
    return status.ok ? status.value : refuse(orderRefusal(status.error))
  })

  router.handle(orderApi.summary, async ({ params }) => {
    const guid = v.safeParse(GuidSchema, params.guid)
    if (!guid.success) return refuse(orderRefusal({ code: 'order_not_found' }))
    const summary = await orders.summary(params.eventSlug, guid.output)
    return summary.ok ? summary.value : refuse(orderRefusal(summary.error))
  })
}
