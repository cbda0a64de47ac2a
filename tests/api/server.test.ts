import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_BASE, allEndpoints } from '../../src/contract/index.ts'
import { meta } from '../../src/contract/meta.ts'
import { englishOf } from '../../src/contract/problems.ts'
import { createApp } from '../../src/server/app.ts'
import { checkBuilt, startServer } from '../../src/server/main.ts'
import { createPaymentService } from '../../src/server/payment/service.ts'
import { createStripeProvider } from '../../src/server/payment/stripe.ts'
import { processStartToken } from '../../src/server/platform/db/client.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import {
  answerOf,
  type Client,
  client,
  freshDataDir,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { PROD_SELLER } from './prod-seller.ts'

// Security headers, structured logs with a request id, feature flags, OpenAPI, errors as
// {errors}, the built PWA served with a fallback for deep links; connections that send too slowly or
// go away; a start on the embedded database beside a stale lock file.
let server: TestServer
let api: Client
const lines: string[] = []

beforeAll(async () => {
  server = await startTestServer('pglite', {
    log: createLogger('info', {}, (line) => lines.push(line)),
    env: { MAP_TILES: 'https://tiles.example.org/shouts.pmtiles' },
  })
  api = client(server.url)
})
afterAll(async () => {
  await server?.stop()
})

describe('every response', () => {
  it('of a page carries the security headers, with a CSP for what the app loads', async () => {
    for (const path of ['/s/privacy/en', '/s/privacy/fr']) {
      const res = await fetch(`${server.url}${path}`)
      expect(res.status).toBe(200)
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain('https://js.stripe.com')
      expect(csp).toContain('https://api.stripe.com')
      expect(csp).toContain('blob:')
      // the map's archive is read through the shop, wherever it lives
      expect(csp).not.toContain('tiles.example.org')
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).not.toContain("'unsafe-eval'")
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin')
      expect(res.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/)
    }
  })

  it('of the API carries a policy that allows nothing, since its data is never a page', async () => {
    for (const path of ['/health', '/spotlight/events/nothing']) {
      const res = await api.get(path)
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      )
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(res.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/)
    }
  })

  it('of a shop whose public address is https carries HSTS, with no proxy to say so', async () => {
    // no HSTS here: plain HTTP, no PUBLIC_BASE_URL, no trusted proxy
    expect((await api.get('/health')).headers.get('strict-transport-security')).toBeNull()
    const https = await startTestServer('pglite', {
      env: { PUBLIC_BASE_URL: 'https://shouts.example' },
    })
    try {
      for (const path of ['/health', '/spotlight/events/nothing']) {
        const res = await client(https.url).get(path)
        expect(res.headers.get('strict-transport-security')).toBe(
          'max-age=63072000; includeSubDomains',
        )
      }
    } finally {
      await https.stop()
    }
  })

  it('is logged as one JSON line with the request id', async () => {
    const res = await api.get('/health', { 'x-request-id': 'trace-me-123' })
    expect(res.headers.get('x-request-id')).toBe('trace-me-123')
    const entry = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e.requestId === 'trace-me-123')
    expect(entry).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/api/v1/health',
      status: 200,
    })
    expect(typeof entry?.time).toBe('string')
    // a forged id with spaces or newlines is replaced
    const forged = await api.get('/health', { 'x-request-id': 'bad id\tvalue' })
    expect(forged.headers.get('x-request-id')).not.toContain(' ')
  })

  it('sends large JSON answers gzipped to a client that accepts it, and plain to one that does not', async () => {
    const url = `${server.url}/api/v1/openapi.json`
    const gzipped = await fetch(url, { headers: { 'accept-encoding': 'gzip' } })
    expect(gzipped.headers.get('content-encoding')).toBe('gzip')
    expect(gzipped.headers.get('vary')).toBe('Accept-Encoding')
    expect(gzipped.headers.get('content-security-policy')).toContain("default-src 'none'")
    const unzipped = (await gzipped.json()) as { openapi: string }
    const plain = await fetch(url, { headers: { 'accept-encoding': 'identity, gzip;q=0' } })
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toBe('Accept-Encoding')
    expect(await plain.json()).toEqual(unzipped)
    // a small answer is not worth compressing
    const small = await fetch(`${server.url}/api/v1/health`, {
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(small.headers.get('content-encoding')).toBeNull()
  })

  it('answers unknown API paths with 404 {errors, codes}', async () => {
    expect(await api.get('/nothing/here')).toMatchObject({
      status: 404,
      body: { errors: ['No API endpoint GET /api/v1/nothing/here'], codes: ['endpoint_not_found'] },
    })
    const res = await fetch(`${server.url}/api/v2/x`)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({
      errors: ['No API endpoint GET /api/v2/x'],
      codes: ['endpoint_not_found'],
      params: [{ method: 'GET', path: '/api/v2/x' }],
    })
  })
})

