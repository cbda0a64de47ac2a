/// <reference lib="webworker" />
// The map archive's ranges (src/server/map: one PMTiles file read by Range requests). The Cache API
// keeps no 206 answer, so each range is kept as a whole answer under an address naming it, and given
// back as the 206 it was. From the network while there is one (an archive replaced on the server
// shows at once; its ETag tells the map's reader), from here with none or when the network is too
// slow to wait for, so the map draws at the venue without signal.

import { cacheLimits, cacheNames } from './cache-policy'

declare const self: ServiceWorkerGlobalScope

/** How long a range waits for the network before the kept copy answers. */
const NETWORK_WAIT_MS = 4000

const keyOf = (url: URL, range: string) =>
  `${url.origin}${url.pathname}?range=${encodeURIComponent(range)}`

async function kept(key: string): Promise<Response | undefined> {
  const cache = await caches.open(cacheNames.mapArchive)
  const answer = await cache.match(key)
  if (!answer) return undefined
  return new Response(answer.body, { status: 206, headers: answer.headers })
}

async function keep(key: string, answer: Response): Promise<void> {
  const cache = await caches.open(cacheNames.mapArchive)
  const headers = new Headers(answer.headers)
  headers.set('x-kept-at', String(Date.now()))
  await cache.put(key, new Response(await answer.arrayBuffer(), { status: 200, headers }))
  // bounded: the oldest ranges go first (the cache lists them in the order they were put)
  const keys = await cache.keys()
  const over = keys.length - cacheLimits.mapArchive.maxEntries
  for (const old of keys.slice(0, Math.max(0, over))) await cache.delete(old)
}

export async function mapArchiveRange(request: Request): Promise<Response> {
  const range = request.headers.get('range')
  if (!range) return fetch(request)
  const key = keyOf(new URL(request.url), range)
  if (!self.navigator.onLine) {
    const offline = await kept(key)
    if (offline) return offline
  }
  const network = fetch(request).then((answer) => {
    if (answer.status === 206) void keep(key, answer.clone()).catch(() => undefined)
    return answer
  })
  const slow = new Promise<'slow'>((resolve) => setTimeout(() => resolve('slow'), NETWORK_WAIT_MS))
  try {
    const first = await Promise.race([network, slow])
    if (first !== 'slow') return first
    return (await kept(key)) ?? (await network)
  } catch (error) {
    const fallback = await kept(key)
    if (fallback) return fallback
    throw error
  }
}
