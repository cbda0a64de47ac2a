import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import { compress } from 'hono/compress'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { API_BASE, allEndpoints, meta } from '../contract/index.ts'
import { messages } from '../domain/index.ts'
import type { ServerDeps } from './deps.ts'
import { HttpError } from './platform/http/errors.ts'
import { type ApiRouter, createApiRouter } from './platform/http/router.ts'
import { securityHeaders } from './platform/http/security.ts'
import { openApiDocument } from './platform/openapi.ts'
import { servePages } from './platform/ssr.ts'
import { serveDist } from './platform/static.ts'
import { qrRoutes } from './qr/index.ts'
import { featureFlagRoutes } from './routes/flags.ts'
import { orderRoutes } from './routes/order.ts'
import { spotlightRoutes } from './routes/spotlight.ts'

type Variables = { requestId: string }

const REQUEST_ID = /^[\w.:-]{1,100}$/

export type AppExtras = {
  /** Registers the routes of api-v1 Content (the content service). */
  registerContent?: (router: ApiRouter) => void
}

/** The whole HTTP surface: /api/v1 and the built PWA. */
export function createApp(deps: ServerDeps, extras: AppExtras = {}) {
  const app = new Hono<{ Variables: Variables }>()
  const log = deps.log

  // Structured logs with a request id (issue 3); a caller's id is kept when it looks like one.
  app.use(async (c, next) => {
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    c.set('requestId', requestId)
    const started = performance.now()
    await next()
    c.res.headers.set('X-Request-Id', requestId)
    log.info('request', {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    })
  })
  app.use(securityHeaders({ mapStyleUrl: deps.env.MAP_STYLE_URL }))
  // A NUL character can never be stored or matched (PostgreSQL text refuses it): refuse it up front.
  app.use(async (c, next) => {
    if (/%00/.test(c.req.url))
      return c.json({ errors: ['The address contains a NUL character'] }, 400)
    await next()
  })

  const router = createApiRouter()
  const api = router.hono
  // JSON answers (device lists, OpenAPI) travel compressed; uploaded media never are.
  api.use(compress({ contentTypeFilter: /^application\/json/ }))
  router.handle(meta.health, () => ({ status: 'ok' as const }))
  router.handle(meta.openapi, () => openApiDocument(allEndpoints))
  qrRoutes(router, { db: deps.db, publicBaseUrl: deps.env.PUBLIC_BASE_URL })
  spotlightRoutes(router, deps)
  orderRoutes(router, deps)
  featureFlagRoutes(router)
  extras.registerContent?.(router)
  api.notFound((c) => c.json({ errors: [`No API endpoint ${c.req.method} ${c.req.path}`] }, 404))
  app.route(API_BASE, api)
  app.all('/api/*', (c) =>
    c.json({ errors: [`No API endpoint ${c.req.method} ${c.req.path}`] }, 404),
  )

  if (deps.distDir) {
    app.use(serveDist(deps.distDir))
    // issue 11: the first screens rendered by the app's server build, which loads its data through
    // /api/v1 answered in process (src/server/platform/ssr.ts)
    app.use(
      servePages({
        distDir: deps.distDir,
        api: async (path, init) => app.request(path, init),
        eventExists: async (slug) => (await deps.catalogue.event(slug)) !== null,
        mapStyleUrl: deps.env.MAP_STYLE_URL,
        log,
      }),
    )
  }
  app.notFound((c) => c.json({ errors: [messages.pageNotFound] }, 404))

  // api-v1: every error is {errors: [...]}; a thrown HttpError is an expected answer, anything else
  // is logged with the request id and answered without internals.
  app.onError((error, c) => {
    if (error instanceof HttpError) return c.json({ errors: error.errors }, error.status)
    // PostgreSQL data exceptions (class 22: bad characters, values out of range) are bad input.
    const code = pgErrorCode(error)
    if (code?.startsWith('22')) {
      return c.json({ errors: ['The request contains a value that cannot be stored'] }, 400)
    }
    const status = (error as { status?: number }).status
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return c.json(
        { errors: [error.message || messages.unknownError] },
        status as ContentfulStatusCode,
      )
    }
    log.error('unhandled error', { requestId: c.get('requestId'), path: c.req.path, error })
    return c.json({ errors: [messages.unknownError] }, 500)
  })
  return Object.assign(app, { apiRouter: router })
}

function pgErrorCode(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
    e = (e as { cause?: unknown }).cause
  }
  return null
}
