// Every picture and clip the demo shop names answers (template previews, example clips; // billboard pictures), and stored files answer many concurrent readers (no 500 under load).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import { content } from '../../src/contract/content.ts'
import type { Upload } from '../../src/contract/index.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { makeTestVideo } from '../../src/server/video/test-videos.ts'
import {
  answerOf,
  type Client,
  client,
  ffmpegTools,
  generateContent,
  replyOf,
  requireFfmpeg,
  startTestServer,
  type TestServer,
} from './helpers.ts'

let server: TestServer
let api: Client
const tools = ffmpegTools()
const hasFfmpeg = tools !== null

beforeAll(async () => {
  server = await startTestServer('pglite')
  api = client(server.url)
})
afterAll(() => server?.stop())

async function fetchMedia(url: string): Promise<{ status: number; type: string; bytes: number }> {
  const absolute = url.startsWith('/') ? `${server.url}${url}` : url
  const res = await fetch(absolute)
  const body = new Uint8Array(await res.arrayBuffer())
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: body.length }
}

describe('the demo catalogue media', () => {
  it('answers every billboard picture, template preview and example clip of the live events', async () => {
    const live = answerOf(spotlight.liveEvents, await api.get('/spotlight/live-events'))
    expect(live.events.length).toBeGreaterThan(0)
    const urls = new Map<string, 'image' | 'video'>()
    for (const event of live.events) {
      const devices = answerOf(
        spotlight.devices,
        await api.get(`/spotlight/events/${event.slug}/devices`),
      )
      for (const device of devices.devices) {
        urls.set(device.imageUrl, 'image')
        const query = new URLSearchParams([
          ...event.allowedContentGeneratorTypes.map((t) => ['types', t]),
          ['widthPx', String(device.contentWidth)],
          ['heightPx', String(device.contentHeight)],
        ])
        const generators = answerOf(
          content.generators,
          await api.get(`/content/generators?${query}`),
        )
        for (const template of generators.generators) {
          urls.set(template.previewImageUrl, 'image')
          if (template.examplePreviewVideoUrl) urls.set(template.examplePreviewVideoUrl, 'video')
        }
      }
    }
    expect([...urls.values()]).toContain('image')
    if (hasFfmpeg) expect([...urls.values()]).toContain('video')
    for (const [url, kind] of urls) {
      if (kind === 'video' && !hasFfmpeg) continue
      const media = await fetchMedia(url)
      expect({ url, status: media.status }).toEqual({ url, status: 200 })
      expect(media.type, url).toMatch(kind === 'image' ? /^image\// : /^video\//)
      expect(media.bytes, url).toBeGreaterThan(100)
    }
  }, 120_000)

  it.skipIf(!hasFfmpeg)(
    'serves a template example clip with Range support, made once',
    async () => {
      const url = `${server.url}/api/v1/content/previews/fireworks-video.mp4`
      const [a, b] = await Promise.all([fetch(url), fetch(url)])
      const [bodyA, bodyB] = await Promise.all([a.arrayBuffer(), b.arrayBuffer()])
      expect(Buffer.from(bodyA).equals(Buffer.from(bodyB))).toBe(true)
      expect(Buffer.from(bodyA).subarray(4, 8).toString('latin1')).toBe('ftyp')
      const part = await fetch(url, { headers: { range: 'bytes=0-99' } })
      expect(part.status).toBe(206)
      expect((await part.arrayBuffer()).byteLength).toBe(100)
      const photoOnly = await fetch(`${server.url}/api/v1/content/previews/hearts.mp4`)
      expect(photoOnly.status).toBe(404)
      await photoOnly.arrayBuffer()
    },
    120_000,
  )
})

describe('GET /content/files/{name}', () => {
  it('answers 60 concurrent readers of one stored file with the same bytes', async () => {
    const { key } = await generateContent(api)
    const entries = answerOf(content.entries, await api.get(`/content/${key}`))
    const fileUrl = entries.entries[0]?.url ?? ''
    expect(fileUrl).toMatch(/\/content\/files\//)
    const absolute = fileUrl.startsWith('/') ? `${server.url}${fileUrl}` : fileUrl
    const replies = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const res = await fetch(absolute, i % 3 === 0 ? { headers: { range: 'bytes=0-15' } } : {})
        return { status: res.status, body: Buffer.from(await res.arrayBuffer()) }
      }),
    )
    const whole = replies.find((r) => r.status === 200)?.body
    expect(whole?.subarray(1, 4).toString('latin1')).toBe('PNG')
    for (const [i, reply] of replies.entries()) {
      if (i % 3 === 0) {
        expect(reply.status).toBe(206)
        expect(reply.body.equals(whole?.subarray(0, 16) ?? Buffer.alloc(0))).toBe(true)
      } else {
        expect(reply.status).toBe(200)
        expect(reply.body.equals(whole ?? Buffer.alloc(0))).toBe(true)
      }
    }
  }, 60_000)
})

describe("a video upload's own moderation verdict (spec §5)", () => {
  async function uploadClip(target: TestServer, file: Buffer): Promise<Upload> {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(file)], { type: 'video/mp4' }), 'clip.mp4')
    const res = await fetch(`${target.url}/api/v1/content/uploads`, { method: 'POST', body: form })
    const { id } = answerOf(content.upload, await replyOf(res))
    for (let i = 0; i < 600; i++) {
      const upload = answerOf(
        content.uploadStatus,
        await replyOf(await fetch(`${target.url}/api/v1/content/uploads/${id}`)),
      )
      if (upload.status !== 'processing') return upload
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error('the upload is still processing')
  }

  it.skipIf(!hasFfmpeg)(
    'is kept with the upload: clean by default, flagged when the operator sets a zero threshold',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'shouts-clip-'))
      const file = await readFile(
        await makeTestVideo(requireFfmpeg(), path.join(dir, 'clip.mp4'), {
          seconds: 1,
          width: 160,
          height: 120,
        }),
      )
      await rm(dir, { recursive: true, force: true })
      const clean = await uploadClip(server, file)
      expect(clean).toMatchObject({ kind: 'video', status: 'ready', flagged: false })
      // A threshold of 0 flags every picture: the operator's setting reaches the content service.
      const strict = await startTestServer('pglite', {
        env: { MODERATION_NSFW_THRESHOLD: '0', MODERATION_VIDEO_FRAMES: '2' },
      })
      try {
        const flagged = await uploadClip(strict, file)
        expect(flagged).toMatchObject({ kind: 'video', status: 'ready', flagged: true })
        const [row] = await strict.deps.database.query(
          sql<{
            flag_reasons: string[]
          }>`select flag_reasons from content_uploads where id = ${flagged.id}`,
        )
        expect(row?.flag_reasons.join(' ')).toMatch(/Porn \d\.\d\d ≥ 0/)
      } finally {
        await strict.stop()
      }
    },
    120_000,
  )
})
