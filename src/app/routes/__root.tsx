import { createRootRoute, redirect } from '@tanstack/react-router'
import { RootLayout } from '../features/shell/root-layout'
import {
  activateLocale,
  detectBrowserLocale,
  readLocaleCookie,
  splitLocalePath,
  writeLocaleCookie,
} from '../locale/i18n'

export const Route = createRootRoute({
  beforeLoad: async ({ location, preload }) => {
    if (preload) return
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
  },
  component: RootLayout,
})
