/// <reference lib="webworker" />
// Warming: what the worker fetches ahead of the shopper, so that an event opened once opens again
// offline (its payload, devices, templates, preview images) and its pages answer the next visit at
// once. sw.ts calls it on install and on the page's "cache this event" message.

import * as v from 'valibot'
import {
  DevicesPageSchema,
  EventSchema,
  FIRST_DEVICES_PAGE,
  spotlight,
} from '../src/contract/catalogue'
import { content, DEFAULT_TEMPLATE_MODE, GeneratorsResponseSchema } from '../src/contract/content'
import { pathOf } from '../src/contract/endpoint'
import { eventSlugFromPath, splitLocalePath, withLocalePrefix } from '../src/domain/locale'
import { cacheNames, isKeptPagePath } from './cache-policy'
import type { PageCache } from './page-cache'

declare const self: ServiceWorkerGlobalScope

/** Fetches an event's payload, devices, templates and preview images into the caches. */
export async function warmEvent(slug: string): Promise<void> {
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
export async function warmPages(pages: PageCache, url: URL): Promise<void> {
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

/** On install: the events and pages of the windows open now (a QR code's start URL names its event). */
export async function warmOpenWindows(pages: PageCache): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const slugs = new Set(
    windows
      .map((w) => eventSlugFromPath(new URL(w.url).pathname))
      .filter((s): s is string => s !== null),
  )
  await Promise.all([
    ...[...slugs].map((s) => warmEvent(s).catch(() => undefined)),
    ...windows.map((w) => warmPages(pages, new URL(w.url))),
  ])
}
