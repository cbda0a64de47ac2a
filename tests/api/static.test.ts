import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/server/app.ts'
import { precompressDir } from '../../src/server/platform/precompress.ts'
import { startTestServer, type TestServer } from './helpers.ts'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer('pglite')
})
afterAll(async () => {
  await server?.stop()
})

describe('the built app over weak mobile data', () => {
  it('sends text assets compressed with Brotli or gzip, and the same bytes once decoded', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'shouts-dist-'))
    mkdirSync(join(dist, 'assets'))
    const js = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `row ${i}`))}\n`
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Shouts</title>')
    writeFileSync(join(dist, 'assets', 'app-1234.js'), js)
    writeFileSync(join(dist, 'icon.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    // Compressed once, at build time, beside the files (the build runs the same step)
    expect(await precompressDir(dist)).toBe(1)
    expect(await precompressDir(dist)).toBe(0)
    const app = createApp({ ...server.deps, distDir: dist })

    const br = await app.request('/assets/app-1234.js', {
      headers: { 'accept-encoding': 'gzip, br' },
    })
    expect(br.headers.get('content-encoding')).toBe('br')
    const brBytes = Buffer.from(await br.arrayBuffer())
    expect(brBytes.length).toBeLessThan(js.length / 3)
    expect(Number(br.headers.get('content-length'))).toBe(brBytes.length)
    expect(brotliDecompressSync(brBytes).toString()).toBe(js)

    const gz = await app.request('/assets/app-1234.js', { headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(js)

    const plain = await app.request('/assets/app-1234.js')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe(js)

    const image = await app.request('/icon.png', { headers: { 'accept-encoding': 'br' } })
    expect(image.headers.get('content-encoding')).toBeNull()
  })

  it('never compresses a file per request: without fresh .br/.gz files it goes as it is', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'shouts-dist-'))
    mkdirSync(join(dist, 'assets'))
    const css = `.a{color:red}\n`.repeat(200)
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Shouts</title>')
    writeFileSync(join(dist, 'assets', 'app.css'), css)
    const app = createApp({ ...server.deps, distDir: dist })
    const plain = await app.request('/assets/app.css', { headers: { 'accept-encoding': 'br' } })
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe(css)
    // a .br older than its file belongs to an earlier build
    await precompressDir(dist)
    const later = new Date(Date.now() + 5000)
    writeFileSync(join(dist, 'assets', 'app.css'), `${css}.b{}\n`)
    utimesSync(join(dist, 'assets', 'app.css'), later, later)
    const stale = await app.request('/assets/app.css', { headers: { 'accept-encoding': 'br' } })
    expect(stale.headers.get('content-encoding')).toBeNull()
    expect(await stale.text()).toBe(`${css}.b{}\n`)
  })

  it('answers deep links with the index.html on disk, so a deploy is seen within a second', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'shouts-dist-'))
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><title>x</title><meta name="build" content="v1">',
    )
    let now = Date.now()
    const app = createApp({ ...server.deps, distDir: dist, now: () => now })
    expect(await (await app.request('/share-the-love')).text()).toContain('content="v1"')
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><title>x</title><meta name="build" content="v2">',
    )
    const later = new Date(Date.now() + 5000)
    utimesSync(join(dist, 'index.html'), later, later)
    now += 1000
    const res = await app.request('/share-the-love', { headers: { 'accept-encoding': 'br' } })
    expect(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString()).toContain(
      'content="v2"',
    )
  })

  it('compresses large JSON answers of the API', async () => {
    const res = await fetch(`${server.url}/api/v1/openapi.json`, {
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect((await res.json()) as object).toHaveProperty('openapi')
  })
})
