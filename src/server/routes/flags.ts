import { meta } from '../../contract/index.ts'
import { FEATURE_FLAGS } from '../feature-flags.ts'
import { fail } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'

export function featureFlagRoutes(router: ApiRouter) {
  router.handle(meta.featureFlags, ({ params }) =>
    params.product === 'shouts'
      ? FEATURE_FLAGS
      : fail(404, `No feature flags for the product '${params.product}'`),
  )
}
