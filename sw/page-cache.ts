/// <reference lib="webworker" />
// Issue 11, the repeat visit: the server's pages kept by the worker (the policy: cache-policy.ts).
// A navigation is answered from here when the page is kept and young enough, else by the precached
// shell, as before; either way the page is asked for again in the background, so the next visit has
// it. Nothing here waits for the network before answering.

import { CacheExpiration } from 'workbox-expiration'
import { getCacheKeyForURL } from 'workbox-precaching'
import { keepsPage, pageAgeSeconds, pageAssets, pageCacheKey, pageLimits } from './cache-policy'

export type PageCache = {
  /** the kept page of that URL, if young enough to answer with */
  match(url: URL): Promise<Response | undefined>
  /** asks the server for the page and keeps it when it may be kept; never throws */
  refresh(url: URL): Promise<void>
  /** `refresh`, unless the kept page is younger than pageLimits.refreshAfterSeconds */
  refreshIfOld(url: URL): Promise<void>
}

export function pageCache(cacheName: string): PageCache {
  const expiration = new CacheExpiration(cacheName, {
    maxEntries: pageLimits.maxEntries,
    maxAgeSeconds: pageLimits.maxAgeSeconds,
  })
  const kept = async (url: URL) => (await caches.open(cacheName)).match(pageCacheKey(url))

  const refresh = async (url: URL): Promise<void> => {
    try {
      const response = await fetch(url.pathname, {
        credentials: 'same-origin',
        headers: { Accept: 'text/html' },
      })
      if (!keepsPage(response)) return
      const html = await response.clone().text()
      // a page of another build (a deploy the worker has not caught up with) names code this
      // worker does not hold offline: not kept
      if (!pageAssets(html).every((path) => getCacheKeyForURL(path) !== undefined)) return
      const cache = await caches.open(cacheName)
      await cache.put(pageCacheKey(url), response)
      await expiration.updateTimestamp(pageCacheKey(url))
      await expiration.expireEntries()
    } catch {
      // offline or a failed answer: the kept page (if any) stays
    }
  }

  return {
    async match(url) {
      const response = await kept(url)
      if (!response) return undefined
      const age = pageAgeSeconds(response.headers.get('date'), Date.now())
      return age <= pageLimits.maxAgeSeconds ? response : undefined
    },
    refresh,
    async refreshIfOld(url) {
      const response = await kept(url)
      const age = response ? pageAgeSeconds(response.headers.get('date'), Date.now()) : Infinity
      if (age >= pageLimits.refreshAfterSeconds) await refresh(url)
    },
  }
}
