import { createRouter } from '@tanstack/react-router'
import { ErrorPage, NotFoundPage } from './features/shell/error-page'
import { currentLocale, splitLocalePath, withLocalePrefix } from './locale/i18n'
import { routeTree } from './route-tree.gen'

// spec §2: English has no prefix, French lives under /fr and German under /de. The routes are
// written once; the URL prefix is rewritten in on the way out and stripped on the way in.
export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultNotFoundComponent: NotFoundPage,
  defaultErrorComponent: ErrorPage,
  rewrite: {
    input: ({ url }) => {
      const { path } = splitLocalePath(url.pathname)
      if (path === url.pathname) return undefined
      url.pathname = path
      return url
    },
    output: ({ url }) => {
      const localized = withLocalePrefix(url.pathname, currentLocale())
      if (localized === url.pathname) return undefined
      url.pathname = localized
      return url
    },
  },
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}
