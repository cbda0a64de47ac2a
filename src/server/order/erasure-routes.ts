import type { Hono, MiddlewareHandler } from 'hono'
import { acceptedLanguages, preferredLocale } from '../../domain/locale.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import type { ErasureLinks } from './erasure.ts'
import { erasureGonePage, erasurePage } from './erasure-page.ts'

// The "Forget my data" page of the mails' link, the server's own (no app, no script): GET shows it
// and changes nothing; its form posts back from the shop's own page (Origin checked) and counts as a
// write. An unknown or expired token is 404 either way.

export function erasurePages(
  // biome-ignore lint/suspicious/noExplicitAny: the app's variables are its own; these routes read none
  app: Hono<any>,
  erasure: ErasureLinks,
  deps: { limits: ClientLimits; sameOrigin: MiddlewareHandler },
) {
  const answer = async (
    // biome-ignore lint/suspicious/noExplicitAny: see above
    c: any,
    view: Awaited<ReturnType<ErasureLinks['page']>>,
  ) => {
    // one shopper's page: never kept by a cache, never sent on as a referrer
    c.header('Cache-Control', 'no-store')
    c.header('Referrer-Policy', 'no-referrer')
    if (!view) {
      const locale = preferredLocale(acceptedLanguages(c.req.header('accept-language')))
      return c.html(erasureGonePage(locale), 404)
    }
    return c.html(erasurePage(view))
  }
  app.get('/s/forget/:token', async (c) => answer(c, await erasure.page(c.req.param('token'))))
  app.post('/s/forget/:token', deps.sameOrigin, deps.limits.writes('erasure'), async (c) =>
    answer(c, await erasure.confirm(c.req.param('token'))),
  )
}
