import { proxy } from 'valtio'
import { type ShoutEvent, spotlight } from '../../contract/spotlight'
import { SW_MESSAGES } from '../../contract/sw'
import { callApi } from '../lib/api'
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
      // issue 4: the worker caches the event, its billboards and templates for offline use
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

/** The home page's live events, loaded by its route before it renders; none when they cannot be
 * fetched (offline without a cached answer). */
export const liveEventsStore = proxy<{ events: ShoutEvent[] }>({ events: [] })

export async function loadLiveEvents(signal: AbortSignal): Promise<void> {
  try {
    liveEventsStore.events = (await callApi(spotlight.liveEvents, { signal })).events
  } catch {
    if (!signal.aborted) liveEventsStore.events = []
  }
}
