import { proxy } from 'valtio'
import {
  type OrderSettledMessage,
  type PageToWorkerMessage,
  type SettledOrder,
  SW_MESSAGES,
} from '../../contract/sw'

// The page side of the service worker (issue 4): registration (with the browser's own API: issue 11
// counts the first screen's bytes, and workbox-window's 2 KB did no more than the lines below), the update
// prompt, the install prompt, the online state, and messages to the worker.

type BeforeInstallPromptEvent = Event & {
  prompt: () => Promise<void>
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

type PwaState = {
  online: boolean
  /** a new version is installed and waiting */
  updateReady: boolean
  /** the browser offers installation (beforeinstallprompt) */
  canInstall: boolean
  /** iOS Safari, not installed, hint not dismissed yet */
  showIosHint: boolean
}

export const pwaStore = proxy<PwaState>({
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  updateReady: false,
  canInstall: false,
  showIosHint: false,
})

export const APP_VERSION = __APP_VERSION__
const IOS_HINT_KEY = 'shouts:ios-install-hint-dismissed'
// issue 4: long-open installs check for a new version every hour
const UPDATE_CHECK_MS = 60 * 60 * 1000

let registration: ServiceWorkerRegistration | null = null
let deferredPrompt: BeforeInstallPromptEvent | null = null
let reloadRequested = false
const settledListeners = new Set<(settled: SettledOrder) => void>()

/** Called by the order code: an ORDER_SETTLED from the worker. */
export function onOrderSettled(listener: (settled: SettledOrder) => void): () => void {
  settledListeners.add(listener)
  return () => settledListeners.delete(listener)
}

export function isStandalone(): boolean {
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

/** Posts a message to the active worker (no-op without one: dev mode, old browsers). */
export function postToWorker(message: PageToWorkerMessage): void {
  if (!('serviceWorker' in navigator)) return
  void navigator.serviceWorker.ready
    .then((registration) => registration.active?.postMessage(message))
    .catch(() => undefined)
}

/** Online state, install prompt, iOS hint and (production builds only) the service worker. */
export function startPwa(): void {
  const setOnline = () => {
    pwaStore.online = navigator.onLine
  }
  window.addEventListener('online', setOnline)
  window.addEventListener('offline', setOnline)

  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault()
    deferredPrompt = event as BeforeInstallPromptEvent
    pwaStore.canInstall = true
  })
  window.addEventListener('appinstalled', () => {
    deferredPrompt = null
    pwaStore.canInstall = false
  })
  try {
    pwaStore.showIosHint =
      isIosSafari() && !isStandalone() && localStorage.getItem(IOS_HINT_KEY) === null
    // shown once: this visit shows it (until dismissed), later visits do not
    if (pwaStore.showIosHint) localStorage.setItem(IOS_HINT_KEY, `shown:${Date.now()}`)
  } catch {
    pwaStore.showIosHint = false
  }

  // toolchain.md: in `vite` dev mode /sw.js is the HTML page; only production builds register
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as OrderSettledMessage | undefined
    if (data?.type === SW_MESSAGES.orderSettled) {
      for (const listener of settledListeners) listener(data.result)
    }
  })
  // reload only when this page asked for the update, never because another tab did
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloadRequested) window.location.reload()
  })
  // registered once the page has loaded, so that the worker's precache does not compete with it
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
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

/** Checks the server for a new worker now (also run hourly). */
export async function checkForUpdate(): Promise<void> {
  await registration?.update()
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
  const prompt = deferredPrompt
  if (!prompt) return
  await prompt.prompt()
  await prompt.userChoice.catch(() => undefined)
  deferredPrompt = null
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
