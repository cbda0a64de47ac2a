// Which request goes to which cache (issue 4): the app shell is precached; the event payload, its
// devices and its templates are served stale-while-revalidate; images and map tiles live in bounded
// runtime caches. Everything else from the API goes to the network: never slot availability, payment
// or order calls.
import { content } from '../src/contract/content'
import { API_BASE, type Endpoint, matchesPath } from '../src/contract/endpoint'
import { meta } from '../src/contract/meta'
import { spotlight } from '../src/contract/spotlight'
import { PLAYER_CACHE_NAME } from '../src/contract/sw'

export const CACHE_VERSION = 'v1'
export const CACHE_PREFIX = 'shouts-'

export const cacheNames = {
  eventPayload: `${CACHE_PREFIX}event-payload-${CACHE_VERSION}`,
  images: `${CACHE_PREFIX}images-${CACHE_VERSION}`,
  mapTiles: `${CACHE_PREFIX}map-tiles-${CACHE_VERSION}`,
  // issue 14: filled by the billboard player page with its window's content files (versioned there)
  player: PLAYER_CACHE_NAME,
} as const

export const cacheLimits = {
  images: { maxEntries: 120, maxAgeSeconds: 7 * 24 * 3600 },
  mapTiles: { maxEntries: 400, maxAgeSeconds: 3 * 24 * 3600 },
  eventPayload: { maxEntries: 60, maxAgeSeconds: 24 * 3600 },
} as const

export type RequestKind =
  | 'event-payload'
  | 'image'
  | 'map-tile'
  | 'player-content'
  | 'network-only'
  | 'not-ours'

// The event payload: what the flow reads of an event and may show offline (issue 4). Named by the
// endpoints, so a path the contract changes is still cached.
const EVENT_PAYLOAD_ENDPOINTS: readonly Endpoint[] = [
  spotlight.event,
  spotlight.devices,
  content.generators,
  meta.featureFlags,
]

const IMAGE_PATH = /^\/(catalogue|templates)\/.+\.(png|jpe?g|webp|gif|svg|mp4)$/i

/** issue 10: the operators' console's pages (/ops, /fr/ops, /de/ops and below), which the worker
 * leaves to the network: no precached shell, no stale page for an operator. */
export const CONSOLE_PATH = /^\/((fr|de)\/)?ops(\/|$)/

/** Decides the strategy for one request. `tileOrigins` are the map style's tile hosts. */
export function classifyRequest(
  method: string,
  url: URL,
  selfOrigin: string,
  tileOrigins: readonly string[] = [],
): RequestKind {
  if (method !== 'GET') return 'network-only'
  if (url.origin !== selfOrigin) {
    return tileOrigins.includes(url.origin) ? 'map-tile' : 'not-ours'
  }
  if (url.pathname.startsWith('/api/')) {
    const apiPath = url.pathname.startsWith(`${API_BASE}/`)
      ? url.pathname.slice(API_BASE.length)
      : null
    if (apiPath !== null && EVENT_PAYLOAD_ENDPOINTS.some((e) => matchesPath(e, apiPath))) {
      return 'event-payload'
    }
    // a shout's file: the billboard player's copy when it has one (issue 14), else the network
    if (apiPath !== null && matchesPath(content.file, apiPath)) return 'player-content'
    return 'network-only'
  }
  if (IMAGE_PATH.test(url.pathname)) return 'image'
  return 'not-ours'
}

/** Caches this worker version does not own, to delete on activate. */
export function staleCaches(existing: readonly string[]): string[] {
  const current = new Set<string>(Object.values(cacheNames))
  return existing.filter((name) => name.startsWith(CACHE_PREFIX) && !current.has(name))
}

// Background retry of the order status (issue 4): 2 s, 4 s, 8 s ... capped at 60 s between checks.
export const ORDER_RETRY_BASE_MS = 2000
export const ORDER_RETRY_CAP_MS = 60_000
/** How long the worker keeps an order in its watch list before leaving it to the next app start. */
export const ORDER_WATCH_MAX_MS = 24 * 3600 * 1000

export function orderRetryDelayMs(attempt: number): number {
  return Math.min(ORDER_RETRY_CAP_MS, ORDER_RETRY_BASE_MS * 2 ** Math.max(0, attempt))
}
