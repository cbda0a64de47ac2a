/// <reference lib="webworker" />
// The service worker wires events only; the policy lives in cache-policy.ts, the warming in warm.ts,
// the order watch in order-watch.ts (conventions §5, squoosh: src/sw/index.ts).

import { CacheableResponsePlugin } from 'workbox-cacheable-response'
import { ExpirationPlugin } from 'workbox-expiration'
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkFirst, StaleWhileRevalidate, type Strategy } from 'workbox-strategies'
import {
  BACKGROUND_SYNC_TAG,
  type PageToWorkerMessage,
  type SettledOrder,
  SW_MESSAGES,
} from '../src/contract/sw'
import {
  CONSOLE_PATH,
  cacheLimits,
  cacheNames,
  classifyRequest,
  PLAYER_PATH,
  pagesCacheName,
  type RequestKind,
  staleCaches,
} from './cache-policy'
import { mapArchiveRange } from './map-archive'
import { addPendingOrder, pollPendingOrders, settledMessage } from './order-watch'
import { pageCache } from './page-cache'
import { playerContent } from './player-content'
import { keepAlertOrder, openAlertPage, playAlertOf, showPlayAlert } from './push'
import { warmEvent, warmOpenWindows } from './warm'

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>
}

// workbox-routing's handler callback (its type lives in workbox-core, not a dependency of ours)
type RouteHandlerCallback = Extract<
  Parameters<typeof registerRoute>[1],
  (...args: never[]) => unknown
>
type SyncEvent = ExtendableEvent & { tag: string }
type SyncManagerLike = { register(tag: string): Promise<void> }

// the build's manifest, written in once by the build (it allows a single mention)
const precacheManifest = self.__WB_MANIFEST
const pagesCache = pagesCacheName(precacheManifest)
precacheAndRoute(precacheManifest)
cleanupOutdatedCaches()

