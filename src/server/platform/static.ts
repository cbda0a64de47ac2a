import { createReadStream, type Stats, statSync } from 'node:fs'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { Readable } from 'node:stream'
import type { MiddlewareHandler } from 'hono'
import { COMPRESSIBLE } from './precompress.ts'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.mp4': 'video/mp4',
  '.wasm': 'application/wasm',
  '.po': 'text/plain; charset=utf-8',
}

function pickEncodings(acceptEncoding: string | undefined): ('br' | 'gzip')[] {
  const accepted = (acceptEncoding ?? '').toLowerCase()
  const encodings: ('br' | 'gzip')[] = []
  if (/\bbr\b/.test(accepted)) encodings.push('br')
  if (/\bgzip\b/.test(accepted)) encodings.push('gzip')
  return encodings
}

// Most paths asked are pages, not files: a missing file is answered without an exception's cost.
const statOf = (file: string): Stats | null => {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null
  } catch {
    return null // not a folder on the way, a name too long
  }
}

/**
 * Serves the files of the built PWA (dist/). Text files go compressed when the browser accepts it
 * (a phone on venue mobile data downloads the app in a third of the bytes), from the .br and .gz
 * files the build wrote beside them (./precompress.ts, nothing is compressed per
 * request); a file without them goes as it is. Any other path goes on to the pages (./ssr.ts).
 */
export function serveDist(distDir: string): MiddlewareHandler {
  const root = resolve(distDir)
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const path = c.req.path
    if (path.startsWith('/api/')) return next()
    let decoded: string
    try {
      decoded = decodeURIComponent(path)
    } catch {
      return next()
    }
    const file = normalize(join(root, decoded))
    // build metadata such as dist/.vite/manifest.json is for the server, not the public
    const hidden = decoded.split('/').some((segment) => segment.startsWith('.'))
    if (hidden || !file.startsWith(root + sep)) return next()
    const stat = statOf(file)
    if (!stat?.isFile()) return next()
    const ext = extname(file).toLowerCase()
    const headers: Record<string, string> = {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Content-Length': String(stat.size),
      // Vite's hashed assets never change; the app shell and service worker must be re-checked.
      'Cache-Control': decoded.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
    }
    let body = file
    if (COMPRESSIBLE.has(ext)) {
      headers.Vary = 'Accept-Encoding'
      for (const encoding of pickEncodings(c.req.header('accept-encoding'))) {
        const sibling = `${file}.${encoding === 'br' ? 'br' : 'gz'}`
        const packed = statOf(sibling)
        // written by the build after the file; an older one belongs to an earlier build
        if (!packed?.isFile() || packed.mtimeMs < stat.mtimeMs) continue
        body = sibling
        headers['Content-Encoding'] = encoding
        headers['Content-Length'] = String(packed.size)
        break
      }
    }
    if (c.req.method === 'HEAD') return new Response(null, { headers })
    return new Response(Readable.toWeb(createReadStream(body)) as ReadableStream, { headers })
  }
}
