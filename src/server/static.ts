import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { Readable } from 'node:stream'
import type { MiddlewareHandler } from 'hono'

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

/**
 * Serves the built PWA from dist/. Every GET that is not a file and not the API answers index.html
 * (SPA fallback), so a deep link such as /share-the-love/order/checkout opens the app.
 */
export function serveDist(distDir: string): MiddlewareHandler {
  const root = resolve(distDir)
  let indexHtml: string | null = null
  const index = () => {
    indexHtml ??= readFileSync(join(root, 'index.html'), 'utf8')
    return indexHtml
  }
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
    if (file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile()) {
      const ext = extname(file).toLowerCase()
      const headers: Record<string, string> = {
        'Content-Type': TYPES[ext] ?? 'application/octet-stream',
        'Content-Length': String(statSync(file).size),
        // Vite's hashed assets never change; the app shell and service worker must be re-checked.
        'Cache-Control': decoded.startsWith('/assets/')
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      }
      if (c.req.method === 'HEAD') return new Response(null, { headers })
      const stream = Readable.toWeb(createReadStream(file)) as ReadableStream
      return new Response(stream, { headers })
    }
    // A missing file with an extension (e.g. /assets/old.js) is a real 404, not the app.
    if (extname(decoded) !== '' && !decoded.endsWith('.html')) return next()
    if (!existsSync(join(root, 'index.html'))) return next()
    return c.html(index(), 200, { 'Cache-Control': 'no-cache' })
  }
}
