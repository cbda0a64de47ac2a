import type { I18n } from '@lingui/core'
import { createRouter } from '@tanstack/react-router'
import { OfflinePage } from './features/shell/offline-page'
import { optionalPart } from './lib/optional-part'
import {
  DEFAULT_LOCALE,
  isLocale,
  splitLocalePath,
  withLocalePrefix,
  withWholeCatalog,
} from './locale/i18n'
import { routeTree } from './route-tree.gen'

// A chunk of their own: no first screen shows them. Offline, a page that failed says so instead
// (a later step's code cannot come before the service worker holds the app), as when their own code
// cannot come.
const NotFoundPage = optionalPart(
  withWholeCatalog(() => import('./features/shell/error-page').then((m) => m.NotFoundPage)),
  OfflinePage,
)
const ErrorPage = optionalPart(
  withWholeCatalog(() => import('./features/shell/error-page').then((m) => m.ErrorPage)),
  OfflinePage,
)

/** What every route sees: the i18n of this router (one per page in the browser, one per request on
 * the server, never a module global there: concurrent requests speak different languages). */
export type RouterContext = { i18n: I18n }

/** One router per page in the browser (src/app/start.tsx), one per request on the server
 * (src/app/entry-server.tsx). */
export function createAppRouter({ i18n }: RouterContext) {
  return createRouter({
    routeTree,
    context: { i18n },
    defaultPreload: 'intent',
    // on the server it would add an inline script (CSP) and has nothing to restore
    scrollRestoration: !import.meta.env.SSR,
    defaultNotFoundComponent: NotFoundPage,
    // the server is online by definition: it renders the error page, which the browser hydrates
    defaultErrorComponent: (props) =>
      typeof navigator === 'undefined' || navigator.onLine ? (
        <ErrorPage {...props} />
      ) : (
        <OfflinePage />
      ),
    // spec §2: English has no prefix, French lives under /fr and German under /de. The routes are
    // written once; the URL prefix is rewritten in on the way out and stripped on the way in.
    rewrite: {
      input: ({ url }) => {
        const { path } = splitLocalePath(url.pathname)
        if (path === url.pathname) return undefined
        url.pathname = path
        return url
      },
      output: ({ url }) => {
        const locale = isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE
        const localized = withLocalePrefix(url.pathname, locale)
        if (localized === url.pathname) return undefined
        url.pathname = localized
        return url
      },
    },
  })
}

export type AppRouter = ReturnType<typeof createAppRouter>

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter
  }
}
