import { I18nProvider } from '@lingui/react'
import { RouterProvider } from '@tanstack/react-router'
import { RouterClient } from '@tanstack/react-router/ssr/client'
import { StrictMode, startTransition } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import type { ShoutEvent } from '../contract/catalogue'
import { HydrationGate } from './lib/hydration'
import { APP_VERSION, startPwa } from './lib/pwa'
import { rememberRoute, startRedirect } from './lib/resume'
import { activateLocale, i18n, isLocale, splitLocalePath } from './locale/i18n'
import { type AppRouter, createAppRouter } from './router'
import { fetchDevices } from './stores/devices'
import { adoptEvent, loadEvent } from './stores/event'
import { loadFeatureFlags } from './stores/feature-flags'
import { flowRedirect } from './stores/flow-guard'
import { bindOrderToEvent, orderToResume } from './stores/order'
import { restoreAll } from './stores/persist'
import './stores/templates'

/** The app: started when ./main.tsx imports this module, once the first screen is painted. */
async function start(): Promise<void> {
  // The app chunk's evaluation is one task already; the router and the rest start in the
  // next one, so that no single task holds both (each is ~40-70 ms at 4x CPU, together over 100)
  await new Promise((resolve) => setTimeout(resolve))
  // the deployed version, for support and for the update test
  document.documentElement.dataset.appVersion = APP_VERSION
  const root = document.getElementById('root')
  if (!root) throw new Error('missing #root')
  const router = createAppRouter({ i18n })
  router.subscribe('onResolved', () => {
    rememberRoute(window.location.pathname, window.location.search)
  })
  // A page the server rendered carries the router's state ($_TSR, from its <Scripts/>) and
  // is hydrated; the service worker's shell (offline, repeat visits) and the later steps render here.
  if ('$_TSR' in window) await hydrate(router, root)
  else await renderHere(router, root)
}

/** Takes over the server's HTML: React reuses its nodes, nothing is drawn again. */
async function hydrate(router: AppRouter, root: HTMLElement): Promise<void> {
  // The server's language (<html lang>); its catalog must be active before the first render, or the
  // provider renders nothing. Its chunk is preloaded with the page.
  const lang = document.documentElement.lang
  await activateLocale(isLocale(lang) ? lang : splitLocalePath(window.location.pathname).locale)
  // spec §7 startup: the saved state is read while the page hydrates; the components show it once
  // hydrated (lib/hydration.tsx), so hydration sees exactly what the server rendered.
  const restored = restoreAll()
  const rendered = new Promise<void>((resolve) => {
    const stop = router.subscribe('onRendered', () => {
      stop()
      resolve()
    })
  })
  // A transition lets React hydrate in slices, yielding to the browser between them; the parts in
  // their own Suspense boundaries are hydrated after, each in its own slices (no long task).
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <HydrationGate>
          <I18nProvider i18n={i18n}>
            <RouterClient router={router} />
          </I18nProvider>
        </HydrationGate>
      </StrictMode>,
    )
  })
  startPwa()
  await Promise.all([restored, rendered])
  // What the route guards would have done in the browser, now that the saved order is known: the
  // order belongs to this event, and a placed order leads to its confirmation.
  const eventMatch = router.state.matches.find((m) => m.routeId === '/_default/$eventslug')
  const event = (eventMatch?.context as { event?: ShoutEvent | null } | undefined)?.event
  if (event) {
    adoptEvent(event)
    bindOrderToEvent(event.slug)
    if (router.state.matches.some((m) => m.routeId === '/_default/$eventslug/_steps')) {
      const to = await flowRedirect(router.state.location.pathname, router.state.location.search)
      if (to) {
        void router.navigate({
          to: to as '/$eventslug/design/location',
          params: { eventslug: event.slug },
          search: true,
          replace: true,
        })
      }
    }
  }
  // Resume: the installed app's start URL goes back to the last step within its lifetime
  const target = await startRedirect(window.location)
  if (target !== null) void router.navigate({ href: target, replace: true })
  void resumeOrders()
  void loadFeatureFlags()
}

/** The shell (no server render): everything is resolved first, then drawn in one go. */
async function renderHere(router: AppRouter, root: HTMLElement): Promise<void> {
  // Lighthouse (repeat visit): the location step's event and billboards (its
  // largest paint) are asked for first, in parallel with the catalog, the saved state and the resume
  // check, not after them; the route's loaders share the requests. A resume redirect elsewhere
  // wastes one request to the worker's cache at most.
  const atLocation = /^\/([^/]+)\/design\/location$/.exec(
    splitLocalePath(window.location.pathname).path,
  )
  if (atLocation?.[1]) {
    const slug = decodeURIComponent(atLocation[1])
    void loadEvent(slug)
    void fetchDevices(slug)
  }
  startPwa()
  // Lighthouse: the catalog of the URL's language and the saved state are fetched while the
  // resume check runs, not after it — each await in a row is one more round trip before first paint.
  const early = Promise.all([
    activateLocale(splitLocalePath(window.location.pathname).locale),
    restoreAll(),
  ])
  // Resume: the installed app's start URL goes back to the last step within its lifetime
  const target = await startRedirect(window.location)
  if (target !== null) router.history.replace(target)
  // spec §7 startup: order, templates and devices state restored before the flow renders.
  await early
  await activateLocale(splitLocalePath(router.history.location.pathname).locale)
  void resumeOrders()
  void loadFeatureFlags()
  // The route's code and data are resolved before React's first render, so that render draws the
  // page at once instead of an empty pending state in between.
  await router.load()
  // A transition lets React render the first screen in slices, yielding to the browser between them.
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

/** An order placed earlier (maybe while closed) is re-sent or checked again. */
async function resumeOrders(): Promise<void> {
  if (!(await orderToResume())) return
  const sending = await import('./stores/order-sending')
  await sending.resumeOrders()
}

// importing this module starts the app (src/app/main.tsx): no export to pick, fewer bytes in the entry
void start()
