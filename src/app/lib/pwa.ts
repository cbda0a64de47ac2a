import { proxy } from 'valtio'
import {
  type OrderSettledMessage,
  type PageToWorkerMessage,
  type SettledOrder,
  SW_MESSAGES,
} from '../../contract/sw'
import { loadWhenIdle } from './idle'
import { onReconnect } from './reconnect'

// The page side of the service worker: the online state, the install prompt's event and
// messages to and from the worker, from the start. Registration, the update and the iOS hint wait for
// the page's load event in their own chunk (pwa-worker.ts): the budget counts the first screen's bytes.

export type BeforeInstallPromptEvent = Event & {
  prompt: () => Promise<void>
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

type PwaState = {
  online: boolean
  /** a new version is installed and waiting */
  updateReady: boolean
  /** the shopper said "not now" to it on this page */
  updateDismissed: boolean
  /** the browser offers installation (beforeinstallprompt) */
  canInstall: boolean
  /** iOS Safari, not installed, hint not dismissed yet */
  showIosHint: boolean
}

export const pwaStore = proxy<PwaState>({
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  updateReady: false,
  updateDismissed: false,
  canInstall: false,
  showIosHint: false,
})

export const APP_VERSION = __APP_VERSION__

/** The browser's offer to install (beforeinstallprompt), kept until the shopper answers it. */
export const installOffer: { event: BeforeInstallPromptEvent | null } = { event: null }
const settledListeners = new Set<(settled: SettledOrder) => void>()

/** Called by the order code: an ORDER_SETTLED from the worker. */
export function onOrderSettled(listener: (settled: SettledOrder) => void): () => void {
  settledListeners.add(listener)
  return () => settledListeners.delete(listener)
}

/** Posts a message to the active worker (no-op without one: dev mode, old browsers). */
export function postToWorker(message: PageToWorkerMessage): void {
  if (!('serviceWorker' in navigator)) return
  void navigator.serviceWorker.ready
    .then((registration) => registration.active?.postMessage(message))
    .catch(() => undefined)
}

/** Online state, the install prompt, the worker's messages; after load, the rest (pwa-worker.ts). */
export function startPwa(): void {
  const setOnline = () => {
    pwaStore.online = navigator.onLine
  }
  window.addEventListener('online', setOnline)
  window.addEventListener('offline', setOnline)

  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault()
    installOffer.event = event as BeforeInstallPromptEvent
    pwaStore.canInstall = true
  })
  window.addEventListener('appinstalled', () => {
    installOffer.event = null
    pwaStore.canInstall = false
  })

  if (document.readyState === 'complete') afterLoad()
  else window.addEventListener('load', afterLoad, { once: true })
  if (!('serviceWorker' in navigator)) return
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as OrderSettledMessage | undefined
    if (data?.type === SW_MESSAGES.orderSettled) {
      for (const listener of settledListeners) listener(data.result)
    }
  })
}

/**
 * Once the page has loaded and then been idle (spec §9's wait for what is not needed yet; the
 * worker's precache must not compete with the first screen either): the iOS hint, and in production
 * builds the worker's registration and its updates. Offline before any worker controls the page,
 * the chunk cannot come: it is asked for again once the browser is back online.
 */
function afterLoad(): void {
  void loadWhenIdle(() => import('./pwa-worker')).then(
    (worker) => worker.afterLoad(),
    () => {
      const stop = onReconnect(() => {
        stop()
        afterLoad()
      })
    },
  )
}