// Every navigation renders offline: the server's page kept from an earlier visit (painted
// before any script runs), else the precached app shell, which the app renders in the browser.
const appShell = createHandlerBoundToURL('/index.html')
const pages = pageCache(pagesCache)
// The billboard player's page sends no referrer, also when its shell comes from here (the
// server says so in a header; a response made by the worker must say it again).
registerRoute(
  new NavigationRoute(
    async (options) => {
      const shell = await appShell(options)
      const headers = new Headers(shell.headers)
      headers.set('Referrer-Policy', 'no-referrer')
      return new Response(shell.body, { status: shell.status, headers })
    },
    { allowlist: [PLAYER_PATH] },
  ),
)
registerRoute(
  new NavigationRoute(
    async (options) => {
      const kept = await pages.match(options.url)
      options.event.waitUntil(pages.refreshIfOld(options.url))
      return kept ?? appShell(options)
    },
    {
      // The operators' console always comes from the network (never a stale shell whose
      // chunks are not precached); the worker keeps out of its pages, and of the keepsake pages
      // (/s/{id}: the server's, without the app)
      denylist: [/^\/api\//, /\.[a-z0-9]+$/i, CONSOLE_PATH, /^\/s\//],
    },
  ),
)

// Each request is classified once (cache-policy.ts); the kinds the worker answers map to their
// strategy, every other request goes to the network untouched.
const strategies: Partial<Record<RequestKind, RouteHandlerCallback>> = {
  'event-payload': strategy(
    new StaleWhileRevalidate({
      cacheName: cacheNames.eventPayload,
      plugins: [
        new CacheableResponsePlugin({ statuses: [200] }),
        new ExpirationPlugin(cacheLimits.eventPayload),
      ],
    }),
  ),
  image: strategy(
    new CacheFirst({
      cacheName: cacheNames.images,
      plugins: [
        new CacheableResponsePlugin({ statuses: [0, 200] }),
        new ExpirationPlugin({ ...cacheLimits.images, purgeOnQuotaError: true }),
      ],
    }),
  ),
  'map-tile': strategy(
    new CacheFirst({
      cacheName: cacheNames.mapTiles,
      plugins: [
        new CacheableResponsePlugin({ statuses: [0, 200] }),
        new ExpirationPlugin({ ...cacheLimits.mapTiles, purgeOnQuotaError: true }),
      ],
    }),
  ),
  'map-archive': ({ request }) => mapArchiveRange(request),
  // The code of the later screens (the map, charts, the advertisers' pages), kept once used
  'build-file': strategy(
    new CacheFirst({
      cacheName: cacheNames.buildFiles,
      plugins: [
        new CacheableResponsePlugin({ statuses: [200] }),
        new ExpirationPlugin({ ...cacheLimits.buildFiles, purgeOnQuotaError: true }),
      ],
    }),
  ),
  // An order's page (a play alert's tap) opens offline with the order as last seen
  'order-summary': strategy(
    new NetworkFirst({
      cacheName: cacheNames.orders,
      plugins: [
        new CacheableResponsePlugin({ statuses: [200] }),
        new ExpirationPlugin(cacheLimits.orders),
      ],
    }),
  ),
  'player-content': ({ request }) => playerContent(request),
}

function strategy(s: Strategy): RouteHandlerCallback {
  return (options) => s.handle(options)
}

registerRoute(
  ({ request, url }) => {
    const kind = classifyRequest(request.method, url, self.location.origin)
    // the match's object is handed to the handler as its params (workbox-routing)
    return strategies[kind] ? { kind } : false
  },
  (options) => {
    const { kind } = options.params as { kind: RequestKind }
    return (strategies[kind] as RouteHandlerCallback)(options)
  },
)

async function notifyPages(settled: SettledOrder): Promise<void> {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  for (const page of pages) page.postMessage(settledMessage(settled))
}

self.addEventListener('install', (event) => {
  // The worker waits (no skipWaiting here): the page offers the update and never reloads by itself.
  // When the install comes from a page that names an event (a QR code start URL), cache that event.
  event.waitUntil(warmOpenWindows(pages))
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys()
      await Promise.all(staleCaches(names, [pagesCache]).map((name) => caches.delete(name)))
      await self.clients.claim()
      await pollPendingOrders(notifyPages, 30_000)
    })(),
  )
})

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = event.data as PageToWorkerMessage | undefined
  if (!message || typeof message !== 'object') return
  switch (message.type) {
    case SW_MESSAGES.skipWaiting:
      void self.skipWaiting()
      break
    case SW_MESSAGES.cacheEvent:
      event.waitUntil(warmEvent(message.eventSlug).catch(() => undefined))
      break
    case SW_MESSAGES.watchOrder:
      event.waitUntil(
        (async () => {
          await addPendingOrder({
            eventSlug: message.eventSlug,
            guid: message.guid,
            since: Date.now(),
          })
          const sync = (self.registration as ServiceWorkerRegistration & { sync?: SyncManagerLike })
            .sync
          if (sync) await sync.register(BACKGROUND_SYNC_TAG).catch(() => undefined)
          await pollPendingOrders(notifyPages)
        })(),
      )
      break
  }
})

self.addEventListener('sync', (event) => {
  const syncEvent = event as SyncEvent
  if (syncEvent.tag !== BACKGROUND_SYNC_TAG) return
  syncEvent.waitUntil(
    pollPendingOrders(notifyPages, 60_000).then((done) => {
      // A rejected sync is retried by the browser later, with its own back-off.
      if (!done) throw new Error('orders still processing')
    }),
  )
})

self.addEventListener('push', (event) => {
  const alert = playAlertOf(event.data)
  if (alert)
    event.waitUntil(
      Promise.all([showPlayAlert(alert), keepAlertOrder(alert).catch(() => undefined)]),
    )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  event.waitUntil(openAlertPage(event.notification.data))
})
