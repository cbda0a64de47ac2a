// Which request goes to which cache: the app shell is precached; the event payload, its
// devices and its templates are served stale-while-revalidate; images and map tiles live in bounded
// runtime caches. Everything else from the API goes to the network: never slot availability, payment
// or order calls.

import { spotlight } from '../src/contract/catalogue'
import { content } from '../src/contract/content'
import { API_BASE, type Endpoint, matchesPath } from '../src/contract/endpoint'
import { MAP_GLYPHS_PREFIX, MAP_TILES_PATH, map } from '../src/contract/map'
import { meta } from '../src/contract/meta'
import { order } from '../src/contract/order'
import { PLAYER_CACHE_NAME } from '../src/contract/sw'

export const CACHE_VERSION = 'v1'
export const CACHE_PREFIX = 'shouts-'

export const cacheNames = {
  eventPayload: `${CACHE_PREFIX}event-payload-${CACHE_VERSION}`,
  images: `${CACHE_PREFIX}images-${CACHE_VERSION}`,
  mapTiles: `${CACHE_PREFIX}map-tiles-${CACHE_VERSION}`,
  // the map archive's ranges, each kept as a whole answer under its range (sw/map-archive.ts)
  mapArchive: `${CACHE_PREFIX}map-archive-${CACHE_VERSION}`,
  // the build's code the first screens do not need (map, charts, advertisers): kept once used
  buildFiles: `${CACHE_PREFIX}build-files-${CACHE_VERSION}`,
  // Filled by the billboard player page with its window's content files (versioned there)
  player: PLAYER_CACHE_NAME,
  orders: `${CACHE_PREFIX}orders-${CACHE_VERSION}`,
} as const

export const cacheLimits = {
  images: { maxEntries: 120, maxAgeSeconds: 7 * 24 * 3600 },
  mapTiles: { maxEntries: 400, maxAgeSeconds: 3 * 24 * 3600 },
  // the tiles around an event's billboards (at most about 5 MB: src/app/lib/map-offline.ts) and the
  // archive's directories, for the weeks of an event
  mapArchive: { maxEntries: 1500, maxAgeSeconds: 21 * 24 * 3600 },
  buildFiles: { maxEntries: 80, maxAgeSeconds: 30 * 24 * 3600 },
  eventPayload: { maxEntries: 60, maxAgeSeconds: 24 * 3600 },
  // an order's page opened from a play alert offline shows the order as last seen (its summary holds
  // no contact details); an event's orders are over within its weeks
  orders: { maxEntries: 20, maxAgeSeconds: 30 * 24 * 3600 },
} as const

export type RequestKind =
  | 'event-payload'
  | 'image'
  | 'map-tile'
  | 'map-archive'
  | 'build-file'
  | 'player-content'
  | 'order-summary'
  | 'network-only'
  | 'not-ours'

// The event payload: what the flow reads of an event and may show offline. Named by the
// endpoints, so a path the contract changes is still cached.
const EVENT_PAYLOAD_ENDPOINTS: readonly Endpoint[] = [
  spotlight.event,
  spotlight.devices,
  content.generators,
  meta.featureFlags,
  map.settings,
]

const IMAGE_PATH = /^\/(catalogue|templates)\/.+\.(png|jpe?g|webp|gif|svg|mp4)$/i

/** The operators' console's pages (/ops, /fr/ops, /de/ops and below), which the worker
 * leaves to the network: no precached shell, no stale page for an operator. */
export const CONSOLE_PATH = /^\/((fr|de)\/)?ops(\/|$)/

/** The billboard player's pages, which get the plain shell (no referrer), never a kept page. */
export const PLAYER_PATH = /^\/play\//

/** Decides the strategy for one request. The map's parts all come from the shop itself. */
export function classifyRequest(method: string, url: URL, selfOrigin: string): RequestKind {
  if (method !== 'GET') return 'network-only'
  if (url.origin !== selfOrigin) return 'not-ours'
  if (url.pathname === MAP_TILES_PATH) return 'map-archive'
  if (url.pathname.startsWith(MAP_GLYPHS_PREFIX)) return 'map-tile'
  // hashed names: a file never changes (those of the first screens are precached before this); the
  // console's code is not the shoppers' to keep
  if (/^\/assets\/ops[-/]/.test(url.pathname)) return 'not-ours'
  if (url.pathname.startsWith('/assets/')) return 'build-file'
  if (url.pathname.startsWith('/api/')) {
    const apiPath = url.pathname.startsWith(`${API_BASE}/`)
      ? url.pathname.slice(API_BASE.length)
      : null
    if (apiPath !== null && EVENT_PAYLOAD_ENDPOINTS.some((e) => matchesPath(e, apiPath))) {
      return 'event-payload'
    }
    // a shout's file: the billboard player's copy when it has one, else the network
    if (apiPath !== null && matchesPath(content.file, apiPath)) return 'player-content'
    if (apiPath !== null && matchesPath(order.summary, apiPath)) return 'order-summary'
    return 'network-only'
  }
  if (IMAGE_PATH.test(url.pathname)) return 'image'
  return 'not-ours'
}