describe('feature flags, health and OpenAPI', () => {
  it('gives one flag set per environment', async () => {
    const res = answerOf(meta.featureFlags, await api.get('/feature-flags/shouts'))
    expect(Object.keys(res).sort()).toEqual(['dev', 'local', 'prod'])
    expect(typeof res.prod?.['show-footer']).toBe('boolean')
    expect((await api.get('/feature-flags/other')).status).toBe(404)
  })

  it('serves an OpenAPI document of exactly the routes the server registered (src/contract)', async () => {
    const res = await api.get<{
      openapi: string
      paths: Record<string, Record<string, { operationId: string }>>
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> }
    }>('/openapi.json')
    expect(res.status).toBe(200)
    expect(res.body.openapi).toBe('3.1.0')
    const documented = Object.entries(res.body.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort()
    // Hono's routes under the API base, in the contract's {param} syntax (HEAD of file routes, the
    // CORS preflight of `cors` endpoints and middleware aside): a route registered without the
    // contract would show up here.
    const registered = [
      ...new Set(
        server
          .routes()
          .filter(
            (r) => r.path.startsWith(API_BASE) && !['ALL', 'HEAD', 'OPTIONS'].includes(r.method),
          )
          .filter((r) => !r.path.endsWith('*'))
          .map((r) => `${r.method} ${r.path.slice(API_BASE.length).replace(/:(\w+)/g, '{$1}')}`),
      ),
    ].sort()
    expect(registered).toEqual(documented)
    expect(documented).toEqual(allEndpoints.map((e) => `${e.method} ${e.path}`).sort())
    // the QR routes were missing from the hand-written table before
    expect(documented).toContain('GET /spotlight/events/{slug}/devices/{deviceId}/qr.png')
    const order = res.body.components.schemas.placeOrderRequest
    expect(Object.keys(order?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'entries',
        'eventSlug',
        'executionContentKey',
        'checkout',
        'agreements',
      ]),
    )
  })
})

describe('payments through Stripe', () => {
  it('a production server without Stripe does not start, and names the variables to set', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'shouts-prod-'))
    await expect(
      startServer({
        port: 0,
        dataDir,
        serveApp: false,
        env: {
          APP_ENV: 'prod',
          PUBLIC_BASE_URL: 'https://shouts.example',
          STRIPE_SECRET_KEY: undefined,
          STRIPE_PUBLISHABLE_KEY: undefined,
          LOG_LEVEL: 'silent',
        },
      }),
    ).rejects.toThrow('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set when APP_ENV=prod')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("a production server with Stripe's test key does not start unless test payments are allowed", async () => {
    // the embedded database from the tests' empty cluster: what is tested is the start's rules, and
    // a fresh initdb takes a minute on a loaded machine
    const dataDir = await freshDataDir()
    const prod = {
      APP_ENV: 'prod',
      PUBLIC_BASE_URL: 'https://shouts.example',
      ADVERTISER_TOKEN_KEYS: 'k'.repeat(32),
      ERASURE_LINK_KEY: 'e'.repeat(32),
      ...PROD_SELLER,
      STRIPE_SECRET_KEY: 'sk_test_shouts_staging',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_shouts_staging',
      STRIPE_WEBHOOK_SECRET: 'whsec_shouts_staging',
      // nothing here calls Stripe (the port is closed)
      STRIPE_API_URL: 'http://127.0.0.1:9',
      LOG_LEVEL: 'silent',
    }
    const start = (env: Record<string, string | undefined>) =>
      startServer({ port: 0, dataDir, serveApp: false, env })
    await expect(start(prod)).rejects.toThrow('STRIPE_SECRET_KEY is a test key (sk_test_…)')
    await expect(start({ ...prod, STRIPE_WEBHOOK_SECRET: undefined })).rejects.toThrow(
      'STRIPE_WEBHOOK_SECRET must be set when APP_ENV=prod',
    )
    const staging = await start({ ...prod, ALLOW_TEST_PAYMENTS: '1' })
    try {
      expect(staging.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    } finally {
      await staging.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('answers 503 with {errors} when Stripe cannot be reached, and refuses local test cards', async () => {
    const payment = createPaymentService({
      ...server.deps,
      provider: createStripeProvider('sk_test_offline_shouts', 'pk_test_offline_shouts'),
    })
    const app = createApp({ ...server.deps, payment })
    const setup = await app.request('/api/v1/order/payment/setup-intent', { method: 'POST' })
    expect(setup.status).toBe(503)
    expect(await setup.json()).toEqual({
      errors: [englishOf({ code: 'payment_unavailable' })],
      codes: ['payment_unavailable'],
    })
    const local = await app.request('/api/v1/order/payment/local/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        clientSecret: 'x',
        cardNumber: '4242424242424242',
        expMonth: 1,
        expYear: 2040,
        cvc: '123',
      }),
    })
    expect(local.status).toBe(404)
    expect(await local.json()).toMatchObject({ codes: ['local_cards_disabled'] })
  })
})

