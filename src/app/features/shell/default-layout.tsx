import { Trans } from '@lingui/react/macro'
import { Outlet } from '@tanstack/react-router'
import { lazy, Suspense, useState } from 'react'
import { useSnapshot } from 'valtio'
import { LINK_PREFETCH_IDLE_MS } from '../../../domain/prefetch'
import { useHydrated } from '../../lib/hydration'
import { afterIdle } from '../../lib/idle'
import { withWholeCatalog } from '../../locale/i18n'
import { uiStore } from '../../stores/ui'
import { Header } from './header'

// First-screen JavaScript: the footer (behind a flag) and the modals (until one opens)
// are their own chunks; the modals' texts are in the rest of the catalog. The footer is below the fold
// and arrives after the flags anyway: its code waits until the page has been idle for two seconds
// (spec §9's rule for what is not needed yet), off the first screen's network and budget.
const Footer = lazy(() =>
  afterIdle(LINK_PREFETCH_IDLE_MS).then(withWholeCatalog(() => import('./footer'))),
)
const ModalHost = lazy(withWholeCatalog(() => import('./modal-host')))

/** spec §2 default layout: header, content and the modals (the promo-code-error one among them). */
export function DefaultLayout() {
  const { featureFlags, modal } = useSnapshot(uiStore)
  // mounted from the first modal on, so that a closing dialog gives the focus back to its opener
  const [modals, setModals] = useState(false)
  if (modal && !modals) setModals(true)
  // the flags arrive after start: the server's HTML has no footer, and hydration must see the same
  const hydrated = useHydrated()
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        <Trans>Skip to content</Trans>
      </a>
      <Header />
      <div className="layout__content">
        <Outlet />
      </div>
      {/* spec §2: the footer only when the show-footer flag is on */}
      {hydrated && featureFlags['show-footer'] ? (
        <Suspense fallback={null}>
          <Footer />
        </Suspense>
      ) : null}
      {modals ? (
        <Suspense fallback={null}>
          <ModalHost />
        </Suspense>
      ) : null}
    </div>
  )
}
