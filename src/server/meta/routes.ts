import { allEndpoints, meta } from '../../contract/index.ts'
import { fail, problem } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { openApiDocument } from '../platform/openapi.ts'
import { featureFlagsOf, type ReadinessCheck, type ReadinessProblem } from './service.ts'

const readinessProblem = (p: ReadinessProblem) => {
  switch (p.code) {
    case 'database_unreachable':
      return problem(p.code, 'The database does not answer')
    case 'migrations_pending':
      return problem(p.code, `Migrations not applied: ${p.pending.join(', ')}`)
    case 'storage_unwritable':
      return problem(p.code, 'Content storage does not take a write')
    case 'shutting_down':
      return problem(p.code, 'The server is shutting down')
  }
}

// The server about itself: health, liveness and readiness (issue 16), the OpenAPI document made from
// src/contract, feature flags.
export function metaRoutes(router: ApiRouter, deps: { readiness: ReadinessCheck }) {
  router.handle(meta.health, () => ({ status: 'ok' as const }))
  router.handle(meta.livez, () => ({ status: 'ok' as const }))
  router.handle(meta.readyz, async () => {
    const ready = await deps.readiness.check()
    if (ready.ok) return ready.value
    return fail(503, ...ready.problems.map(readinessProblem))
  })
  router.handle(meta.openapi, () => openApiDocument(allEndpoints))
  router.handle(meta.featureFlags, ({ params }) => {
    const found = featureFlagsOf(params.product)
    if (found.ok) return found.value
    return fail(
      404,
      problem(found.error.code, `No feature flags for the product '${found.error.product}'`),
    )
  })
}