describe('ffmpeg in production', () => {
  // ffmpeg parses strangers' uploads: a production shop runs a maintained one (decision 026).
  const prod = {
    APP_ENV: 'prod',
    PUBLIC_BASE_URL: 'https://shouts.example',
    ADVERTISER_TOKEN_KEYS: 'k'.repeat(32),
    ERASURE_LINK_KEY: 'e'.repeat(32),
    ...PROD_SELLER,
    STRIPE_SECRET_KEY: 'sk_test_shouts_staging',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_shouts_staging',
    STRIPE_WEBHOOK_SECRET: 'whsec_shouts_staging',
    ALLOW_TEST_PAYMENTS: '1',
    STRIPE_API_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'silent',
  }
  let dir = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'shouts-prod-ffmpeg-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // nothing is opened before ffmpeg is judged: the data folder is never used
  const start = (env: Record<string, string | undefined>) =>
    startServer({ port: 0, dataDir: join(dir, 'data'), serveApp: false, env: { ...prod, ...env } })

  it('a production server without ffmpeg does not start, and says to install the system package or set FFMPEG_PATH', async () => {
    const empty = join(dir, 'empty')
    mkdirSync(empty)
    await expect(start({ PATH: empty })).rejects.toThrow(
      'A production shop (APP_ENV=prod) makes video shouts with ffmpeg. ffmpeg and ffprobe were not found on PATH: install the system package (apt-get install ffmpeg on Debian and Ubuntu, brew install ffmpeg on macOS) or set FFMPEG_PATH and FFPROBE_PATH.',
    )
  })

  it("a production server refuses an npm package's static ffmpeg, named directly or found on PATH", async () => {
    // where @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe put their 2018 builds
    const ffmpegDir = join(dir, 'node_modules', '@ffmpeg-installer', 'linux-x64')
    const ffprobeDir = join(dir, 'node_modules', '@ffprobe-installer', 'linux-x64')
    for (const [folder, name] of [
      [ffmpegDir, 'ffmpeg'],
      [ffprobeDir, 'ffprobe'],
    ] as const) {
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, name), '#!/bin/sh\n', { mode: 0o755 })
    }
    const named = start({
      FFMPEG_PATH: join(ffmpegDir, 'ffmpeg'),
      FFPROBE_PATH: join(ffprobeDir, 'ffprobe'),
    })
    await expect(named).rejects.toThrow(
      "a production shop (APP_ENV=prod) never runs an ffmpeg from node_modules (an npm package's static build, which no system update reaches, would parse strangers' uploads). Install the system package (apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH to a maintained build.",
    )
    await expect(start({ PATH: `${ffmpegDir}:${ffprobeDir}` })).rejects.toThrow(
      'never runs an ffmpeg from node_modules',
    )
  })
})

describe('the built app', () => {
  it('serves files, and index.html for deep links, but never for the API or missing assets', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'shouts-dist-'))
    mkdirSync(join(dist, 'assets'))
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><title>Shouts</title><meta name="build" content="test">',
    )
    writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)')
    const app = createApp({ ...server.deps, distDir: dist })
    const deep = await app.request('/share-the-love/order/checkout?promo=LOVE10')
    expect(deep.status).toBe(200)
    expect(await deep.text()).toContain('<meta name="build" content="test">')
    expect(deep.headers.get('content-security-policy')).toContain("default-src 'self'")
    const asset = await app.request('/assets/app-1234.js')
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toContain('text/javascript')
    expect(asset.headers.get('cache-control')).toContain('immutable')
    expect((await app.request('/assets/gone-9999.js')).status).toBe(404)
    expect((await app.request('/../../etc/passwd')).status).not.toBe(500)
    const apiMiss = await app.request('/api/v1/nothing')
    expect(apiMiss.status).toBe(404)
    expect(await apiMiss.json()).toEqual({
      errors: [expect.any(String)],
      codes: ['endpoint_not_found'],
      params: [{ method: 'GET', path: '/api/v1/nothing' }],
    })
  })
})

