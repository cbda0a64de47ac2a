import { Trans } from '@lingui/react/macro'
import { Outlet } from '@tanstack/react-router'
import { useSnapshot } from 'valtio'
import { uiStore } from '../../stores/ui'
import { Footer } from './footer'
import { Header } from './header'
import { ModalHost } from './modal-host'

/** spec §2 default layout: header, content and the modals (the promo-code-error one among them). */
export function DefaultLayout() {
  const { featureFlags } = useSnapshot(uiStore)
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
      {featureFlags['show-footer'] ? <Footer /> : null}
      <ModalHost />
    </div>
  )
}
