import { randomUUID } from 'node:crypto'
import { ServerResponse } from 'node:http'
import { type Context, Hono } from 'hono'
import { API_BASE, routerPath } from '../contract/index.ts'
import { billingRoutes } from './advertisers/billing-routes.ts'
import { opsCampaignRoutes } from './advertisers/ops-routes.ts'
import { advertiserRoutes } from './advertisers/routes.ts'
import { teamRoutes } from './advertisers/team-routes.ts'
import { authRoutes } from './auth/routes.ts'
import { catalogueRoutes } from './catalogue/routes.ts'
import type { ServerParts } from './compose.ts'
import { contentRoutes } from './content/routes.ts'
import { s3Config } from './content/s3-storage.ts'
import { StorageUnavailable } from './content/storage.ts'
import { mailRoutes } from './mail/routes.ts'
import { mapArchive } from './map/archive.ts'
import { mapRoutes } from './map/routes.ts'
import { privacyPages } from './meta/privacy-page.ts'
import { metaRoutes } from './meta/routes.ts'
import { opsRoutes } from './ops/routes.ts'
import { erasurePages } from './order/erasure-routes.ts'
import { orderRoutes } from './order/routes.ts'
import { pageSettings } from './pages/pages.ts'
import { shopPages } from './pages/routes.ts'
import { paymentRoutes } from './payment/routes.ts'
import { databaseOutage, pgErrorCode } from './platform/db/errors.ts'
import { allowedHosts } from './platform/http/client.ts'
import { errorBody, errorResponse, HttpError, problem } from './platform/http/errors.ts'
import { createApiRouter } from './platform/http/router.ts'
import { securityHeaders } from './platform/http/security.ts'
import { servePages } from './platform/ssr.ts'
import { serveDist } from './platform/static.ts'
import { billboardConsoleRoutes } from './player/console-routes.ts'
import { playerRoutes } from './player/routes.ts'
import { pushRoutes } from './push/routes.ts'
import { keepsakePages, shareRoutes } from './share/routes.ts'

type Variables = { requestId: string }
/** What @hono/node-server hands the app with each request: Node's response among them. */
type NodeBindings = { outgoing?: unknown }

const REQUEST_ID = /^[\w.:-]{1,100}$/

/** Seconds a client is told to wait before it tries again after an outage of a part we run on. */
const OUTAGE_RETRY_AFTER_S = 2

const retryLater = (
  c: Context,
  code: 'database_unreachable' | 'database_unavailable' | 'storage_unavailable',
) => {
  const answer = errorResponse(c, { problems: [problem(code)] })
  answer.headers.set('retry-after', String(OUTAGE_RETRY_AFTER_S))
  return answer
}

const noEndpoint = (method: string, path: string) =>
  errorBody([problem('endpoint_not_found', { method, path })])

