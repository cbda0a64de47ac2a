/// <reference lib="webworker" />
import * as v from 'valibot'
import { pathOf } from '../src/contract/endpoint'
import { order } from '../src/contract/order'
import { type PlayAlertPayload, PlayAlertPayloadSchema } from '../src/contract/push'
import { cacheNames } from './cache-policy'

// Play alerts (api-v1 "Play alerts"): the server's message, already in the shopper's language and at
// the billboard's time, shown as it came; a tap opens the order's page (the app's shell is precached,
// so it opens offline too).

declare const self: ServiceWorkerGlobalScope

const ICON = '/icons/icon-192.png'

/** The alert a push carries, or null for anything else (never shown: not the shop's). */
export function playAlertOf(data: PushMessageData | null): PlayAlertPayload | null {
  if (!data) return null
  let json: unknown
  try {
    json = data.json()
  } catch {
    return null
  }
  const parsed = v.safeParse(PlayAlertPayloadSchema, json)
  return parsed.success ? parsed.output : null
}

export function showPlayAlert(alert: PlayAlertPayload): Promise<void> {
  return self.registration.showNotification(alert.title, {
    body: alert.body,
    icon: ICON,
    badge: ICON,
    // "it played" replaces the slot's "plays soon"; renotify: the replacement buzzes again
    tag: alert.tag,
    renotify: true,
    timestamp: alert.atEpochMs,
    data: { url: alert.url },
  } as NotificationOptions)
}

/** The order as it stands now, kept for its page: the alert's tap may come with no network. */
export async function keepAlertOrder(alert: PlayAlertPayload): Promise<void> {
  const url = pathOf(order.summary, { eventSlug: alert.eventSlug, guid: alert.guid })
  const response = await fetch(url)
  if (response.ok) await (await caches.open(cacheNames.orders)).put(url, response)
}

/** The order's page in a window of the app: the one already there, else another made to go there,
 * else a new one. */
export async function openAlertPage(data: unknown): Promise<void> {
  const path = (data as { url?: unknown } | null)?.url
  // the server's payload names a path of the shop; nothing else is opened
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) return
  const url = new URL(path, self.location.origin).href
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const there = windows.find((w) => w.url === url)
  if (there) {
    // focus() is allowed while the tap is handled; a refusal leaves the page as it is
    await there.focus().catch(() => undefined)
    return
  }
  const other = windows.find((w) => new URL(w.url).origin === self.location.origin)
  if (other) {
    const moved = await other.navigate(url).catch(() => null)
    if (moved) {
      await moved.focus().catch(() => undefined)
      return
    }
  }
  await self.clients.openWindow(url)
}
