import { timingSafeEqual } from 'node:crypto'
import { allEndpoints, meta } from '../../contract/index.ts'
import { fail, problem } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { Metrics } from '../platform/metrics.ts'
import { openApiDocument } from '../platform/openapi.ts'
import { ok } from '../platform/result.ts'
import { featureFlagsOf, type ReadinessCheck, type ReadinessProblem } from './service.ts'

const readinessProblem = (p: ReadinessProblem) =>
  p.code === 'migrations_pending'
    ? problem(p.code, { migrations: p.pending.join(', ') })
    : problem(p.code)

// The server about itself: health, liveness and readiness, the OpenAPI document made from
// src/contract, feature flags.
export function metaRoutes(
  router: ApiRouter,
  deps: { readiness: ReadinessCheck; metrics: Metrics | null; metricsToken: string | undefined },
) {
  const token = deps.metricsToken ? Buffer.from(`Bearer ${deps.metricsToken}`) : null
  router.handle(meta.metrics, async ({ c }) => {
    const { metrics } = deps
    if (!metrics || !token) return ok(fail(problem('metrics_off')))
    const given = Buffer.from(c.req.header('authorization') ?? '')
    // The token is a secret: compared in constant time, never logged.
    if (given.length !== token.length || !timingSafeEqual(given, token)) {
      return ok(fail(problem('metrics_token_required')))
    }
    return ok(
      new Response(await metrics.text(), {
        headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' },
      }),
    )
  })
  router.handle(meta.health, () => ok({ status: 'ok' as const }))
  router.handle(meta.livez, () => ok({ status: 'ok' as const }))
  router.handle(meta.readyz, async () => {
    const ready = await deps.readiness.check()
    if (ready.ok) return ok(ready.value)
    return ok(fail(...ready.problems.map(readinessProblem)))
  })
  router.handle(meta.openapi, () => ok(openApiDocument(allEndpoints)))
  router.handle(meta.featureFlags, ({ params }) => {
    const found = featureFlagsOf(params.product)
    if (found.ok) return ok(found.value)
    return ok(fail(problem(found.error.code, { product: found.error.product })))
  })
}
