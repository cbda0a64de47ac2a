import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LIVE_EVENT_SLUG } from '../../src/server/catalogue/demo-catalogue.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { PROJECT_ROOT } from '../../src/server/platform/paths.ts'
import { PAGE_CACHE_LIMIT, servePages } from '../../src/server/platform/ssr.ts'
import { startTestServer, type TestServer } from './helpers.ts'

// The first screens rendered by the app's server build, through the real server on the
// real build (`npm run build` makes dist/ and build/server; `npm test` runs it first).
// Made-up paths cost no render and no compression, and the page cache stays bounded.

let server: TestServer
beforeAll(async () => {
  // The made-up-path flood below keeps this process's event loop (the test's and the server's) busy
  // for seconds: a keep-alive connection of the test's fetch that sat idle past the server's 5 s
  // keepAliveTimeout meanwhile is closed by the server just as fetch reuses it (ECONNRESET, seen once
  // JSON answers stopped being streamed). The test's subject is the page cache, not idle
  // connections: they are kept for a minute here.
  server = await startTestServer('pglite', {
    serveApp: true,
    httpTimeouts: { keepAliveTimeout: 60_000 },
  })
}, 300_000)
afterAll(async () => {
  await server?.stop()
})

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers, redirect: 'manual' })

const inlineScripts = (html: string) =>
  [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '')

/** Paths no shop has: single segments (an event's place), deeper ones, language prefixes, steps. */
function madeUpPath(i: number): string {
  const word = `${i.toString(36)}x${Math.random().toString(36).slice(2, 8)}`
  const shapes = [
    `/${word}`,
    `/fr/${word}`,
    `/${word}/${word}`,
    `/${word}/design/location`,
    `/de/${word}/order/review`,
    `/${LIVE_EVENT_SLUG}/${word}`,
    `/${word}/a/b/c`,
  ]
  return shapes[i % shapes.length] ?? '/'
}

