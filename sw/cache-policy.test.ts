import { describe, expect, it } from 'vitest'
import { content } from '../src/contract/content'
import { pathOf } from '../src/contract/endpoint'
import { order } from '../src/contract/order'
import { FIRST_DEVICES_PAGE, spotlight } from '../src/contract/spotlight'
import {
  CACHE_PREFIX,
  CONSOLE_PATH,
  cacheNames,
  classifyRequest,
  ORDER_RETRY_CAP_MS,
  orderRetryDelayMs,
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

  it("answers a shout's file from the billboard player's cache (issue 14)", () => {
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
    expect(classifyRequest('GET', at('/assets/index-abc.js'), origin)).toBe('not-ours')
  })

  it('caches tiles only from the configured map hosts', () => {
    const tiles = ['https://tiles.example']
    expect(classifyRequest('GET', new URL('https://tiles.example/1/2/3.pbf'), origin, tiles)).toBe(
      'map-tile',
    )
    expect(classifyRequest('GET', new URL('https://elsewhere.example/x.png'), origin, tiles)).toBe(
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

describe('orderRetryDelayMs', () => {
  it('doubles from 2 s and stops at the cap', () => {
    expect([0, 1, 2, 3].map(orderRetryDelayMs)).toEqual([2000, 4000, 8000, 16000])
    expect(orderRetryDelayMs(10)).toBe(ORDER_RETRY_CAP_MS)
  })
})
