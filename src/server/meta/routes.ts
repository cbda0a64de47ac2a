import { allEndpoints, meta } from '../../contract/index.ts'
import { fail, problem } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { openApiDocument } from '../platform/openapi.ts'
import { featureFlagsOf } from './service.ts'

// The server about itself: health, the OpenAPI document made from src/contract, feature flags.
export function metaRoutes(router: ApiRouter) {
  router.handle(meta.health, () => ({ status: 'ok' as const }))
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
