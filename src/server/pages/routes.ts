import type { Hono } from 'hono'
import { acceptedLanguages, isLocale, preferredLocale } from '../../domain/locale.ts'
import { isShopPage, type PageSettings, shopPageHtml } from './pages.ts'

// /s/{page}/{locale}: a shop page in a language; /s/{page}: in the visitor's (Accept-Language).
// Registered before the keepsake pages' /s/{shareId} (a share id is 22 random characters, never a
// page's name).

export function shopPages(
  // biome-ignore lint/suspicious/noExplicitAny: the app's variables are its own; these routes read none
  app: Hono<any>,
  settings: PageSettings,
) {
  app.get('/s/:page', async (c, next) => {
    const page = c.req.param('page')
    if (!isShopPage(page)) return next()
    const locale = preferredLocale(acceptedLanguages(c.req.header('accept-language')))
    return c.redirect(`/s/${page}/${locale}`, 302)
  })
  app.get('/s/:page/:locale', async (c, next) => {
    const page = c.req.param('page')
    const locale = c.req.param('locale')
    if (!isShopPage(page)) return next()
    if (!isLocale(locale)) return c.notFound()
    // the operator's files may change while the shop runs: an hour at most in a cache
    c.header('Cache-Control', 'public, max-age=3600')
    return c.html(shopPageHtml(settings, page, locale))
  })
}