/** The whole HTTP surface: /api/v1 (each module's routes) and the built PWA. */
export function createApp(parts: ServerParts) {
  const app = new Hono<{ Variables: Variables }>()
  const log = parts.log
  const metrics = parts.metrics

  // One middleware around every request (each layer of Hono middleware costs an await and a
  // closure a request, and the trivial endpoint's pipeline is to keep up with a bare app's
  // throughput): the request id (a caller's id is kept when it looks like one), the refusal
  // of a NUL character, then on the way out the request id and security headers (on Node's response
  // before its head is written, merged under the route's own: security.ts), the request count by
  // route (metrics.ts: no allocation), and the access log line (platform/log.ts: pino's line, made
  // by hand, written asynchronously). The path is logged without its secrets (the player token in a
  // play log's path; the logger redacts them).
  const security = securityHeaders({
    trustProxy: parts.env.TRUST_PROXY,
    publicBaseUrl: parts.env.PUBLIC_BASE_URL,
  })
  app.use(async (c, next) => {
    const started = performance.now()
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    c.set('requestId', requestId)
    // A NUL character can never be stored or matched (PostgreSQL text refuses it): refused up front.
    if (c.req.url.includes('%00')) {
      c.res = errorResponse(c, { problems: [problem('address_contains_nul')] })
    } else {
      await next()
    }
    const res = c.res
    const outgoing = (c.env as NodeBindings | undefined)?.outgoing
    if (outgoing instanceof ServerResponse && !outgoing.headersSent) {
      outgoing.setHeader('X-Request-Id', requestId)
      security.onNode(c, outgoing)
    } else {
      res.headers.set('X-Request-Id', requestId)
      security.onHeaders(c, res.headers)
    }
    const seconds = (performance.now() - started) / 1000
    metrics?.observeRequest(c.req.method, c.req.routePath, res.status, seconds)
    log.request({
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: res.status,
      ms: Math.round(seconds * 10_000) / 10,
    })
  })
  // The billboard player's page carries its token in its first address: no referrer ever
  app.use('/play/*', async (c, next) => {
    await next()
    c.res.headers.set('Referrer-Policy', 'no-referrer')
  })

  const router = createApiRouter()
  const api = router.hono
  // JSON answers (device lists, OpenAPI, slot lists) travel compressed (platform/http/json.ts
  // jsonAnswer, which the router answers through); uploaded media never are.
  metaRoutes(router, {
    readiness: parts.readiness,
    metrics: parts.metrics,
    metricsToken: parts.env.METRICS_TOKEN,
  })
  catalogueRoutes(router, {
    catalogue: parts.catalogue,
    limits: parts.limits,
    publicBaseUrl: parts.env.PUBLIC_BASE_URL,
    allowedHosts: allowedHosts(parts.env),
    trustProxy: parts.env.TRUST_PROXY,
  })
  orderRoutes(router, parts.orders, parts.limits)
  paymentRoutes(router, parts.payment, parts.limits, parts.stripeWebhooks)
  contentRoutes(router, parts.content, parts.limits)
  playerRoutes(router, parts.player, parts.limits)
  billboardConsoleRoutes(router, parts.opsGuard, parts.player)
  authRoutes(router, parts.auth, parts.opsGuard, { trustProxy: parts.env.TRUST_PROXY })
  opsRoutes(router, parts.opsGuard, parts.ops)
  mailRoutes(router, parts.opsGuard, parts.mail)
  advertiserRoutes(router, parts.advertisers, parts.advertiserGuard, {
    limits: parts.limits,
    trustProxy: parts.env.TRUST_PROXY,
    planningPerMinute: parts.env.AD_PLANNING_PER_MINUTE,
    log,
  })
  opsCampaignRoutes(router, parts.opsGuard, parts.advertisers)
  billingRoutes(router, parts.advertisers, parts.advertiserGuard, parts.opsGuard)
  teamRoutes(router, parts.advertisers, parts.advertiserGuard, parts.limits)
  pushRoutes(router, parts.push, { limits: parts.limits, sameOrigin: parts.origin.sameOrigin })
  // the map's street extract: read by ranges when asked, never opened at start
  mapRoutes(
    router,
    mapArchive(parts.env.MAP_TILES, { dataDir: parts.dataDir, s3: s3Config(parts.env) }),
  )
  shareRoutes(router, parts.shares, {
    limits: parts.limits,
    sameOrigin: parts.origin.sameOrigin,
  })
  api.notFound((c) => c.json(noEndpoint(c.req.method, c.req.path), 404))
  metrics?.countRoutes([
    ...router.registered().map((e) => ({
      method: e.method,
      routePath: `${API_BASE}${routerPath(e.path)}`,
      route: e.path,
    })),
    // The built PWA (platform/static.ts) answers every other GET.
    { method: 'GET', routePath: '/*', route: 'app' },
  ])
  app.route(API_BASE, api)
  app.all('/api/*', (c) => c.json(noEndpoint(c.req.method, c.req.path), 404))
  // the shop's privacy page (before the keepsake pages' /s/{shareId})
  privacyPages(app, {
    orderDays: parts.env.ORDER_CONTENT_TTL_DAYS,
    unorderedHours: parts.env.UNORDERED_CONTENT_TTL_HOURS,
  })
  // the shop's own pages (About, FAQs, the terms...): the operator's texts, else honest defaults
  shopPages(app, pageSettings(parts.env))
  // the keepsake pages: the server's own, without the app
  keepsakePages(app, parts.shares)
  // the mails' "Forget my data" page: the server's own too
  erasurePages(app, parts.erasure, { limits: parts.limits, sameOrigin: parts.origin.sameOrigin })

  if (parts.distDir) {
    app.use(serveDist(parts.distDir))
    // The first screens rendered by the app's server build, which loads its data through
    // /api/v1 answered in process (src/server/platform/ssr.ts)
    app.use(
      servePages({
        distDir: parts.distDir,
        api: async (path, init) => app.request(path, init),
        eventExists: async (slug) => (await parts.catalogue.reads.event(slug)) !== null,
        eventHasDevice: async (slug, deviceId) =>
          (await parts.catalogue.reads.eventDevice(slug, deviceId)) !== null,
        log,
        now: parts.now,
      }),
    )
  }
  app.notFound((c) => errorResponse(c, { problems: [problem('page_not_found')] }))

  // api-v1: every error is {errors, codes}; a thrown HttpError is an expected answer, anything else
  // is logged with the request id and answered without internals.
  app.onError((error, c) => {
    if (error instanceof HttpError) {
      return c.json({ ...errorBody(error.problems), ...error.extra }, error.status)
    }
    // PostgreSQL data exceptions (class 22: bad characters, values out of range) are bad input.
    const code = pgErrorCode(error)
    if (code?.startsWith('22'))
      return errorResponse(c, { problems: [problem('value_not_storable')] })
    // Content storage (the folder or the bucket) does not answer or take a write: the same.
    if (error instanceof StorageUnavailable) {
      log.warn('content storage unavailable', {
        requestId: c.get('requestId'),
        path: c.req.path,
        error: error.cause,
      })
      return retryLater(c, 'storage_unavailable')
    }
    // The database is gone for a moment (a PostgreSQL restarting or stopped, its connections cut,
    // the embedded database's thread started again) or out of a resource (a full disk, no memory, no
    // connection left): not the request's fault, worth trying again shortly. Billboards and the app
    // retry a 503 with Retry-After, not a 500.
    const outage = databaseOutage(error)
    if (outage) {
      log.warn('database unavailable', { requestId: c.get('requestId'), path: c.req.path, code })
      return retryLater(
        c,
        outage === 'unreachable' ? 'database_unreachable' : 'database_unavailable',
      )
    }
    // a library's own refusal (a 4xx on the error): its status, our sentence, its words in the log
    const status = (error as { status?: number }).status
    if (typeof status === 'number' && status >= 400 && status < 500) {
      log.info('request refused', { requestId: c.get('requestId'), path: c.req.path, error })
      return errorResponse(c, { status, problems: [problem('request_refused')] })
    }
    // A client that went away mid-request: nothing to answer, nothing broken.
    if (c.req.raw.signal?.aborted) {
      log.info('client went away', { requestId: c.get('requestId'), path: c.req.path })
      return errorResponse(c, { problems: [problem('client_gone')] })
    }
    log.error('unhandled error', { requestId: c.get('requestId'), path: c.req.path, error })
    return errorResponse(c, { problems: [problem('unknown_error')] })
  })
  return Object.assign(app, { apiRouter: router })
}
