/// <reference lib="webworker" />
import { PLAYER_CACHE_NAME } from '../src/contract/sw'

// A shout's file answered from the billboard player's cache, so a play shows with the
// network down; the network otherwise. A <video> asks for byte ranges: the cached whole file is cut
// to the range asked (206), as the server would answer.

const RANGE = /^bytes=(\d*)-(\d*)$/

export async function rangeOf(request: Request, whole: Response): Promise<Response> {
  const range = RANGE.exec(request.headers.get('range') ?? '')
  const [, first, last] = range ?? []
  if (!first && !last) return whole
  const body = await whole.blob()
  const size = body.size
  // 'bytes=-N' is the last N bytes; 'bytes=A-' runs to the end
  const start = first ? Number(first) : Math.max(0, size - Number(last))
  const end = first && last ? Math.min(Number(last), size - 1) : size - 1
  if (start > end || start >= size) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${size}` } })
  }
  const headers = new Headers(whole.headers)
  headers.set('Content-Range', `bytes ${start}-${end}/${size}`)
  headers.set('Content-Length', String(end - start + 1))
  return new Response(body.slice(start, end + 1), { status: 206, headers })
}

export async function playerContent(request: Request): Promise<Response> {
  const cache = await caches.open(PLAYER_CACHE_NAME)
  const cached = await cache.match(request.url)
  if (cached) return rangeOf(request, cached)
  return fetch(request)
}
