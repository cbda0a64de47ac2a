import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content } from '../../src/contract/content.ts'
import type { ContentStorage } from '../../src/server/content/storage.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { runTool } from '../../src/server/video/ffmpeg.ts'
import { checkVideoBounds } from '../../src/server/video/index.ts'
import { makeTestVideo } from '../../src/server/video/test-videos.ts'
import {
  answerOf,
  type Client,
  client,
  requireFfmpeg,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// What an upload may be, and what the shop answers past it (docs/security.md, Limits): photos too big
// or too thin are refused from their header, at once, and three such uploads at once do not make an
// ordinary photo wait behind them; videos too big are refused from ffprobe's answer before they are
// queued; every ffmpeg run is bounded; a full disk is a 507.

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
 * (1×49,000,000 is about 95 KB).
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

describe('photos too big or too thin to decode', () => {
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
        params: [{ maxSide: 16_384, width: 1, height: 49_000_000 }],
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
        params: [{ ratio: 20, width: 16_000, height: 700 }],
      },
    })
    const square = await upload(api, greyPng(8000, 8000))
    expect(square.status).toBe(413)
    expect(square.body.errors?.[0]).toMatch(/at most 50 megapixels \(this one is 8000×8000\)/)
    // a phone's panorama (about 4:1) is a photo like any other
    expect((await upload(api, greyPng(4000, 1000))).status).toBe(201)
  })

  it('an ordinary photo sent beside three such uploads is stored, and all are answered', async () => {
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

// Each ffmpeg runs under a time and an address-space bound; one shopper's long job does not hold
// another's.
describe('videos too big to process', () => {
  const tools = requireFfmpeg()
  let server: TestServer
  let api: Client
  let clips: string
  let releaseHold = () => {}
  let holdStarted = () => {}
  const held = new Promise<void>((resolve) => {
    holdStarted = resolve
  })

  beforeAll(async () => {
    clips = mkdtempSync(join(tmpdir(), 'shouts-upload-limits-clips-'))
    server = await startTestServer('pglite', {
      content: {
        // A job kind of this test only, standing for one shopper's long transcode: it runs until told.
        jobHandlers: {
          hold: async () => {
            holdStarted()
            await new Promise<void>((resolve) => {
              releaseHold = resolve
            })
            return { done: true }
          },
        },
      },
    })
    api = client(server.url)
  })
  afterAll(async () => {
    releaseHold()
    await server?.stop()
    rmSync(clips, { recursive: true, force: true })
  })

  async function uploadVideo(bytes: Buffer, name: string) {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(bytes)]), name)
    const res = await fetch(`${api.baseUrl}/api/v1/content/uploads`, { method: 'POST', body: form })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }

  it('an 8000×8000 AVI of under 1 MB is refused at once with a clear message, never queued', async () => {
    const file = join(clips, 'huge.avi')
    await makeHuge(file)
    const bytes = readFileSync(file)
    expect(bytes.length).toBeLessThan(2_000_000)
    const before = await server.deps.database.query(
      sql`select count(*)::int as n from content_jobs`,
    )
    expect(await uploadVideo(bytes, 'huge.avi')).toEqual({
      status: 413,
      body: {
        errors: ['The video is too large: at most 4096×4096 pixels (this one is 8000×8000).'],
        codes: ['video_too_large'],
        params: [{ maxSide: 4096, width: 8000, height: 8000 }],
      },
    })
    const after = await server.deps.database.query(sql`select count(*)::int as n from content_jobs`)
    expect(after[0]?.n).toBe(before[0]?.n)
  })

  it('refuses a frame rate past the limit, and a pixel rate past 4K at 60', async () => {
    const fast = await makeTestVideo(tools, join(clips, 'fast.mp4'), {
      width: 160,
      height: 120,
      fps: 300,
      seconds: 1,
    })
    const res = await uploadVideo(readFileSync(fast), 'fast.mp4')
    expect(res).toEqual({
      status: 413,
      body: {
        errors: ['The video has too many pictures a second: at most 240 (this one has 300).'],
        codes: ['video_frame_rate_too_high'],
        params: [{ max: 240, frameRate: 300 }],
      },
    })
    expect(() => checkVideoBounds({ ...PROBE, width: 4096, height: 4096, frameRate: 60 })).toThrow(
      'video_pixel_rate_too_high',
    )
    expect(() =>
      checkVideoBounds({ ...PROBE, width: 3840, height: 2160, frameRate: 60 }),
    ).not.toThrow()
  })

  it('a video that needs more memory than allowed fails with a message, the machine unharmed (prlimit)', async () => {
    expect(tools.prlimit, 'util-linux prlimit (Debian: always there)').toMatch(/prlimit$/)
    const run = (addressSpaceBytes?: number) =>
      runTool(
        tools.ffmpeg,
        [
          '-v',
          'error',
          '-f',
          'lavfi',
          '-i',
          'color=size=4096x4096:rate=1',
          '-t',
          '1',
          '-f',
          'null',
          '-',
        ],
        {
          timeoutMs: 60_000,
          what: 'Decoding',
          prlimit: tools.prlimit,
          ...(addressSpaceBytes ? { addressSpaceBytes } : {}),
        },
      )
    await expect(run(64 * 1024 * 1024)).rejects.toThrow(/Decoding failed/)
    await expect(run()).resolves.toBeDefined()
  })

  it("an ordinary clip is transcoded while another shopper's long job still runs", async () => {
    await server.deps.content.queue.enqueue('hold', {})
    await held
    const normal = await makeTestVideo(tools, join(clips, 'normal.mp4'), { seconds: 1 })
    const accepted = answerOf(content.upload, await uploadVideo(readFileSync(normal), 'normal.mp4'))
    let status = 'processing'
    for (let i = 0; i < 600 && status === 'processing'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      const res = answerOf(content.uploadStatus, await api.get(`/content/uploads/${accepted.id}`))
      status = res.status
    }
    // ready while the long job has not ended (it ends only when released below)
    expect(status).toBe('ready')
    const [hold] = await server.deps.database.query(
      sql<{ status: string }>`select status from content_jobs where kind = 'hold'`,
    )
    expect(hold?.status).toBe('running')
    releaseHold()
  })

  async function makeHuge(file: string) {
    await runTool(
      tools.ffmpeg,
      [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'color=c=blue:size=8000x8000:rate=1',
        '-t',
        '1',
        '-c:v',
        'mpeg4',
        '-f',
        'avi',
        `file:${file}`,
      ],
      { timeoutMs: 120_000, what: 'Making the huge video' },
    )
  }
})

