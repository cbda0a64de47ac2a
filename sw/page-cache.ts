/// <reference lib="webworker" />
// The repeat visit: the server's pages kept by the worker (the policy: cache-policy.ts;
// decision 20). A navigation is answered from here when the page is kept and young enough, else by
// the precached shell, as before; either way the page is asked for again in the background, so the
// next visit has it. Nothing here waits for the network before answering.

import { CacheExpiration } from 'workbox-expiration'
import { getCacheKeyForURL } from 'workbox-precaching'
import {
  isKeptPagePath,
  keepsPage,
  pageAgeSeconds,
  pageAssets,
  pageCacheKey,
  pageLimits,
  pageRequestPath,
} from './cache-policy'

export type PageCache = {
  /** the kept page of that URL (or the redirect to a kept page), if young enough to answer with */
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
  // a QR code's page not kept for that billboard: the path's own page (the app adds the billboard)
  const keptOrPlain = async (url: URL) =>
    (await kept(url)) ?? (url.search ? kept(new URL(url.pathname, url.origin)) : undefined)
  const young = (response: Response | undefined) =>
    response && pageAgeSeconds(response.headers.get('date'), Date.now()) <= pageLimits.maxAgeSeconds
      ? response
      : undefined
  const keep = async (url: URL, response: Response) => {
    await (await caches.open(cacheName)).put(pageCacheKey(url), response)
    await expiration.updateTimestamp(pageCacheKey(url))
  }

  const refresh = async (url: URL): Promise<void> => {
    try {
      const response = await fetch(pageRequestPath(url), {
        credentials: 'same-origin',
        headers: { Accept: 'text/html' },
      })
      const at = new URL(response.url || url.href)
      if (at.origin !== url.origin || !isKeptPagePath(at.pathname) || !keepsPage(response)) return
      const html = await response.clone().text()
      // a page of another build (a deploy the worker has not caught up with) names code this
      // worker does not hold offline: not kept
      if (!pageAssets(html).every((path) => getCacheKeyForURL(path) !== undefined)) return
      if (response.redirected) {
        // The QR code's landing (/{event}?device=…) is the server's redirect to the location step:
        // kept as a redirect to the kept page (a followed response may not answer a navigation).
        // a copy, with the text as read: its length and encoding are no longer the wire's
        const headers = new Headers(response.headers)
        headers.delete('content-length')
        headers.delete('content-encoding')
        await keep(at, new Response(html, { status: 200, headers }))
        await keep(
          url,
          new Response(null, {
            status: 307,
            headers: {
              Location: at.pathname,
              Date: response.headers.get('date') ?? new Date().toUTCString(),
            },
          }),
        )
      } else {
        await keep(url, response)
      }
      await expiration.expireEntries()
    } catch {
      // offline or a failed answer: the kept page (if any) stays
    }
  }

  return {
    async match(url) {
      const response = young(await keptOrPlain(url))
      if (response?.status !== 307) return response
      // the redirect (its query kept, as the server's), only when its page is kept too
      const location = response.headers.get('location') ?? ''
      const target = new URL(`${location}${url.search}`, url.origin)
      return young(await keptOrPlain(target)) ? Response.redirect(target.href, 307) : undefined
    },
    refresh,
    async refreshIfOld(url) {
      const response = await kept(url)
      const age = response ? pageAgeSeconds(response.headers.get('date'), Date.now()) : Infinity
      if (age >= pageLimits.refreshAfterSeconds) await refresh(url)
    },
  }
}
