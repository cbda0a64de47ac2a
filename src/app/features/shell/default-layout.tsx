import { Trans } from '@lingui/react/macro'
import { Outlet } from '@tanstack/react-router'
import { Suspense, useState } from 'react'
import { useSnapshot } from 'valtio'
import { useHydrated } from '../../lib/hydration'
import { loadWhenIdle } from '../../lib/idle'
import { optionalPart } from '../../lib/optional-part'
import { withWholeCatalog } from '../../locale/i18n'
import { uiStore } from '../../stores/ui'
import { Header } from './header'

// The footer (behind a flag) and the modals (until one opens) are their own chunks, their texts in
// the rest of the catalog. The footer is below the fold and arrives after the flags anyway: its code
// waits until the page has been idle (spec §9's rule for what is not needed yet). Offline before the
// service worker holds the app, neither can come: the page goes on without them.
const Footer = optionalPart(() =>
  loadWhenIdle(withWholeCatalog(() => import('./footer'))).then((m) => m.default),
)
const ModalHost = optionalPart(
  withWholeCatalog(() => import('./modal-host').then((m) => m.ModalHost)),
)

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
