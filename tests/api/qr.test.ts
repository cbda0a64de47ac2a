import { request } from 'node:http'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import { answerOf, LIVE, replyOf, startTestServer, type TestServer } from './helpers.ts'

// QR entry: a PNG and an SVG code per event and billboard that open the flow with that
// billboard chosen, served by the real server (src/server/spotlight).
let server: TestServer
let fetchQr: (path: string) => Promise<Response>
let deviceId: string
const BASE = 'https://shouts.example'

async function decode(image: Buffer): Promise<string | null> {
  const { data, info } = await sharp(image, { density: 300 })
    .flatten({ background: '#ffffff' })
    .resize({ width: 600 })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? null
}

beforeAll(async () => {
  server = await startTestServer('pglite', { env: { PUBLIC_BASE_URL: BASE } })
  const res = await fetch(`${server.url}/api/v1/spotlight/events/${LIVE}/devices?limit=1&offset=0`)
  const body = answerOf(spotlight.devices, await replyOf(res))
  deviceId = body.devices[0]?.deviceId ?? ''
  fetchQr = (path) => fetch(`${server.url}/api/v1/spotlight${path}`)
})
afterAll(async () => {
  await server?.stop()
})

describe('billboard QR codes', () => {
  it('has a billboard to print a code for', () => {
    expect(deviceId).not.toBe('')
  })

  it('prints a PNG that opens the flow with that billboard chosen', async () => {
    const res = await fetchQr(`/events/${LIVE}/devices/${encodeURIComponent(deviceId)}/qr.png`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    const png = Buffer.from(await res.arrayBuffer())
    const meta = await sharp(png).metadata()
    expect(meta.format).toBe('png')
    expect(meta.width).toBeGreaterThanOrEqual(256)
    expect(await decode(png)).toBe(`${BASE}/${LIVE}?device=${encodeURIComponent(deviceId)}`)
  })

  it('prints the same address as an SVG', async () => {
    const res = await fetchQr(`/events/${LIVE}/devices/${encodeURIComponent(deviceId)}/qr.svg`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
    const svg = Buffer.from(await res.arrayBuffer())
    expect(svg.toString('utf8')).toMatch(/^<svg/)
    expect(await decode(svg)).toBe(`${BASE}/${LIVE}?device=${encodeURIComponent(deviceId)}`)
  })

  it('answers 404 with errors for an unknown event or billboard', async () => {
    for (const path of [
      `/events/no-such-event/devices/${encodeURIComponent(deviceId)}/qr.png`,
      `/events/${LIVE}/devices/no-such-billboard/qr.svg`,
    ]) {
      const res = await fetchQr(path)
      expect(res.status).toBe(404)
      const body = (await res.json()) as { errors: string[] }
      expect(body.errors.length).toBeGreaterThan(0)
    }
  })
})

// The Host header never chooses the target, and a code that depends on the request is
// never cached publicly.
describe('QR codes and the Host header', () => {
  it('with PUBLIC_BASE_URL, a made-up Host changes nothing', async () => {
    const path = `/api/v1/spotlight/events/${LIVE}/devices/${encodeURIComponent(deviceId)}/qr.png`
    const res = await rawGet(server.url, path, 'evil.example')
    expect(res.status).toBe(200)
    expect(await decode(res.body)).toBe(`${BASE}/${LIVE}?device=${encodeURIComponent(deviceId)}`)
    expect(res.headers['cache-control']).toBe('public, max-age=3600')
  })

  it("without it, only configured hosts: evil.example is a 400, the shop's own host is served privately", async () => {
    const local = await startTestServer('pglite', { env: { ALLOWED_HOSTS: 'shop.example' } })
    try {
      const path = `/api/v1/spotlight/events/${LIVE}/devices/${encodeURIComponent(deviceId)}/qr.png`
      const evil = await rawGet(local.url, path, 'evil.example')
      expect(evil.status).toBe(400)
      expect(JSON.parse(evil.body.toString('utf8'))).toMatchObject({ codes: ['host_not_allowed'] })
      const own = await rawGet(local.url, path, 'shop.example:8080')
      expect(own.status).toBe(200)
      expect(await decode(own.body)).toBe(
        `http://shop.example:8080/${LIVE}?device=${encodeURIComponent(deviceId)}`,
      )
      expect(own.headers['cache-control']).toBe('private, max-age=3600')
      expect(own.headers.vary).toBe('Host')
      // loopback is always the server's own
      const loopback = await rawGet(
        local.url,
        path.replace('qr.png', 'qr.svg'),
        new URL(local.url).host,
      )
      expect(loopback.status).toBe(200)
    } finally {
      await local.stop()
    }
  })
})

/** A GET with a Host header of our choosing (fetch will not send one). */
function rawGet(
  baseUrl: string,
  path: string,
  host: string,
): Promise<{
  status: number
  body: Buffer
  headers: Record<string, string | string[] | undefined>
}> {
  const url = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: 'GET', headers: { host } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            headers: res.headers,
          }),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })
}
