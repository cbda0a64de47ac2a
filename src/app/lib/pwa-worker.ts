import { Workbox } from 'workbox-window'
import type { SW_MESSAGES } from '../../contract/sw'
import { installOffer, pwaStore } from './pwa'

// The parts of the page's side of the service worker that can wait for the page's load event: the
// worker's registration and its updates (workbox-window, the design card's choice), the update
// prompt's actions, the install prompt's answer and the iOS hint. A chunk of its own, off the first
// screen's budget; pwa-banners.tsx, which calls it, is lazy too.

const IOS_HINT_KEY = 'shouts:ios-install-hint-dismissed'
// Long-open installs check for a new version every hour
const UPDATE_CHECK_MS = 60 * 60 * 1000
// workbox-window's messageSkipWaiting() sends { type: 'SKIP_WAITING' }: the message sw.ts answers
const _skipWaitingIsOurs: typeof SW_MESSAGES.skipWaiting = 'SKIP_WAITING'

let workbox: Workbox | null = null
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
  register()
}

function register(): void {
  const wb = new Workbox('/sw.js', { scope: '/' })
  workbox = wb
  // A new version installed and waiting: found by this page, by another tab, or left waiting by an
  // earlier visit. The worker never skips waiting by itself; the first one just takes over (nothing
  // controlled the page before it: no update to offer).
  wb.addEventListener('waiting', () => {
    if (navigator.serviceWorker.controller) pwaStore.updateReady = true
  })
  // reload only when this page asked for the update, never because another tab did
  wb.addEventListener('controlling', () => {
    if (reloadRequested) window.location.reload()
  })
  void wb
    .register()
    .then((registered) => {
      if (!registered) return
      setInterval(() => {
        if (navigator.onLine) void wb.update().catch(() => undefined)
      }, UPDATE_CHECK_MS)
    })
    .catch(() => undefined)
}

/** The shopper accepted the update (and what they typed is saved: pwa-banners.tsx waits for it):
 * the waiting worker takes over, and the page reloads into it. */
export function applyUpdate(): void {
  if (!workbox || reloadRequested) return
  reloadRequested = true
  workbox.messageSkipWaiting()
}

/** "Not now": the prompt leaves this page; the next page load offers the waiting version again. */
export function dismissUpdate(): void {
  pwaStore.updateDismissed = true
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
