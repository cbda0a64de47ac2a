import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib'
import type { MiddlewareHandler } from 'hono'
import { createPrerender, type PrerenderDeps } from './prerender.ts'

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

// Text assets are sent compressed (Brotli, else gzip): a phone on venue mobile data downloads the app
// shell in a third of the bytes. Each file is compressed once and kept while its mtime is unchanged.
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.svg',
  '.txt',
  '.map',
])
type Encoded = { mtimeMs: number; br: Buffer; gzip: Buffer }
const encodedCache = new Map<string, Encoded>()

function compressed(raw: Buffer): Omit<Encoded, 'mtimeMs'> {
  return {
    br: brotliCompressSync(raw, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
    }),
    gzip: gzipSync(raw, { level: 9 }),
  }
}

function encodedFile(file: string, mtimeMs: number): Encoded {
  const hit = encodedCache.get(file)
  if (hit && hit.mtimeMs === mtimeMs) return hit
  const entry = { mtimeMs, ...compressed(readFileSync(file)) }
  encodedCache.set(file, entry)
  return entry
}

// The filled-in pages differ only by language and route chunks: a handful of variants, each compressed
// once. Bounded, so a deploy's stale variants do not pile up.
const pageCache = new Map<string, Omit<Encoded, 'mtimeMs'>>()
function encodedPage(html: string): Omit<Encoded, 'mtimeMs'> {
  const hit = pageCache.get(html)
  if (hit) return hit
  const entry = compressed(Buffer.from(html))
  if (pageCache.size >= 64) pageCache.clear()
  pageCache.set(html, entry)
  return entry
}

function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = (acceptEncoding ?? '').toLowerCase()
  if (/\bbr\b/.test(accepted)) return 'br'
  if (/\bgzip\b/.test(accepted)) return 'gzip'
  return null
}

/**
 * Serves the built PWA from dist/. Every GET that is not a file and not the API answers index.html
 * (SPA fallback), so a deep link such as /share-the-love/order/checkout opens the app.
 */
export function serveDist(distDir: string, deps: PrerenderDeps = {}): MiddlewareHandler {
  const root = resolve(distDir)
  const prerender = createPrerender(
    root,
    fileURLToPath(new URL('../../locale/locales', import.meta.url)),
    deps,
  )
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
    if (!hidden && file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile()) {
      const ext = extname(file).toLowerCase()
      const stat = statSync(file)
      const headers: Record<string, string> = {
        'Content-Type': TYPES[ext] ?? 'application/octet-stream',
        'Content-Length': String(stat.size),
        // Vite's hashed assets never change; the app shell and service worker must be re-checked.
        'Cache-Control': decoded.startsWith('/assets/')
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      }
      const encoding = COMPRESSIBLE.has(ext) ? pickEncoding(c.req.header('accept-encoding')) : null
      if (COMPRESSIBLE.has(ext)) headers.Vary = 'Accept-Encoding'
      if (encoding) {
        const body = encodedFile(file, stat.mtimeMs)[encoding]
        headers['Content-Encoding'] = encoding
        headers['Content-Length'] = String(body.length)
        if (c.req.method === 'HEAD') return new Response(null, { headers })
        return new Response(new Uint8Array(body), { headers })
      }
      if (c.req.method === 'HEAD') return new Response(null, { headers })
      const stream = Readable.toWeb(createReadStream(file)) as ReadableStream
      return new Response(stream, { headers })
    }
    // A missing file with an extension (e.g. /assets/old.js) is a real 404, not the app.
    if (extname(decoded) !== '' && !decoded.endsWith('.html')) return next()
    const indexFile = join(root, 'index.html')
    if (!existsSync(indexFile)) return next()
    // Read from disk each time (the page's variant is compressed once and cached), so a deploy is seen
    // at once; the page's language, preloads and first screen are filled in (./prerender.ts).
    const html = await prerender(readFileSync(indexFile, 'utf8'), {
      path: decoded,
      cookie: c.req.header('cookie'),
      acceptLanguage: c.req.header('accept-language'),
    })
    const indexHeaders: Record<string, string> = {
      'Content-Type': TYPES['.html'] ?? 'text/html',
      'Cache-Control': 'no-cache',
      // the root page's language follows the cookie and the browser's languages (spec §2)
      Vary: 'Accept-Encoding, Accept-Language, Cookie',
    }
    const encoding = pickEncoding(c.req.header('accept-encoding'))
    if (encoding) {
      const body = encodedPage(html)[encoding]
      indexHeaders['Content-Encoding'] = encoding
      return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), {
        headers: indexHeaders,
      })
    }
    return new Response(c.req.method === 'HEAD' ? null : html, { headers: indexHeaders })
  }
}