describe('the first screens, rendered on the server', () => {
  it('renders the home page and the location step in their language, with the hydration state', async () => {
    const home = await get('/')
    expect(home.status).toBe(200)
    const html = await home.text()
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('<h1 class="home__title">Share the Gift of a Billboard</h1>')
    expect(html).toContain('Share the Love')
    expect(html).toContain('$_TSR')

    const fr = await get(`/fr/${LIVE_EVENT_SLUG}/design/location`)
    expect(fr.status).toBe(200)
    const page = await fr.text()
    expect(page).toContain('<html lang="fr">')
    expect(page).toContain('<h1 class="page__title">Choisissez un panneau</h1>')
    expect(page).toContain('<h3 class="billboard__name">Place de l&#x27;Opéra')
    // every inline script is named by its hash in the page's own CSP; no 'unsafe-inline' script
    const csp = fr.headers.get('content-security-policy') ?? ''
    const scripts = inlineScripts(page)
    expect(scripts.length).toBeGreaterThan(0)
    for (const body of scripts) {
      expect(csp).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`)
    }
    expect(/script-src[^;]*unsafe-inline/.test(csp)).toBe(false)
  })

  it('renders two events in two languages at once without mixing them', async () => {
    const [a, b] = await Promise.all([
      get(`/fr/${LIVE_EVENT_SLUG}/design/location`).then((r) => r.text()),
      get('/de/test-wow-2022/design/location').then((r) => r.text()),
    ])
    expect(a).toContain('<html lang="fr">')
    expect(a).toContain('<p class="page__lead">Share the Love</p>')
    expect(b).toContain('<html lang="de">')
    expect(b).toContain('<h1 class="page__title">Wähle eine Werbetafel</h1>')
    expect(b).not.toContain('<p class="page__lead">Share the Love</p>')
  })

  it('sends the root to the language of the cookie or the browser, and keeps the choice', async () => {
    const german = await get('/?x=1', { 'accept-language': 'de-DE,de;q=0.9' })
    expect(german.status).toBe(302)
    expect(german.headers.get('location')).toBe('/de?x=1')
    expect(german.headers.get('set-cookie')).toMatch(/^i18n_redirected=de;.*SameSite=Lax/)
    const byCookie = await get('/', { 'accept-language': 'de-DE', cookie: 'i18n_redirected=fr' })
    expect(byCookie.headers.get('location')).toBe('/fr')
    const english = await get('/', { 'accept-language': 'en-GB', cookie: 'i18n_redirected=en' })
    expect(english.status).toBe(200)
  })

  it("answers the QR code's address with the route's redirect, its query kept", async () => {
    const qr = await get(`/${LIVE_EVENT_SLUG}?device=paris-opera-1`)
    expect(qr.status).toBe(307)
    expect(qr.headers.get('location')).toBe(
      `/${LIVE_EVENT_SLUG}/design/location?device=paris-opera-1`,
    )
    // the same cached redirect, another billboard's code
    const other = await get(`/${LIVE_EVENT_SLUG}?device=paris-republique`)
    expect(other.headers.get('location')).toBe(
      `/${LIVE_EVENT_SLUG}/design/location?device=paris-republique`,
    )
  })

  it("shows the QR code's billboard first in the server's page; a made-up code gets one notice that does not repeat it", async () => {
    const page = await (
      await get(`/${LIVE_EVENT_SLUG}/design/location?device=paris-opera-1`)
    ).text()
    expect(page).toContain('<section id="arrival"')
    expect(page).toContain('You&#x27;re at Place de l&#x27;Opéra')
    for (const code of ['made-up', 'another-one']) {
      const plain = await (await get(`/${LIVE_EVENT_SLUG}/design/location?device=${code}`)).text()
      expect(plain).toContain('<div id="arrival" class="notice notice--error" role="alert">')
      expect(plain).toContain('This event has no billboard with this QR code.')
      expect(plain).not.toContain(code)
      expect(plain).toContain('<h1 class="page__title">Choose a billboard</h1>')
    }
  })

  it('answers the later steps, unknown events and unknown pages with the plain shell', async () => {
    for (const [path, status] of [
      [`/${LIVE_EVENT_SLUG}/order/review`, 200],
      ['/no-such-event/design/location', 200],
      [`/${LIVE_EVENT_SLUG}/design/nowhere`, 404],
    ] as const) {
      const res = await get(path)
      expect(res.status).toBe(status)
      const html = await res.text()
      expect(html).toContain('<div id="root"></div>')
      expect(html).not.toContain('$_TSR')
    }
  })

  it("says a failure of the server's data in the page's language", async () => {
    // the live events cannot be read: the home page's loader gets the API's 500 (unknown_error)
    const db = server.deps.database
    await db.query(sql`alter table events rename to events_away`)
    try {
      for (const [lang, heading, reason, other] of [
        [
          'fr',
          'Erreur de l&#x27;application',
          'Une erreur inconnue s&#x27;est produite. Veuillez réessayer.',
          'Recharger',
        ],
        [
          'de',
          'Anwendungsfehler',
          'Ein unbekannter Fehler ist aufgetreten. Bitte versuche es erneut.',
          'Zurück',
        ],
      ] as const) {
        const res = await get(`/${lang}`)
        expect(res.status).toBe(500)
        const html = await res.text()
        expect(html).toContain(`<html lang="${lang}">`)
        expect(html).toContain(`<h1>${heading}</h1>`)
        expect(html).toContain(`<p class="error-page__detail">${reason}</p>`)
        expect(html).toContain(other)
        // the browser hydrates it with the error's message only: that is its problem's code, which
        // the browser translates the same way (never an English sentence matched back to a code)
        expect(html).toContain('new Error("unknown_error")')
        expect(html.replace(/<script[\s\S]*?<\/script>/g, '')).not.toContain('unknown error')
      }
    } finally {
      await db.query(sql`alter table events_away rename to events`)
    }
    // a failure is not kept: the page answers again once the data is back
    const again = await get('/fr')
    expect(again.status).toBe(200)
    expect(await again.text()).toContain('Share the Love')
  })
})

describe('made-up paths', () => {
  it('cost no render: the cache stays bounded and an ordinary page still answers', async () => {
    // the module itself, on the same build and the same server's API, to read its cache
    const pages = servePages({
      distDir: join(PROJECT_ROOT, 'dist'),
      api: (path, init) => fetch(`${server.url}${path}`, init),
      eventExists: async (slug) => (await server.deps.catalogue.reads.event(slug)) !== null,
      eventHasDevice: async (slug, id) =>
        (await server.deps.catalogue.reads.eventDevice(slug, id)) !== null,
      log: server.deps.log,
    })
    const app = new Hono()
    app.use(pages)
    expect((await app.request(`/${LIVE_EVENT_SLUG}/design/location`)).status).toBe(200)
    const before = pages.cacheSize()

    let next = 0
    const statuses = new Map<number, number>()
    const flood = async () => {
      while (next < 1400) {
        const res = await app.request(madeUpPath(next++), {
          headers: { 'accept-encoding': 'br, gzip' },
        })
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
        await res.arrayBuffer()
      }
    }
    // an ordinary shopper's page while eight clients ask for paths no shop has
    const ordinary = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 50))
      return app.request(`/fr/${LIVE_EVENT_SLUG}/design/location`)
    })()
    await Promise.all([...Array.from({ length: 8 }, flood), ordinary])

    expect([...statuses.keys()].sort()).toEqual([200, 404])
    // made-up paths share a handful of entries (the shell per language, for a path that matches no
    // route and for an event that does not exist), whatever their number
    expect(pages.cacheSize()).toBeLessThanOrEqual(before + 6 + 1)
    expect(pages.cacheSize()).toBeLessThan(PAGE_CACHE_LIMIT)
    const page = await ordinary
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<h1 class="page__title">Choisissez un panneau</h1>')
  }, 120_000)

  it('answers them over HTTP as the shell, never as a server error', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => get(madeUpPath(i)).then((r) => r.status)),
    )
    expect(results.every((status) => status === 200 || status === 404)).toBe(true)
    expect((await get(`/${LIVE_EVENT_SLUG}/design/location`)).status).toBe(200)
  })
})
