import * as v from 'valibot'
import { ops } from '../../contract/ops.ts'
import type { OpsGuard } from '../auth/guard.ts'
import { type Refusal, refuse, withProblemFields } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { OpsError, OpsService } from './service.ts'

// api-v1 "Operations" over HTTP: the review queue, orders, approve, cancel and the audit log, each
// registered through the ops guard (Origin, session, the endpoint's role).

const GuidSchema = v.pipe(v.string(), v.uuid())

/** A service's error is a problem of the catalogue: its status and text are there. */
export const opsRefusal = (error: OpsError): Refusal => ({ problems: [error] })

/** A guid from the path; anything else names no order. */
const guidOf = (raw: string): string =>
  v.is(GuidSchema, raw) ? raw : refuse(opsRefusal({ code: 'order_not_found' }))

export function opsRoutes(router: ApiRouter, guard: OpsGuard, service: OpsService) {
  guard.handle(router, ops.review, async () => ({
    orders: (await service.reviewQueue()).map(withProblemFields),
  }))

  guard.handle(router, ops.orders, async ({ query }) => ({
    orders: (await service.find(query.query, query.day)).map(withProblemFields),
  }))

  guard.handle(router, ops.order, async ({ params }) => {
    const found = await service.order(guidOf(params.guid))
    return found.ok ? withProblemFields(found.value) : refuse(opsRefusal(found.error))
  })

  guard.handle(router, ops.approve, async ({ params, operator }) => {
    const approved = await service.approve(guidOf(params.guid), operator)
    return approved.ok ? withProblemFields(approved.value) : refuse(opsRefusal(approved.error))
  })

  guard.handle(router, ops.cancel, async ({ params, body, operator }) => {
    // the operator's own words, given to the shopper as they were typed
    const reason = { code: 'order_cancelled', params: { reason: body.reason } }
    const cancelled = await service.cancel(guidOf(params.guid), reason, { operator })
    return cancelled.ok ? withProblemFields(cancelled.value) : refuse(opsRefusal(cancelled.error))
  })

  guard.handle(router, ops.audit, async ({ query }) => ({
    entries: await service.audit({
      limit: query.limit,
      before: query.before,
      orderGuid: query.orderGuid,
    }),
  }))
}
