import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, gzip, constants as zlib } from 'node:zlib'
import type { MiddlewareHandler } from 'hono'
import {
  APP_CHUNKS,
  type SsrApi,
  type SsrMatch,
  type SsrModule,
  type SsrRenderer,
} from '../../contract/ssr.ts'
import {
  acceptedLanguages,
  DEFAULT_LOCALE,
  type Locale,
  localeFromCookies,
  preferredLocale,
  splitLocalePath,
} from '../../domain/locale.ts'
import { LOCALE_COOKIE } from '../../domain/storage.ts'
import { contentSecurityPolicy } from './http/security.ts'
import type { Logger } from './log.ts'

// The app's pages. The first screens (home, the location step a QR code leads to,
// event-not-found) are rendered by the app's own components on the server, from its server build
// (build/server/entry-server.js, `vite build --ssr`), which this module loads at run time: the server
// imports no app source (docs/architecture.md); src/contract/ssr.ts types the two sides. Every other
// page gets the plain shell (dist/index.html), rendered in the browser as it is offline.
//
// A made-up path costs no rendering and no compression. What a path is, is told first
// from the app's route tree alone; pages are cached by route (route, event, language), never by raw
// path; an unknown event or a path that matches no route gets the shell from one cached entry per
// language. The cache is bounded (LRU); each entry is compressed once, off the event loop.

/** A rendered page stays fresh this long: the devices' sold-out and availability badges come from
 * the catalogue reads, which keep rows as long (src/server/spotlight/service.ts). */
const FRESH_MS = 2000
/** An older page is still served while one request renders it again (never older than this). */
const STALE_MS = 60_000
/** How often the build's files are looked at for a deploy (three stat calls, which took about 40 %
 * of a cached page's time when made on every page): a new build is served within this. */
const BUILD_CHECK_MS = 1000
/** Pages kept at most: routes × events × languages, bounded whatever the catalogue holds. */
export const PAGE_CACHE_LIMIT = 500

export type PagesOptions = {
  distDir: string
  /** the app's server build; default build/server/entry-server.js beside dist/ */
  ssrEntry?: string
  /** /api/v1 answered in process (the app's route loaders call it) */
  api: SsrApi
  /** whether an event of that slug exists (a made-up slug is never rendered) */
  eventExists: (slug: string) => Promise<boolean>
  /** whether that event has a billboard of that id (a QR code's `?device=`; any other is rendered as none) */
  eventHasDevice: (slug: string, deviceId: string) => Promise<boolean>
  log: Logger
  /** The time the cache's freshness and the build's check go by; default Date.now. */
  now?: () => number
}

type Entry = {
  status: number
  /** a redirect's target path (the request's query is added when served) */
  location: string | null
  // each its own bytes, answered as they are (a Buffer may share the pool's memory)
  body: Uint8Array<ArrayBuffer>
  br: Uint8Array<ArrayBuffer>
  gzip: Uint8Array<ArrayBuffer>
  /** the page's own Content-Security-Policy (its inline scripts' hashes), else null */
  csp: string | null
  at: number
}

type Slot = { entry: Entry | null; pending: Promise<Entry> | null }

type Build = {
  key: string
  template: string
  manifest: Manifest | null
  renderer: SsrRenderer | null
}

type Manifest = Record<
  string,
  { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean }
>

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Compressed once per cached entry, on libuv's thread pool: Brotli 5 is a few milliseconds there
 * and within a few percent of Brotli 9 on HTML (the build precompresses the static files at 11). */
async function compressPage(body: Buffer) {
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: 5,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      },
    }),
    gzipAsync(body, { level: 6 }),
  ])
  return { br: new Uint8Array(br), gzip: new Uint8Array(gz) }
}

/** A least-recently-used map: the oldest use goes first when full. */
class Lru<V> {
  readonly #map = new Map<string, V>()
  constructor(readonly limit: number) {}
  get(key: string): V | undefined {
    const value = this.#map.get(key)
    if (value !== undefined) {
      this.#map.delete(key)
      this.#map.set(key, value)
    }
    return value
  }
  set(key: string, value: V): void {
    this.#map.delete(key)
    this.#map.set(key, value)
    while (this.#map.size > this.limit) {
      const oldest = this.#map.keys().next().value
      if (oldest === undefined) break
      this.#map.delete(oldest)
    }
  }
  delete(key: string): void {
    this.#map.delete(key)
  }
  clear(): void {
    this.#map.clear()
  }
  get size(): number {
    return this.#map.size
  }
}

