/// <reference lib="webworker" />
// The service worker wires events only; the policy lives in cache-policy.ts, the order watch in
// order-watch.ts (conventions §5, squoosh: src/sw/index.ts).

import * as v from 'valibot'
import { CacheableResponsePlugin } from 'workbox-cacheable-response'
import { ExpirationPlugin } from 'workbox-expiration'
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies'
import {
  DevicesPageSchema,
  EventSchema,
  FIRST_DEVICES_PAGE,
  spotlight,
} from '../src/contract/catalogue'
import { content, DEFAULT_TEMPLATE_MODE, GeneratorsResponseSchema } from '../src/contract/content'
import { pathOf } from '../src/contract/endpoint'
import {
  BACKGROUND_SYNC_TAG,
  type PageToWorkerMessage,
  type SettledOrder,
  SW_MESSAGES,
} from '../src/contract/sw'
import { eventSlugFromPath, splitLocalePath, withLocalePrefix } from '../src/domain/locale'
import {
  CONSOLE_PATH,
  cacheLimits,
  cacheNames,
  classifyRequest,
  isKeptPagePath,
  PLAYER_PATH,
  pagesCacheName,
  staleCaches,
} from './cache-policy'
import { mapArchiveRange } from './map-archive'
import { addPendingOrder, pollPendingOrders, settledMessage } from './order-watch'
import { pageCache } from './page-cache'
import { playerContent } from './player-content'
import { keepAlertOrder, openAlertPage, playAlertOf, showPlayAlert } from './push'

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>
}

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

const eventPayload = new StaleWhileRevalidate({
  cacheName: cacheNames.eventPayload,
  plugins: [
    new CacheableResponsePlugin({ statuses: [200] }),
    new ExpirationPlugin(cacheLimits.eventPayload),
  ],
})
const images = new CacheFirst({
  cacheName: cacheNames.images,
  plugins: [
    new CacheableResponsePlugin({ statuses: [0, 200] }),
    new ExpirationPlugin({ ...cacheLimits.images, purgeOnQuotaError: true }),
  ],
})
const mapTiles = new CacheFirst({
  cacheName: cacheNames.mapTiles,
  plugins: [
    new CacheableResponsePlugin({ statuses: [0, 200] }),
    new ExpirationPlugin({ ...cacheLimits.mapTiles, purgeOnQuotaError: true }),
  ],
})

registerRoute(
  ({ request, url }) =>
    classifyRequest(request.method, url, self.location.origin) === 'event-payload',
  eventPayload,
)
registerRoute(
  ({ request, url }) => classifyRequest(request.method, url, self.location.origin) === 'image',
  images,
)
registerRoute(
  ({ request, url }) => classifyRequest(request.method, url, self.location.origin) === 'map-tile',
  mapTiles,
)

registerRoute(
  ({ request, url }) =>
    classifyRequest(request.method, url, self.location.origin) === 'map-archive',
  ({ request }) => mapArchiveRange(request),
)
// The code of the later screens (the map, charts, the advertisers' pages), kept once used
registerRoute(
  ({ request, url }) => classifyRequest(request.method, url, self.location.origin) === 'build-file',
  new CacheFirst({
    cacheName: cacheNames.buildFiles,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ ...cacheLimits.buildFiles, purgeOnQuotaError: true }),
    ],
  }),
)

// An order's page (a play alert's tap) opens offline with the order as last seen
registerRoute(
  ({ request, url }) =>
    classifyRequest(request.method, url, self.location.origin) === 'order-summary',
  new NetworkFirst({
    cacheName: cacheNames.orders,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin(cacheLimits.orders),
    ],
  }),
)

registerRoute(
  ({ request, url }) =>
    classifyRequest(request.method, url, self.location.origin) === 'player-content',
  ({ request }) => playerContent(request),
)

/** Fetches an event's payload, devices, templates and preview images into the caches. */
async function warmEvent(slug: string): Promise<void> {
  const cache = await caches.open(cacheNames.eventPayload)
  const eventUrl = pathOf(spotlight.event, { slug })
  const eventRes = await fetch(eventUrl)
  if (!eventRes.ok) return
  await cache.put(eventUrl, eventRes.clone())
  const event = v.safeParse(EventSchema, await eventRes.json())
  if (!event.success) return
  const devicesUrl = pathOf(spotlight.devices, { slug }, FIRST_DEVICES_PAGE)
  const devicesRes = await fetch(devicesUrl)
  if (!devicesRes.ok) return
  await cache.put(devicesUrl, devicesRes.clone())
  const page = v.safeParse(DevicesPageSchema, await devicesRes.json())
  if (!page.success) return
  const devices = page.output.devices
  const imageCache = await caches.open(cacheNames.images)
  const sizes = new Map(devices.map((d) => [`${d.contentWidth}x${d.contentHeight}`, d]))
  for (const d of sizes.values()) {
    const url = pathOf(
      content.generators,
      {},
      {
        types: event.output.allowedContentGeneratorTypes,
        widthPx: d.contentWidth,
        heightPx: d.contentHeight,
        modes: [DEFAULT_TEMPLATE_MODE],
      },
    )
    const res = await fetch(url)
    if (!res.ok) continue
    await cache.put(url, res.clone())
    const list = v.safeParse(GeneratorsResponseSchema, await res.json())
    if (!list.success) continue
    await Promise.all(
      list.output.generators
        .map((g) => g.previewImageUrl)
        .filter((u): u is string => Boolean(u))
        .map((u) => imageCache.add(u).catch(() => undefined)),
    )
  }
  await Promise.all(
    devices
      .map((d) => d.imageUrl)
      .filter((u): u is string => Boolean(u))
      .map((u) => imageCache.add(u).catch(() => undefined)),
  )
}

/** The pages a shopper comes back to: the open page's own, and its event's location step
 * and QR code landing (/{event}?device=…, the server's redirect to that step) in its language. */
async function warmPages(url: URL): Promise<void> {
  if (url.origin !== self.location.origin || !isKeptPagePath(url.pathname)) return
  const slug = eventSlugFromPath(url.pathname)
  const wanted = new Set([url.pathname])
  if (slug) {
    const { locale } = splitLocalePath(url.pathname)
    wanted.add(withLocalePrefix(`/${slug}/design/location`, locale))
    wanted.add(withLocalePrefix(`/${slug}`, locale))
  }
  // one at a time (weak mobile data); the landing's answer is the location step's page again
  for (const path of wanted) await pages.refresh(new URL(path, url))
}

async function notifyPages(settled: SettledOrder): Promise<void> {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  for (const page of pages) page.postMessage(settledMessage(settled))
}

self.addEventListener('install', (event) => {
  // The worker waits (no skipWaiting here): the page offers the update and never reloads by itself.
  // When the install comes from a page that names an event (a QR code start URL), cache that event.
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (pages) => {
      const slugs = new Set(
        pages
          .map((p) => eventSlugFromPath(new URL(p.url).pathname))
          .filter((s): s is string => s !== null),
      )
      await Promise.all([
        ...[...slugs].map((s) => warmEvent(s).catch(() => undefined)),
        ...pages.map((p) => warmPages(new URL(p.url))),
      ])
    }),
  )
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
