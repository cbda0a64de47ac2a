import { useLingui } from '@lingui/react/macro'
import { Outlet, Scripts, useRouterState } from '@tanstack/react-router'
import { Suspense, useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { useHydrated } from '../../lib/hydration'
import { optionalPart } from '../../lib/optional-part'
import { pwaStore } from '../../lib/pwa'
import { setPageLanguage, withWholeCatalog } from '../../locale/i18n'
import { ProgressBar } from '../../ui/progress-bar'

// The banners' code loads only when there is one to show (offline, an update, install): most first
// visits show none. Offline before the service worker holds the app, it cannot come: no banner then.
const PwaBanners = optionalPart(
  withWholeCatalog(() => import('./pwa-banners').then((m) => m.PwaBanners)),
)

function Banners() {
  const live = useSnapshot(pwaStore)
  // what the server rendered until the page is hydrated: nothing to show
  const hydrated = useHydrated()
  const update = live.updateReady && !live.updateDismissed
  const any = hydrated && (!live.online || update || live.canInstall || live.showIosHint)
  if (!any) return <div className="pwa-banners" />
  return (
    <Suspense fallback={<div className="pwa-banners" />}>
      <PwaBanners />
    </Suspense>
  )
}

export function RootLayout() {
  const { t, i18n } = useLingui()
  const roomOfItsOwn = useRouterState({
    select: (s) => /^\/(play\/|ops(\/|$))/.test(s.location.pathname),
  })
  useEffect(() => {
    // spec §1: the page title (the console names its own pages); the language attribute follows
    // the locale (spec §2)
    if (!roomOfItsOwn) document.title = t`Share the Gift of a Billboard`
    setPageLanguage(i18n.locale)
  }, [t, i18n.locale, roomOfItsOwn])
  // The billboard player is a screen of its own; the shop's banners (offline, update,
  // install) would be shown to a street. nor are they the operators' console's.
  if (roomOfItsOwn) return <Outlet />
  return (
    <>
      <ProgressBar />
      <Banners />
      <Outlet />
      {/* the router's state for hydration: written by the server, where each script
          removes itself once run; the browser's render has none (and leaves the code out) */}
      {import.meta.env.SSR ? <Scripts /> : null}
    </>
  )
}
