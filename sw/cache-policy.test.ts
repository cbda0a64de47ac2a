import { describe, expect, it } from 'vitest'
import { FIRST_DEVICES_PAGE, spotlight } from '../src/contract/catalogue'
import { content } from '../src/contract/content'
import { pathOf } from '../src/contract/endpoint'
import { order } from '../src/contract/order'
import {
  CACHE_PREFIX,
  CONSOLE_PATH,
  cacheNames,
  classifyRequest,
  isKeptPagePath,
  keepsPage,
  ORDER_RETRY_CAP_MS,
  orderRetryDelayMs,
  pageAgeSeconds,
  pageAssets,
  pageCacheKey,
  pageRequestPath,
  pagesCacheName,
  staleCaches,
} from './cache-policy'

const origin = 'https://shop.example'
const at = (path: string) => new URL(path, origin)

describe('classifyRequest', () => {
  it('serves the event payload, its devices, templates and flags stale-while-revalidate', () => {
    expect(
      classifyRequest('GET', at(pathOf(spotlight.event, { slug: 'mothers-day' })), origin),
    ).toBe('event-payload')
    expect(
      classifyRequest(
        'GET',
        at(pathOf(spotlight.devices, { slug: 'mothers-day' }, FIRST_DEVICES_PAGE)),
        origin,
      ),
    ).toBe('event-payload')
    expect(
      classifyRequest(
        'GET',
        at(pathOf(content.generators, {}, { types: ['photo'], widthPx: 1400, heightPx: 400 })),
        origin,
      ),
    ).toBe('event-payload')
    expect(classifyRequest('GET', at('/api/v1/feature-flags/shouts'), origin)).toBe('event-payload')
  })

  it('never caches slot availability, promos, payment or order calls', () => {
    for (const path of [
      '/api/v1/spotlight/slots/search',
      '/api/v1/spotlight/promos/code/MOM10',
      '/api/v1/order/payment/setup-intent',
      '/api/v1/order/orders',
      pathOf(order.status, { eventSlug: 'mothers-day', guid: 'abc' }),
      '/api/v1/content/uploads/123',
      '/api/v1/content/abcdef',
    ]) {
      expect(classifyRequest('GET', at(path), origin), path).toBe('network-only')
    }
    expect(classifyRequest('POST', at('/api/v1/spotlight/slots/search'), origin)).toBe(
      'network-only',
    )
    expect(classifyRequest('POST', at(pathOf(spotlight.event, { slug: 'x' })), origin)).toBe(
      'network-only',
    )
  })

  it("keeps an order's summary for its page offline, asked of the network first", () => {
    const summary = pathOf(order.summary, { eventSlug: 'mothers-day', guid: 'abc' })
    expect(classifyRequest('GET', at(summary), origin)).toBe('order-summary')
    expect(classifyRequest('POST', at(summary), origin)).toBe('network-only')
    expect(staleCaches([cacheNames.orders])).toEqual([])
  })

  it("answers a shout's file from the billboard player's cache", () => {
    const file = pathOf(content.file, { name: 'abc.png' })
    expect(classifyRequest('GET', at(file), origin)).toBe('player-content')
    expect(classifyRequest('HEAD', at(file), origin)).toBe('network-only')
    expect(classifyRequest('GET', new URL(file, 'https://elsewhere.example'), origin)).toBe(
      'not-ours',
    )
    expect(staleCaches([cacheNames.player])).toEqual([])
  })

  it('keeps billboard and template images in the image cache', () => {
    expect(classifyRequest('GET', at('/catalogue/paris-opera-1.jpg'), origin)).toBe('image')
    expect(classifyRequest('GET', at('/catalogue/hearts.png'), origin)).toBe('image')
  })

  it("keeps the build's later code once it is used", () => {
    expect(classifyRequest('GET', at('/assets/billboard-map-abc.js'), origin)).toBe('build-file')
    expect(classifyRequest('GET', at('/assets/countries-50m-abc.json'), origin)).toBe('build-file')
    expect(classifyRequest('GET', at('/assets/ops/pages-abc.js'), origin)).toBe('not-ours')
  })

  it("keeps the map's parts, all from the shop: the archive's ranges, its glyphs, its settings", () => {
    expect(classifyRequest('GET', at('/api/v1/map/tiles.pmtiles'), origin)).toBe('map-archive')
    expect(
      classifyRequest('GET', at('/api/v1/map/glyphs/Noto Sans Regular/0-255.pbf'), origin),
    ).toBe('map-tile')
    expect(classifyRequest('GET', at('/api/v1/map'), origin)).toBe('event-payload')
    expect(classifyRequest('GET', new URL('https://tiles.example/1/2/3.pbf'), origin)).toBe(
      'not-ours',
    )
  })
})

describe('CONSOLE_PATH', () => {
  it("names the console's pages in every language, and nothing of the shop", () => {
    for (const path of ['/ops', '/ops/', '/ops/review', '/fr/ops', '/de/ops/orders']) {
      expect(CONSOLE_PATH.test(path), path).toBe(true)
    }
    for (const path of [
      '/',
      '/opsy',
      '/opera-night/design/location',
      '/fr/opsy',
      '/api/v1/ops/review',
    ]) {
      expect(CONSOLE_PATH.test(path), path).toBe(false)
    }
  })
})

