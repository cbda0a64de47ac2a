import { Hono } from 'hono'
import { FEATURE_FLAGS } from '../feature-flags.ts'
import { errorResponse } from '../http/errors.ts'

export function featureFlagRoutes() {
  const app = new Hono()
  app.get('/:product', (c) =>
    c.req.param('product') === 'shouts'
      ? c.json(FEATURE_FLAGS)
      : errorResponse(c, 404, `No feature flags for the product '${c.req.param('product')}'`),
  )
  return app
}
