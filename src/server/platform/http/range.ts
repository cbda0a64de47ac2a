import { Readable } from 'node:stream'
import type { Context } from 'hono'

// Byte serving (RFC 9110 §14): the stored files' video seeking and the map archive's tiles both read
// one range of a file at a time.

/** A byte range, both ends included (HTTP Range semantics). */
export type ByteRange = { start: number; end: number }

/**
 * One `bytes=` range of a Range header (RFC 9110 §14.2): null to send the whole file (no header, or one
 * we do not serve, such as several ranges), 'unsatisfiable' for a range past the end (416).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | null | 'unsatisfiable' {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null
  if (!match) return null
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return null
  if (first === '') {
    // The last N bytes.
    const length = Number(last)
    if (length === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - length), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return 'unsatisfiable'
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (end < start) return null
  return { start, end }
}

/** A whole file (200) or the one range asked for (206, 416), for GET and HEAD. */
export async function sendFileRange(
  c: Context,
  headers: Record<string, string>,
  size: number,
  open: (range: ByteRange | null) => Readable | Promise<Readable>,
): Promise<Response> {
  const range = parseRange(c.req.header('range'), size)
  if (range === 'unsatisfiable') {
    return new Response(null, {
      status: 416,
      headers: { ...headers, 'Content-Range': `bytes */${size}` },
    })
  }
  const status = range ? 206 : 200
  const all = { ...headers }
  if (range) all['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`
  all['Content-Length'] = String(range ? range.end - range.start + 1 : size)
  if (c.req.method === 'HEAD') return new Response(null, { status, headers: all })
  // Awaited: storage.open() hands a promise of the stream (an S3 GET), and Readable.toWeb needs the
  // stream itself (a promise here was the "streamReadable … Received an instance of Promise" 500).
  const stream = await open(range)
  const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>
  return new Response(body, { status, headers: all })
}