const mtime = (file: string) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0

/** The SHA-256 sources of a page's inline scripts (the router's hydration state), for its CSP. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const m of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
    )
  }
  return hashes
}

/** The route files' chunk keys in Vite's manifest (TanStack's autoCodeSplitting), by route id. */
function routeChunkKey(routeId: string): string {
  const file =
    routeId === '/'
      ? 'index'
      : routeId.endsWith('/')
        ? `${routeId.slice(1)}index`
        : routeId.slice(1)
  return `src/app/routes/${file}.tsx?tsr-split=component`
}

/** The app's code a page needs at once (the app the entry imports once the page is painted, the
 * first part of its catalog, its route's chunks, with what they import), minus what index.html
 * already loads: listed as modulepreload links, so the browser asks for them with the page rather
 * than one round trip after another. */
/** The modulepreload links of the given files of the build. */
const modulepreloadLinks = (files: readonly string[]): string =>
  files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('')

function preloadChunks(
  manifest: Manifest,
  locale: Locale,
  routeIds: readonly string[],
  wholeCatalog: boolean,
): string[] {
  const walk = (key: string, into: Set<string>) => {
    const chunk = manifest[key]
    if (!chunk || into.has(chunk.file)) return
    into.add(chunk.file)
    for (const dep of chunk.imports ?? []) walk(dep, into)
  }
  const loaded = new Set<string>()
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry)
  if (entryKey) walk(entryKey, loaded)
  const wanted = new Set<string>()
  for (const key of [
    // src/app/main.tsx imports the app (src/app/start.tsx, vite.config.ts's 'app' chunk)
    ...((entryKey && manifest[entryKey]?.dynamicImports) ?? []),
    `src/locale/locales/${locale}/messages.po?first`,
    // a page rendered in the browser may be a later step, which waits for the rest of the catalog
    ...(wholeCatalog ? [`src/locale/locales/${locale}/messages.po?rest`] : []),
    ...routeIds.map(routeChunkKey),
  ])
    walk(key, wanted)
  return [...wanted].filter((file) => !loaded.has(file))
}

/** The language of the root page (spec §2/§9): the i18n_redirected cookie, else the first of the
 * browser's languages that the shop speaks. */
function rootLocale(cookie: string | undefined, acceptLanguage: string | undefined): Locale {
  return localeFromCookies(cookie) ?? preferredLocale(acceptedLanguages(acceptLanguage))
}

const localeCookie = (locale: Locale) =>
  `${LOCALE_COOKIE.name}=${locale}; Max-Age=${LOCALE_COOKIE.maxAgeDays * 86_400}; Path=/; SameSite=Lax`

function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = (acceptEncoding ?? '').toLowerCase()
  if (/\bbr\b/.test(accepted)) return 'br'
  if (/\bgzip\b/.test(accepted)) return 'gzip'
  return null
}

