import { proxy, snapshot } from 'valtio'
import { type ShoutEvent, spotlight } from '../../contract/catalogue'
import { SW_MESSAGES } from '../../contract/sw'
import { ApiError, callApi } from '../lib/api'
import { postToWorker } from '../lib/pwa'

// spec §4 "Event load for a slug".
type EventState = { event: ShoutEvent | null; erroredSlug: string | null }

export const eventStore = proxy<EventState>({ event: null, erroredSlug: null })

const inFlight = new Map<string, Promise<void>>()

/**
 * Nothing without a slug; kept when the loaded event has the same slug; otherwise fetched. On
 * failure the event is cleared and the slug recorded as errored; on success the errored slug is
 * cleared.
 */
export function loadEvent(slug: string | undefined): Promise<void> {
  if (!slug) return Promise.resolve()
  if (eventStore.event?.slug === slug) return Promise.resolve()
  const running = inFlight.get(slug)
  if (running) return running
  const request = callApi(spotlight.event, { params: { slug } })
    .then((event) => {
      eventStore.event = event
      eventStore.erroredSlug = null
      // The worker caches the event, its billboards and templates for offline use
      postToWorker({ type: SW_MESSAGES.cacheEvent, eventSlug: slug })
    })
    .catch(() => {
      eventStore.event = null
      eventStore.erroredSlug = slug
    })
    .finally(() => inFlight.delete(slug))
  inFlight.set(slug, request)
  return request
}

/**
 * The event of a slug for the $eventslug route, or null when there is none. In the browser through
 * the store (kept while the slug stays). On the server straight from the API: one process serves
 * every shopper, so it never writes a store; an answer other than 404 is an error there,
 * never cached as "no such event".
 */
export async function eventForSlug(slug: string): Promise<ShoutEvent | null> {
  if (import.meta.env.SSR) {
    try {
      return await callApi(spotlight.event, { params: { slug } })
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 404) return null
      throw error
    }
  }
  await loadEvent(slug)
  return eventStore.erroredSlug === slug ? null : (snapshot(eventStore).event as ShoutEvent | null)
}

/** The event the server rendered the page with, taken over by the store once the page is live. */
export function adoptEvent(event: ShoutEvent): void {
  if (eventStore.event?.slug === event.slug) return
  eventStore.event = event
  eventStore.erroredSlug = null
  // The worker caches the event, its billboards and templates for offline use
  postToWorker({ type: SW_MESSAGES.cacheEvent, eventSlug: event.slug })
}

/** The home page's live events, loaded by its route before it renders; none when they cannot be
 * fetched (offline without a cached answer). */
export async function loadLiveEvents(signal: AbortSignal): Promise<ShoutEvent[]> {
  try {
    return (await callApi(spotlight.liveEvents, { signal })).events
  } catch (error) {
    // on the server a failure is an error page (not cached), never an empty list
    if (import.meta.env.SSR) throw error
    return []
  }
}