const PROBE = {
  durationSeconds: 1,
  width: 0,
  height: 0,
  frameRate: 0,
  hasVideo: true,
  hasAudio: false,
  codec: 'h264',
  pixelFormat: 'yuv420p',
  formatName: 'mp4',
}

const diskFull = (syscall: string) =>
  Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), {
    code: 'ENOSPC',
    errno: -28,
    syscall,
  })

describe('a full disk', () => {
  let server: TestServer
  const logs: string[] = []
  let full = false

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      log: createLogger('info', {}, (line) => logs.push(line)),
      content: {
        // the real storage, whose disk fills up on demand, as a real one would answer
        storage: (real: ContentStorage): ContentStorage => ({
          ...real,
          adopt: (from, name) =>
            full ? Promise.reject(diskFull('rename')) : real.adopt(from, name),
          write: (name, data) =>
            full ? Promise.reject(diskFull('write')) : real.write(name, data),
        }),
      },
    })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('a full disk answers an upload 507 with a clear message, and logs it', async () => {
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png')
    full = true
    try {
      const res = await fetch(`${server.url}/api/v1/content/uploads`, {
        method: 'POST',
        body: form,
      })
      expect(res.status).toBe(507)
      const body = (await res.json()) as { errors: string[]; codes: string[] }
      expect(body).toEqual({
        errors: [
          'The shop cannot store files right now (its storage is full). Please try again later.',
        ],
        codes: ['storage_full'],
      })
      expect(JSON.stringify(body)).not.toContain('ENOSPC')
      expect(logs.some((line) => line.includes('content storage is full'))).toBe(true)
    } finally {
      full = false
    }
  })
})
