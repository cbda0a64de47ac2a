import { I18nProvider } from '@lingui/react'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { APP_VERSION, startPwa } from './lib/pwa'
import { rememberRoute, startRedirect } from './lib/resume'
import { activateLocale, i18n, splitLocalePath } from './locale/i18n'
import { router } from './router'
import { fetchDevices } from './stores/devices'
import { loadFeatureFlags } from './stores/feature-flags'
import { resumeOrders } from './stores/order-sending'
import { restoreAll } from './stores/persist'
import './stores/order'
import './stores/templates'

/** The app: started by ./main.tsx once the first screen is painted. */
export async function start(): Promise<void> {
  // the deployed version, for support and for the update test
  document.documentElement.dataset.appVersion = APP_VERSION
  startPwa()
  // Lighthouse (issue 6): the catalog of the URL's language and the saved state are fetched while the
  // resume check runs, not after it — each await in a row is one more round trip before first paint.
  const early = Promise.all([
    activateLocale(splitLocalePath(window.location.pathname).locale),
    restoreAll(),
  ])
  // issue 4 resume: the installed app's start URL goes back to the last step within its lifetime
  const target = await startRedirect(window.location)
  if (target !== null) router.history.replace(target)
  // spec §7 startup: order, templates and devices state restored before the flow renders.
  await early
  await activateLocale(splitLocalePath(router.history.location.pathname).locale)
  // Lighthouse (issue 6): the location step's billboards (its largest paint) are asked for now, in
  // parallel with its code chunk, not after its first render; the page's own call shares the request.
  const atLocation = /^\/([^/]+)\/design\/location$/.exec(
    splitLocalePath(router.history.location.pathname).path,
  )
  if (atLocation?.[1]) void fetchDevices(decodeURIComponent(atLocation[1]))
  // issue 4: an order placed earlier (maybe while closed) is re-sent or checked again
  void resumeOrders()
  router.subscribe('onResolved', () => {
    rememberRoute(window.location.pathname, window.location.search)
  })
  void loadFeatureFlags()
  const root = document.getElementById('root')
  if (!root) throw new Error('missing #root')
  // Lighthouse (issue 4): the server may have painted the first screen into #root already
  // (src/server/platform/prerender.ts). The route's code and data are resolved before React's first
  // render, so that render replaces it with the real page at once instead of an empty pending state
  // in between.
  await router.load()
  // A transition lets React render the first screen in slices, yielding to the browser between them,
  // instead of one long task; the server's first screen stays on show until the commit.
  const reactRoot = createRoot(root)
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nProvider>
      </StrictMode>,
    )
  })
}