/** Pages: the GETs that are not files, not the API (./static.ts serves files first). */
export function servePages(options: PagesOptions): MiddlewareHandler & {
  /** entries in the page cache now (bounded whatever the paths asked) */
  cacheSize(): number
} {
  const distDir = resolve(options.distDir)
  const indexFile = join(distDir, 'index.html')
  const manifestFile = join(distDir, '.vite', 'manifest.json')
  const ssrEntry = resolve(
    options.ssrEntry ?? join(distDir, '..', 'build', 'server', 'entry-server.js'),
  )
  const { log } = options
  const cache = new Lru<Slot>(PAGE_CACHE_LIMIT)
  let current: Build | null = null
  let loading: Promise<Build> | null = null

  const now = options.now ?? Date.now
  // A deploy (a new index.html or server build) is seen within BUILD_CHECK_MS: the build's files
  // are checked then, and a new build empties the cache.
  const loadBuild = async (key: string): Promise<Build> => {
    const template = readFileSync(indexFile, 'utf8')
    const manifest = existsSync(manifestFile)
      ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest)
      : null
    let renderer: SsrRenderer | null = null
    if (existsSync(ssrEntry)) {
      try {
        // a new file URL per build: ES modules are cached by URL
        const url = `${pathToFileURL(ssrEntry).href}?build=${mtime(ssrEntry)}`
        const mod = (await import(url)) as SsrModule
        renderer = mod.createRenderer({
          api: options.api,
          onError: (error) => log.error('page render error', { error }),
        })
      } catch (error) {
        log.error('the app server build could not be loaded: pages render in the browser', {
          error,
        })
      }
    } else {
      log.warn('no app server build (build/server): pages render in the browser', { ssrEntry })
    }
    cache.clear()
    return { key, template, manifest, renderer }
  }
  let checkedAt = Number.NEGATIVE_INFINITY
  const build = async (): Promise<Build | null> => {
    const at = now()
    if (current && at >= checkedAt && at - checkedAt < BUILD_CHECK_MS) return current
    checkedAt = at
    if (!existsSync(indexFile)) return null
    const key = `${mtime(indexFile)}|${mtime(ssrEntry)}|${mtime(manifestFile)}`
    if (current?.key === key) return current
    if (!loading) {
      loading = loadBuild(key).finally(() => {
        loading = null
      })
    }
    current = await loading
    return current
  }

  const entryOf = async (html: string, status: number, location: string | null) => {
    const body = Buffer.from(html)
    const hashes = inlineScriptHashes(html)
    return {
      status,
      location,
      body: new Uint8Array(body),
      ...(await compressPage(body)),
      csp: hashes.length > 0 ? contentSecurityPolicy({ scriptHashes: hashes }) : null,
      at: now(),
    }
  }

  /** The plain shell, in the page's language (its lang and its route's chunks filled in). */
  const shell = (b: Build, locale: Locale, routeIds: readonly string[], status: number) => {
    let html = b.template.replace(/<html lang="[^"]*">/, `<html lang="${locale}">`)
    const links = b.manifest ? preloadChunks(b.manifest, locale, routeIds, true) : []
    if (links.length > 0) {
      html = html.replace('</head>', `${modulepreloadLinks(links)}</head>`)
    }
    return entryOf(html, status, null)
  }

  /** The server's render of a first screen. Its code's modulepreload links are in an inert
   * <template> (APP_CHUNKS): the entry (src/app/main.tsx) puts them in the head once the browser
   * reports the first contentful paint. asked for with the page, even at low priority,
   * the app's 105 KB were whole before the first paint on a fast connection, and Lighthouse's
   * simulated LCP then counted their download on slow 4G (LCP ~0.9 s after an FCP that had already painted the largest element). The
   * page is there to read without them; they only make it interactive. */
  const rendered = async (
    b: Build,
    renderer: SsrRenderer,
    m: Classified & { device: string | null },
  ) => {
    const result = await renderer.render({ ...m, template: b.template })
    if (result.kind === 'redirect') return entryOf('', result.status, result.location)
    const links = b.manifest ? preloadChunks(b.manifest, m.locale, m.routeIds, false) : []
    const html = result.html.replace(
      '</head>',
      `<template id="${APP_CHUNKS}">${modulepreloadLinks(links)}</template></head>`,
    )
    return entryOf(html, result.status, null)
  }

  /** A QR code's billboard as the page is rendered and kept for it: one entry per billboard the
   * event has (bounded by the catalogue), and one for every other code, rendered as a code no
   * billboard has (a space), whose notice does not repeat it. */
  const qrDevice = async (asked: string | null, slug: string | null) =>
    asked && slug !== null ? ((await options.eventHasDevice(slug, asked)) ? asked : ' ') : null

  /** One cached entry per key: fresh ones served, stale ones served while one request renders
   * again, concurrent misses waiting for the same render. */
  const cached = async (key: string, make: () => Promise<Entry>): Promise<Entry> => {
    const at = now()
    const slot = cache.get(key) ?? { entry: null, pending: null }
    const usable = slot.entry && at - slot.entry.at < STALE_MS ? slot.entry : null
    if (slot.entry && at - slot.entry.at < FRESH_MS) return slot.entry
    if (!slot.pending) {
      const pending = make().then(
        (entry) => {
          slot.pending = null
          // only what a shopper should see again: pages, redirects, the 404 shell
          if (entry.status < 500) slot.entry = entry
          else cache.delete(key)
          return entry
        },
        (error: unknown) => {
          slot.pending = null
          cache.delete(key)
          throw error
        },
      )
      slot.pending = pending
      cache.set(key, slot)
      // a stale page's refresh failing is logged; the shopper has the stale page
      if (usable) pending.catch((error: unknown) => log.error('page render failed', { error }))
    }
    return usable ?? (slot.pending as Promise<Entry>)
  }

  type Classified = SsrMatch & { locale: Locale; path: string }

  const handler: MiddlewareHandler = async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const pathname = c.req.path
    if (pathname.startsWith('/api/')) return next()
    let decoded: string
    try {
      decoded = decodeURIComponent(pathname)
    } catch {
      return next()
    }
    // A missing file (e.g. /assets/old.js, /.vite/manifest.json) is a real 404, not the app.
    if (/\.[^/]*$/.test(decoded) && !decoded.endsWith('.html')) return next()
    if (decoded.split('/').some((segment) => segment.startsWith('.'))) return next()
    const b = await build()
    if (!b) return next()

    const query = new URL(c.req.url).search
    const vary = ['Accept-Encoding']
    const extraHeaders: Record<string, string> = {}
    // spec §2/§9: the root page speaks the cookie's language, else the browser's; French and German
    // live under their prefix, so the root sends them there (and the cookie keeps the choice).
    if (pathname === '/') {
      vary.push('Accept-Language', 'Cookie')
      const cookie = c.req.header('cookie')
      const locale = rootLocale(cookie, c.req.header('accept-language'))
      const setCookie = localeFromCookies(cookie) === null ? localeCookie(locale) : null
      if (setCookie) extraHeaders['Set-Cookie'] = setCookie
      if (locale !== DEFAULT_LOCALE) {
        return new Response(null, {
          status: 302,
          headers: { Location: `/${locale}${query}`, Vary: vary.join(', '), ...extraHeaders },
        })
      }
    }

    let entry: Entry
    const m: Classified = b.renderer
      ? b.renderer.classify(decoded)
      : { ...splitLocalePath(decoded), kind: 'shell', routeIds: [], slug: null }
    if (m.kind === 'none') {
      // no route: the app's 404 page, rendered in the browser; one entry per language
      entry = await cached(`shell|none|${m.locale}`, () => shell(b, m.locale, [], 404))
    } else if (m.kind === 'shell' || !b.renderer) {
      const leaf = m.routeIds.at(-1) ?? ''
      entry = await cached(`shell|${leaf}|${m.locale}`, () => shell(b, m.locale, m.routeIds, 200))
    } else if (m.slug !== null && !(await options.eventExists(m.slug))) {
      // a slug that names no event: the shell, whose router sends it to event-not-found
      entry = await cached(`shell|unknown-event|${m.locale}`, () => shell(b, m.locale, [], 200))
    } else {
      const renderer = b.renderer
      const leaf = m.routeIds.at(-1) ?? ''
      const device = await qrDevice(new URLSearchParams(query).get('device'), m.slug)
      try {
        entry = await cached(`page|${leaf}|${m.slug ?? ''}|${m.locale}|${device ?? ''}`, () =>
          rendered(b, renderer, { ...m, device }),
        )
      } catch (error) {
        log.error('page render failed: the shell is sent instead', { path: decoded, error })
        entry = await cached(`shell|${leaf}|${m.locale}`, () => shell(b, m.locale, m.routeIds, 200))
      }
    }

    if (entry.location !== null) {
      // every redirect of the app keeps the query (spec §2): the cached target gets this one's
      return new Response(null, {
        status: entry.status,
        headers: { Location: `${entry.location}${query}`, Vary: vary.join(', '), ...extraHeaders },
      })
    }
    const encoding = pickEncoding(c.req.header('accept-encoding'))
    const body = encoding ? entry[encoding] : entry.body
    const headers: Record<string, string> = {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': String(body.length),
      'Cache-Control': 'no-cache',
      Vary: vary.join(', '),
      ...extraHeaders,
    }
    if (encoding) headers['Content-Encoding'] = encoding
    if (entry.csp) headers['Content-Security-Policy'] = entry.csp
    return new Response(c.req.method === 'HEAD' ? null : body, {
      status: entry.status,
      headers,
    })
  }
  return Object.assign(handler, { cacheSize: () => cache.size })
}