/** Sends `text` on a raw connection and resolves when the server closes it (with what it sent). */
function rawConnection(
  url: string,
  text: string,
): { closed: Promise<string>; write(t: string): void } {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    received += chunk
  })
  socket.write(text)
  return {
    closed: new Promise((resolve) => {
      socket.on('close', () => resolve(received))
      socket.on('error', () => undefined)
    }),
    write: (t) => {
      if (!socket.destroyed) socket.write(t)
    },
  }
}

describe('slow and broken connections', () => {
  let server: TestServer
  const logs: string[] = []

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      log: createLogger('info', {}, (line) => logs.push(line)),
      // short, so that the test sees them act; the real ones are HTTP_TIMEOUTS (main.ts)
      httpTimeouts: {
        headersTimeout: 1_000,
        requestTimeout: 2_000,
        connectionsCheckingInterval: 200,
      },
    })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('closes a connection whose headers come one byte at a time (slowloris)', async () => {
    const slow = rawConnection(server.url, 'GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    const drip = setInterval(() => slow.write('X'), 300)
    try {
      const answer = await slow.closed
      // Node answers 408 before it closes, or just closes
      expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true)
    } finally {
      clearInterval(drip)
    }
  })

  it('closes a request whose body trickles past the request timeout', async () => {
    const slow = rawConnection(
      server.url,
      'POST /api/v1/spotlight/slots/search HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{',
    )
    const drip = setInterval(() => slow.write(' '), 300)
    try {
      await slow.closed
    } finally {
      clearInterval(drip)
    }
    expect(logs.filter((line) => line.includes('unhandled error'))).toEqual([])
  })

  it('a client leaving mid-body logs no unhandled error', async () => {
    for (const path of ['/api/v1/spotlight/slots/search', '/api/v1/order/orders']) {
      const { hostname, port } = new URL(server.url)
      const socket = connect(Number(port), hostname)
      socket.on('error', () => undefined)
      await new Promise<void>((resolve) => socket.on('connect', resolve))
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\nidempotency-key: gone\r\ncontent-length: 500\r\n\r\n{"deviceId": "par`,
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
      socket.destroy()
    }
    // the server notices the reset and finishes the request; then the logs are read
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(logs.filter((line) => line.includes('unhandled error'))).toEqual([])
    expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200)
  })
})

describe('starting on the embedded database', () => {
  it('a stale lock naming a live, unrelated process does not block the start', async () => {
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' })
    try {
      const pid = sleeper.pid as number
      for (const stale of [
        // the pid is alive but it is not the process that wrote the lock (another start token)
        `${pid} 1`,
        // the older form, a pid alone: a live process, but not node
        String(pid),
      ]) {
        const dataDir = await freshDataDir()
        writeFileSync(join(dataDir, 'pglite.lock'), stale)
        const server = await startTestServer('pglite', { dataDir })
        expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200)
        await server.stop()
      }
    } finally {
      sleeper.kill()
    }
  })

  it('a lock held by a running shop still blocks a second start', async () => {
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], {
      stdio: 'ignore',
    })
    try {
      const pid = owner.pid as number
      const token = processStartToken(pid)
      expect(token).not.toBeNull()
      const dataDir = await freshDataDir()
      writeFileSync(join(dataDir, 'pglite.lock'), `${pid} ${token}`)
      await expect(startTestServer('pglite', { dataDir })).rejects.toThrow(
        `is in use by process ${pid}`,
      )
    } finally {
      owner.kill()
    }
  })
})

describe('a start without the build', () => {
  it('is refused with one line saying to run `npm run build` (the server never builds)', () => {
    const empty = mkdtempSync(join(tmpdir(), 'shouts-unbuilt-'))
    try {
      expect(() => checkBuilt(empty)).toThrow(
        /^dist\/index\.html and build\/server\/entry-server\.js missing: run `npm run build` first$/,
      )
      mkdirSync(join(empty, 'dist'))
      writeFileSync(join(empty, 'dist', 'index.html'), '<!doctype html>')
      expect(() => checkBuilt(empty)).toThrow(
        /^build\/server\/entry-server\.js missing: run `npm run build` first$/,
      )
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})