describe('staleCaches', () => {
  it('deletes our caches of other versions and leaves foreign and current ones', () => {
    const existing = [
      ...Object.values(cacheNames),
      `${CACHE_PREFIX}images-v0`,
      `${CACHE_PREFIX}event-payload-v0`,
      'workbox-precache-v2-https://shop.example/',
      'someone-else',
    ]
    expect(staleCaches(existing)).toEqual([
      `${CACHE_PREFIX}images-v0`,
      `${CACHE_PREFIX}event-payload-v0`,
    ])
  })
})

describe("the server's pages kept for the next visit", () => {
  const answer = (status: number, headers: Record<string, string>) => ({
    status,
    headers: new Headers(headers),
  })
  const html = { 'content-type': 'text/html; charset=utf-8', vary: 'Accept-Encoding' }

  it('keeps a plain HTML page, never a failure, JSON or a page that varies by shopper', () => {
    expect(keepsPage(answer(200, html))).toBe(true)
    expect(keepsPage(answer(200, { 'content-type': 'text/html' }))).toBe(true)
    expect(keepsPage(answer(404, html))).toBe(false)
    expect(keepsPage(answer(500, html))).toBe(false)
    expect(keepsPage(answer(200, { 'content-type': 'application/json' }))).toBe(false)
    // the root page speaks the cookie's language, else the browser's
    expect(
      keepsPage(answer(200, { ...html, vary: 'Accept-Encoding, Accept-Language, Cookie' })),
    ).toBe(false)
    expect(keepsPage(answer(200, { ...html, vary: 'cookie' }))).toBe(false)
    expect(keepsPage(answer(200, { ...html, vary: '*' }))).toBe(false)
  })

  it("keeps the shop's pages, never the console's, the billboard player's or the API's", () => {
    for (const path of ['/', '/fr', '/de/share-the-love', '/share-the-love/design/location']) {
      expect(isKeptPagePath(path), path).toBe(true)
    }
    for (const path of ['/ops', '/fr/ops/orders', '/play/paris-opera-1', '/api/v1/health']) {
      expect(isKeptPagePath(path), path).toBe(false)
    }
  })

  it("keys a page by its path and a QR code's billboard, nothing else of the query", () => {
    expect(pageCacheKey(at('/fr/mothers-day/design/location?utm_source=qr&device=a'))).toBe(
      `${origin}/fr/mothers-day/design/location?device=a`,
    )
    expect(pageCacheKey(at('/fr/mothers-day/design/location'))).toBe(
      pageCacheKey(at('/fr/mothers-day/design/location?utm_source=x#x')),
    )
    expect(pageCacheKey(at('/fr/mothers-day/design/location?device=a'))).not.toBe(
      pageCacheKey(at('/fr/mothers-day/design/location?device=b')),
    )
    expect(pageRequestPath(at('/mothers-day?device=a%20b&x=1'))).toBe('/mothers-day?device=a%20b')
  })

  it("lists the build's files a page names, those of the inert template included", () => {
    const page = [
      '<html lang="fr"><head><script type="module" crossorigin src="/assets/index-A1.js"></script>',
      '<link rel="stylesheet" href="/assets/index-B2.css">',
      '<template id="app-chunks"><link rel="modulepreload" crossorigin href="/assets/app-C3.js"></template>',
      '<link rel="icon" href="/favicon.svg"><img src="data:image/svg+xml,x"></head></html>',
    ].join('')
    expect(pageAssets(page)).toEqual([
      '/assets/index-A1.js',
      '/assets/index-B2.css',
      '/assets/app-C3.js',
    ])
  })

  it("names the pages' cache after the build, so that a new worker starts without the old pages", () => {
    const build1 = [
      { url: 'index.html', revision: 'r1' },
      { url: 'assets/app-C3.js', revision: null },
    ]
    const build2 = [
      { url: 'index.html', revision: 'r2' },
      { url: 'assets/app-D4.js', revision: null },
    ]
    expect(pagesCacheName(build1)).toBe(pagesCacheName([...build1]))
    expect(pagesCacheName(build1)).not.toBe(pagesCacheName(build2))
    expect(pagesCacheName(build1).startsWith(`${CACHE_PREFIX}pages-`)).toBe(true)
    // the old build's pages go on activate, this build's stay
    expect(
      staleCaches([pagesCacheName(build1), pagesCacheName(build2)], [pagesCacheName(build2)]),
    ).toEqual([pagesCacheName(build1)])
  })

  it("tells a page's age from the server's Date; without one it is too old to use", () => {
    const now = Date.parse('2026-11-23T12:00:00Z')
    expect(pageAgeSeconds('Mon, 23 Nov 2026 11:59:00 GMT', now)).toBe(60)
    expect(pageAgeSeconds(null, now)).toBe(Number.POSITIVE_INFINITY)
    expect(pageAgeSeconds('not a date', now)).toBe(Number.POSITIVE_INFINITY)
  })
})

describe('orderRetryDelayMs', () => {
  it('doubles from 2 s and stops at the cap', () => {
    expect([0, 1, 2, 3].map(orderRetryDelayMs)).toEqual([2000, 4000, 8000, 16000])
    expect(orderRetryDelayMs(10)).toBe(ORDER_RETRY_CAP_MS)
  })
})
