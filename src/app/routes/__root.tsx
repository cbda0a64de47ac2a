import { createRootRouteWithContext, redirect } from '@tanstack/react-router'
import { RootLayout } from '../features/shell/root-layout'
import { SERVER_RENDERED_ROUTES } from '../lib/first-screen'
import {
  activateLocale,
  detectBrowserLocale,
  loadWholeCatalog,
  readLocaleCookie,
  splitLocalePath,
  writeLocaleCookie,
} from '../locale/i18n'
import type { RouterContext } from '../router'

export const Route = createRootRouteWithContext<RouterContext>()({
  beforeLoad: async ({ location, preload, matches }) => {
    // On the server the request's language is decided before the router runs (the root's redirect
    // and the cookie: src/server/platform/ssr.ts) and its i18n is the router's own.
    if (preload || import.meta.env.SSR) return
    const publicPath = new URL(location.publicHref, window.location.origin).pathname
    // spec §2/§9: the language is detected from the browser only at the root, and kept in the
    // i18n_redirected cookie; every other URL says its language by its prefix.
    if (publicPath === '/') {
      const preferred = readLocaleCookie() ?? detectBrowserLocale()
      writeLocaleCookie(preferred)
      if (preferred !== 'en') {
        await activateLocale(preferred)
        throw redirect({ to: '/', search: location.search, replace: true })
      }
    }
    await activateLocale(splitLocalePath(publicPath).locale)
    // the first screens need only the first part of the catalog
    if (!SERVER_RENDERED_ROUTES.has(matches.at(-1)?.routeId ?? '')) await loadWholeCatalog()
  },
  component: RootLayout,
})
