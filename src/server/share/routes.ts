import type { Hono, MiddlewareHandler } from 'hono'
import { share as shareApi } from '../../contract/share.ts'
import { acceptedLanguages, preferredLocale } from '../../domain/locale.ts'
import { problem, type Refusal } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import { mapErr, mapOk } from '../platform/result.ts'
import { gonePage, keepsakePage } from './page.ts'
import type { ShareError, ShareService } from './service.ts'

// api-v1 "Keepsake pages" over HTTP: the order's share, made and revoked by the order's page (the
// order's guid is what its shopper holds; a change must come from the shop's own pages, Origin, and
// counts as a write), and the public page with its picture.

const refusal = <E extends ShareError>(error: E): Refusal<E['code']> => ({
  problems: [problem(error.code)],
})

export function shareRoutes(
  router: ApiRouter,
  shares: ShareService,
  deps: { limits: ClientLimits; sameOrigin: MiddlewareHandler },
) {
  router.handle(shareApi.current, async ({ c, params }) => {
    c.header('Cache-Control', 'no-store')
    const found = await shares.current(params.eventSlug, params.guid)
    return mapErr(
      mapOk(found, (value) => ({ share: value })),
      refusal,
    )
  })

  router.handle(
    shareApi.create,
    async ({ c, params, body }) => {
      const made = await shares.share(params.eventSlug, params.guid, body.locale)
      return mapErr(
        mapOk(made, (value) => c.json(value, 201)),
        refusal,
      )
    },
    deps.sameOrigin,
    deps.limits.writes('shares'),
  )

  router.handle(
    shareApi.revoke,
    async ({ params }) => {
      const removed = await shares.revoke(params.eventSlug, params.guid)
      return mapErr(
        mapOk(removed, () => null),
        refusal,
      )
    },
    deps.sameOrigin,
    deps.limits.writes('shares'),
  )
}

/** The public page /s/{shareId} and its picture: anyone with the link, no session, no script. */
// biome-ignore lint/suspicious/noExplicitAny: the app's variables are its own; these routes read none
export function keepsakePages(app: Hono<any>, shares: ShareService) {
  app.get('/s/:shareId', async (c) => {
    const view = await shares.page(c.req.param('shareId'))
    // a page that follows its order (a revoked share, a cancelled order): never kept by a cache
    c.header('Cache-Control', 'no-cache')
    if (!view) {
      const locale = preferredLocale(acceptedLanguages(c.req.header('accept-language')))
      return c.html(gonePage(locale), 404)
    }
    return c.html(keepsakePage(view))
  })
  app.get('/s/:shareId/keepsake.jpg', async (c) => {
    const picture = await shares.picture(c.req.param('shareId'))
    if (!picture) {
      c.header('Cache-Control', 'no-cache')
      return c.body(null, 404)
    }
    // made once for this share and never changed: an address that names one picture for ever
    c.header('Cache-Control', 'public, max-age=31536000, immutable')
    c.header('Content-Type', 'image/jpeg')
    return c.body(new Uint8Array(picture))
  })
}
