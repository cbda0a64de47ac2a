import { type PageToWorkerMessage, SW_MESSAGES } from '../../contract/sw'
import { installOffer, pwaStore } from './pwa'

// The parts of the page's side of the service worker that can wait for the page's load event (issue
// 4): the worker's registration (with the browser's own API: workbox-window's 2 KB did no more than
// the lines below), the update prompt's actions, the install prompt's answer and the iOS hint. A chunk
// of its own, off the first screen's budget; pwa-banners.tsx, which calls it, is lazy too.

const IOS_HINT_KEY = 'shouts:ios-install-hint-dismissed'
// Long-open installs check for a new version every hour
const UPDATE_CHECK_MS = 60 * 60 * 1000

let registration: ServiceWorkerRegistration | null = null
let reloadRequested = false

function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  )
}

function isIosSafari(): boolean {
  const ua = navigator.userAgent
  const ios =
    /iPad|iPhone|iPod/.test(ua) || (ua.includes('Macintosh') && navigator.maxTouchPoints > 1)
  return ios && /Safari/.test(ua) && !/CriOS|FxiOS|EdgiOS/.test(ua)
}

/** The iOS hint, and (production builds only) the worker's registration. */
export function afterLoad(): void {
  try {
    pwaStore.showIosHint =
      isIosSafari() && !isStandalone() && localStorage.getItem(IOS_HINT_KEY) === null
    // shown once: this visit shows it (until dismissed), later visits do not
    if (pwaStore.showIosHint) localStorage.setItem(IOS_HINT_KEY, `shown:${Date.now()}`)
  } catch {
    pwaStore.showIosHint = false
  }
  // docs/development.md: in `vite` dev mode /sw.js is the HTML page; only production builds register
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  // reload only when this page asked for the update, never because another tab did
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloadRequested) window.location.reload()
  })
  register()
}

function register(): void {
  void navigator.serviceWorker
    .register('/sw.js', { scope: '/' })
    .then((registered) => {
      registration = registered
      // the new worker waits (it never skips waiting by itself): offer the update. There is an
      // update only when a worker controls the page already; the first one just takes over.
      const offer = () => {
        if (registered.waiting && navigator.serviceWorker.controller) pwaStore.updateReady = true
      }
      offer()
      registered.addEventListener('updatefound', () => {
        const installing = registered.installing
        installing?.addEventListener('statechange', () => {
          if (installing.state === 'installed') offer()
        })
      })
      setInterval(() => {
        if (navigator.onLine) void registered.update().catch(() => undefined)
      }, UPDATE_CHECK_MS)
    })
    .catch(() => undefined)
}

/** The shopper accepted the update: activate the waiting worker, then reload into it. */
export function applyUpdate(): void {
  const waiting = registration?.waiting
  if (!waiting) return
  reloadRequested = true
  const message: PageToWorkerMessage = { type: SW_MESSAGES.skipWaiting }
  waiting.postMessage(message)
}

export async function promptInstall(): Promise<void> {
  const prompt = installOffer.event
  if (!prompt) return
  await prompt.prompt()
  await prompt.userChoice.catch(() => undefined)
  installOffer.event = null
  pwaStore.canInstall = false
}

export function dismissIosHint(): void {
  pwaStore.showIosHint = false
  try {
    localStorage.setItem(IOS_HINT_KEY, String(Date.now()))
  } catch {
    // private mode: the hint comes back next time, harmless
  }
}