/** Caches this worker version does not own, to delete on activate (`also`: the ones named at run
 * time, such as this build's pages). */
export function staleCaches(existing: readonly string[], also: readonly string[] = []): string[] {
  const current = new Set<string>([...Object.values(cacheNames), ...also])
  return existing.filter((name) => name.startsWith(CACHE_PREFIX) && !current.has(name))
}

// The repeat visit: the server's own pages (its render of the first screens, its shell of
// the later steps) are kept by the worker and answer the next visit at once, so the location step is
// painted from the HTML before any script runs, as on a first visit, instead of waiting for the app to
// render the precached shell in the browser. They are data as old as the event payload's (the same
// limits); the app's calls for slots, payment and orders still go to the network.

/** The pages' cache belongs to one build: a page names the build's code (/assets/…), which the next
 * worker no longer precaches. The name carries a digest of the precache manifest, so a new worker
 * starts with no pages and `staleCaches` deletes the old build's on activate. */
export function pagesCacheName(manifest: ReadonlyArray<{ url: string; revision: string | null }>) {
  // FNV-1a over the manifest's entries: a name, not a secret
  let hash = 0x811c9dc5
  for (const entry of manifest) {
    for (const ch of `${entry.url}@${entry.revision ?? ''}|`) {
      hash ^= ch.charCodeAt(0)
      hash = Math.imul(hash, 0x01000193) >>> 0
    }
  }
  return `${CACHE_PREFIX}pages-${hash.toString(36)}`
}

export const pageLimits = {
  maxEntries: 40,
  maxAgeSeconds: cacheLimits.eventPayload.maxAgeSeconds,
  /** a kept page younger than this is not asked for again on the next visit (weak mobile data) */
  refreshAfterSeconds: 60,
} as const

/** What the server renders depends on its path and on a QR code's billboard only (`?device=`,
 * src/contract/ssr.ts): one page per path and billboard, whatever else the query holds. */
export function pageCacheKey(url: URL): string {
  return `${url.origin}${pageRequestPath(url)}`
}

/** The path (and the QR code's billboard) the worker asks the server for. */
export function pageRequestPath(url: URL): string {
  const device = url.searchParams.get('device')
  return device ? `${url.pathname}?device=${encodeURIComponent(device)}` : url.pathname
}

/** A page worth keeping: a plain 200 HTML answer that is the same for every shopper at that path. The
 * root page is not (it speaks the cookie's or the browser's language: `Vary: Cookie`). A redirect
 * followed to such a page is kept as a redirect (the QR code's landing, page-cache.ts). */
export function keepsPage(response: {
  status: number
  headers: { get(name: string): string | null }
}): boolean {
  if (response.status !== 200) return false
  if (!/^text\/html\b/i.test(response.headers.get('content-type') ?? '')) return false
  const vary = (response.headers.get('vary') ?? '').toLowerCase()
  return !/(^|,)\s*(cookie|accept-language|\*)\s*(,|$)/.test(vary)
}

/** The build's files a page loads or names (scripts, styles, modulepreload links, also those in the
 * inert <template> of the app's chunks): a page is kept only when this worker precaches them all,
 * that is when the page and the worker are of the same build. */
export function pageAssets(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="(\/assets\/[^"?#]+)"/g)].map((m) => m[1] as string)
}

/** The shop's pages, which the worker may keep: not the console's, not the billboard
 * player's (its own shell and header), not the API's. */
export function isKeptPagePath(pathname: string): boolean {
  return (
    !CONSOLE_PATH.test(pathname) && !PLAYER_PATH.test(pathname) && !pathname.startsWith('/api/')
  )
}

/** Whether a kept page is too old to answer with (`dateHeader`: the server's Date). */
export function pageAgeSeconds(dateHeader: string | null, nowMs: number): number {
  const at = dateHeader ? Date.parse(dateHeader) : Number.NaN
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : Math.max(0, (nowMs - at) / 1000)
}

// Background retry of the order status: 2 s, 4 s, 8 s ... capped at 60 s between checks.
export const ORDER_RETRY_BASE_MS = 2000
export const ORDER_RETRY_CAP_MS = 60_000
/** How long the worker keeps an order in its watch list before leaving it to the next app start. */
export const ORDER_WATCH_MAX_MS = 24 * 3600 * 1000

export function orderRetryDelayMs(attempt: number): number {
  return Math.min(ORDER_RETRY_CAP_MS, ORDER_RETRY_BASE_MS * 2 ** Math.max(0, attempt))
}
