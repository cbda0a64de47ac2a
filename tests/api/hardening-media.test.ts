import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Client, client, startTestServer, type TestServer } from './helpers.ts'

// issue 12 item 3: needle-shaped images are refused from their header, at once, and three attackers
// at once do not make an ordinary photo wait behind them.

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/**
 * A real, complete grey PNG of any size, made by hand: its rows of zeros deflate to almost nothing
 * (1×49,000,000 is about 95 KB, as in the report).
 */
function greyPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 0 // greyscale
  const raw = Buffer.alloc((width + 1) * height) // each row: filter 0, then the pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

async function upload(api: Client, bytes: Buffer) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'p.png')
  const res = await fetch(`${api.baseUrl}/api/v1/content/uploads`, { method: 'POST', body: form })
  return { status: res.status, body: (await res.json()) as { errors?: string[]; codes?: string[] } }
}

describe('needle-shaped images (issue 12 item 3)', () => {
  let server: TestServer
  let api: Client
  beforeAll(async () => {
    server = await startTestServer('pglite')
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('1×49,000,000 and 49,000,000×1 are refused from the header with a clear message', async () => {
    const tall = greyPng(1, 49_000_000)
    expect(tall.length).toBeLessThan(200_000)
    expect(await upload(api, tall)).toEqual({
      status: 413,
      body: {
        errors: ['The image is too large: at most 16,384 pixels a side (this one is 1×49000000).'],
        codes: ['image_too_large'],
      },
    })
    const wide = await upload(api, greyPng(49_000_000, 1))
    expect(wide.status).toBe(413)
    expect(wide.body.codes).toEqual(['image_too_large'])
  })

  it('refuses a needle within the side limit by its shape, and a big square by its pixels', async () => {
    expect(await upload(api, greyPng(16_000, 700))).toEqual({
      status: 422,
      body: {
        errors: [
          'The image is too narrow: its long side may be at most 20 times its short side (this one is 16000×700).',
        ],
        codes: ['image_wrong_shape'],
      },
    })
    const square = await upload(api, greyPng(8000, 8000))
    expect(square.status).toBe(413)
    expect(square.body.errors?.[0]).toMatch(/at most 50 megapixels \(this one is 8000×8000\)/)
    // a phone's panorama (about 4:1) is a photo like any other
    expect((await upload(api, greyPng(4000, 1000))).status).toBe(201)
  })

  it('three attackers at once: an ordinary photo sent with them is stored, all answered', async () => {
    const photo = await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 40, b: 90 } },
    })
      .jpeg()
      .toBuffer()
    const needle = greyPng(1, 49_000_000)
    const attacks = [upload(api, needle), upload(api, needle), upload(api, needle)]
    const ordinary = await upload(api, photo)
    expect(ordinary.status).toBe(201)
    // each attacker had its answer (no worker held): the refusals, not a queue
    for (const attack of await Promise.all(attacks)) expect(attack.status).toBe(413)
  })
})
