import { Trans, useLingui } from '@lingui/react/macro'
import { useRouterState } from '@tanstack/react-router'
import { useSnapshot } from 'valtio'
import { useHydrated } from '../../lib/hydration'
import { pwaStore } from '../../lib/pwa'
import { applyUpdate, dismissIosHint, dismissUpdate, promptInstall } from '../../lib/pwa-worker'
import { mayOfferUpdate } from '../../lib/update-moment'
import { orderStore } from '../../stores/order'
import { savesSettled } from '../../stores/persist'
import { Button } from '../../ui/button'

/** Reloads into the new version once what the shopper typed is saved (the page comes back with it). */
async function reloadIntoUpdate(): Promise<void> {
  await savesSettled()
  applyUpdate()
}

/** Offline banner, update prompt, install button and the iOS Add to Home Screen steps. */
export function PwaBanners() {
  const { t } = useLingui()
  const live = useSnapshot(pwaStore)
  const order = useSnapshot(orderStore)
  // what the server rendered until the page is hydrated: online, nothing to offer
  const hydrated = useHydrated()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const pwa = hydrated
    ? live
    : { online: true, updateReady: false, canInstall: false, showIosHint: false }
  // offered at a calm moment only: never while the shopper pays (lib/update-moment.ts)
  const offerUpdate = pwa.updateReady && !live.updateDismissed && mayOfferUpdate(pathname, order)
  return (
    <div className="pwa-banners">
      {pwa.online ? null : (
        <p className="pwa-banner pwa-banner--offline" role="status">
          <Trans>
            You are offline. Everything you type is kept; sending waits until you are back online.
          </Trans>
        </p>
      )}
      {offerUpdate ? (
        <section className="pwa-banner pwa-banner--update" aria-label={t`New version`}>
          <p role="status">
            <Trans>A new version is ready — reload to use it.</Trans>
          </p>
          <div className="pwa-banner__actions">
            <Button kind="white" size="small" onClick={() => void reloadIntoUpdate()}>
              <Trans>Reload</Trans>
            </Button>
            <Button kind="link" size="small" textColor="white" onClick={dismissUpdate}>
              <Trans>Not now</Trans>
            </Button>
          </div>
        </section>
      ) : null}
      {pwa.canInstall ? (
        <div className="pwa-banner pwa-banner--install">
          <p>
            <Trans>Install Shouts on your phone for quick access.</Trans>
          </p>
          <Button kind="orange" size="small" onClick={() => void promptInstall()}>
            <Trans>Install the app</Trans>
          </Button>
        </div>
      ) : null}
      {pwa.showIosHint ? (
        <aside className="pwa-banner pwa-banner--ios" aria-label={t`Add to Home Screen`}>
          <p>
            <Trans>To install Shouts, tap the Share button, then choose Add to Home Screen.</Trans>
          </p>
          <Button kind="link" size="small" onClick={dismissIosHint}>
            <Trans>Dismiss</Trans>
          </Button>
        </aside>
      ) : null}
    </div>
  )
}
