import type { ProblemData } from '../domain/problems'
import type { OrderState } from './order'

// The contract between the page and the service worker: message types, the IndexedDB keys both sides
// read and write, and the Background Sync tag. The API paths both sides fetch come from the endpoints
// (`pathOf`), so a warm-up fetch of the worker and the app's own request share one cache entry.

export const SW_MESSAGES = {
  skipWaiting: 'SKIP_WAITING',
  cacheEvent: 'CACHE_EVENT',
  watchOrder: 'WATCH_ORDER',
  orderSettled: 'ORDER_SETTLED',
} as const

export type CacheEventMessage = { type: typeof SW_MESSAGES.cacheEvent; eventSlug: string }
export type WatchOrderMessage = {
  type: typeof SW_MESSAGES.watchOrder
  eventSlug: string
  guid: string
}
export type SkipWaitingMessage = { type: typeof SW_MESSAGES.skipWaiting }
export type PageToWorkerMessage = CacheEventMessage | WatchOrderMessage | SkipWaitingMessage

export type OrderSettledMessage = {
  type: typeof SW_MESSAGES.orderSettled
  guid: string
  result: SettledOrder
}

/** An order the page placed and whose final state is not known yet. */
export type PendingOrder = { eventSlug: string; guid: string; since: number }

/** An order request about to be sent, kept until its answer arrives, so a lost answer is retried. */
export type OrderAttempt = { key: string; body: string; eventSlug: string; since: number }

/** The final state of an order as the status endpoint reported it. */
export type SettledOrder = {
  eventSlug: string
  guid: string
  orderState: OrderState
  errors: string[]
  /** the errors' codes and params (an older worker's settled order has none) */
  codes?: string[]
  params?: ProblemData['params'][]
  confirmationDateEpochMs: number | null
  settledAt: number
}

// idb-keyval keys (default store). Outside the TTL envelopes on purpose: an order's outcome must
// reach the shopper whenever they come back, and is removed once the app has shown it.
export const IDB_KEYS = {
  pendingOrders: 'shouts:sw:pending-orders',
  /** written before the order request goes out: {key, body, eventSlug, since} (OrderAttempt) */
  orderAttempt: 'shouts:sw:order-attempt',
  settledOrder: (guid: string) => `shouts:sw:settled-order:${guid}`,
} as const

export const BACKGROUND_SYNC_TAG = 'shouts-order-status'

// The billboard player's copies of its content files, under their own URLs, so that the
// `<img>`/`<video>` of a play load offline through the worker. The page fills it (src/app/player/);
// the worker answers from it and keeps it on activate. A new version here is a new cache.
export const PLAYER_CACHE_NAME = 'shouts-player-v1'
