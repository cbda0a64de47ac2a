import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { useHydrated } from '../../lib/hydration'
import { pwaStore } from '../../lib/pwa'
import { applyUpdate, dismissIosHint, promptInstall } from '../../lib/pwa-worker'
import { orderStore } from '../../stores/order'
import { Button } from '../../ui/button'

/** An order between Place order and its final state must not be interrupted by a reload. */
export function orderInProgress(o: { sendOrderStatus: unknown; orderStatus: unknown }): boolean {
  return o.sendOrderStatus === 'Running' || o.orderStatus === 'Processing'
}

/** Offline banner, update prompt, install button and the iOS Add to Home Screen steps. */
export function PwaBanners() {
  const { t } = useLingui()
  const live = useSnapshot(pwaStore)
  const order = useSnapshot(orderStore)
  // what the server rendered until the page is hydrated: online, nothing to offer
  const hydrated = useHydrated()
  const pwa = hydrated
    ? live
    : { online: true, updateReady: false, canInstall: false, showIosHint: false }
  const busy = hydrated && orderInProgress(order)
  return (
    <div className="pwa-banners">
      {pwa.online ? null : (
        <p className="pwa-banner pwa-banner--offline" role="status">
          <Trans>
            You are offline. Everything you type is kept; sending waits until you are back online.
          </Trans>
        </p>
      )}
      {pwa.updateReady ? (
        <div className="pwa-banner pwa-banner--update" role="status">
          <p>
            <Trans>A new version is available</Trans>
            {busy ? (
              <>
                {' '}
                <Trans>(you can reload once your order is placed)</Trans>
              </>
            ) : null}
          </p>
          <Button kind={busy ? 'disabled' : 'black'} size="small" onClick={applyUpdate}>
            <Trans>Reload</Trans>
          </Button>
        </div>
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
