import type { MiddlewareHandler } from 'hono'
import { push as pushApi } from '../../contract/push.ts'
import { problem, type Refusal } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import { mapErr, mapOk, ok } from '../platform/result.ts'
import type { PushError, PushService } from './service.ts'

// api-v1 "Play alerts" over HTTP. The order's guid is what the shopper holds (the order page's
// address); a change must come from the shop's own pages (Origin) and counts as a write.

const refusal = <E extends PushError>(error: E): Refusal<E['code']> => ({
  problems: [problem(error.code)],
})

export function pushRoutes(
  router: ApiRouter,
  push: PushService,
  deps: { limits: ClientLimits; sameOrigin: MiddlewareHandler },
) {
  router.handle(pushApi.key, async ({ c }) => {
    // the same for every browser and a long time; a new pair (a changed setting) is rare
    c.header('Cache-Control', 'public, max-age=3600')
    return ok({ publicKey: await push.publicKey() })
  })

  router.handle(pushApi.subscriptions, async ({ c, params }) => {
    c.header('Cache-Control', 'no-store')
    const listed = await push.list(params.eventSlug, params.guid)
    return mapErr(
      mapOk(listed, (value) => ({ subscriptions: value })),
      refusal,
    )
  })

  router.handle(
    pushApi.subscribe,
    async ({ c, params, body }) => {
      const made = await push.subscribe(params.eventSlug, params.guid, body)
      return mapErr(
        mapOk(made, (value) => c.json(value, 201)),
        refusal,
      )
    },
    deps.sameOrigin,
    deps.limits.writes('push-subscriptions'),
  )

  router.handle(
    pushApi.unsubscribe,
    async ({ params }) => {
      const removed = await push.unsubscribe(params.eventSlug, params.guid, params.id)
      return mapErr(
        mapOk(removed, () => null),
        refusal,
      )
    },
    deps.sameOrigin,
    deps.limits.writes('push-subscriptions'),
  )
}
