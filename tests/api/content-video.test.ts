// Video shouts through the real server: uploads refused or processed as a job, the async
// composite flow end to end on a real clip made by ffmpeg here, and a restart in the middle of a job.
// One server for the file; clips are tiny so the suite stays fast.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content as contentEndpoints } from '../../src/contract/content.ts'
import type { Upload } from '../../src/contract/index.ts'
import { englishOf } from '../../src/contract/problems.ts'
import { importCatalogue } from '../../src/server/catalogue/service.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { probe } from '../../src/server/video/index.ts'
import { makeTestVideo } from '../../src/server/video/test-videos.ts'
import { answerOf, replyOf, requireFfmpeg, startTestServer, type TestServer } from './helpers.ts'

const tools = requireFfmpeg()

const WALL = { width: 320, height: 180 }
/** The template trims to this (spec §5: videos over the limit are trimmed). */
const MAX_SECONDS = 2

let server: TestServer
let base: string
let clips: string

// Transparent where the clip shows: only the banner at the bottom is drawn (spec §4 video composite).
const overlayHtml =
  '<div style="display:flex;flex-direction:column;justify-content:flex-end;width:100%;height:100%">' +
  '<div style="display:flex;background:#c2185b;color:#fff;font-size:24px;padding:8px">{{recipientName}}: {{multilineMessage}}</div></div>'

beforeAll(async () => {
  server = await startTestServer('pglite', { demoCatalogue: false })
  base = `${server.url}/api/v1/content`
  clips = path.join(server.dataDir, 'clips')
  await mkdir(clips)
  const imported = await importCatalogue(server.deps.database, {
    devices: [
      {
        deviceId: 'wall-1',
        location: 'Test wall',
        city: 'Lyon',
        country: 'France',
        timeZoneId: 'Europe/Paris',
        coordinates: { lat: 45.76, lng: 4.83 },
        trafficDirection: 'North',
        imageUrl: '/catalogue/wall-1.jpg',
        contentWidth: WALL.width,
        contentHeight: WALL.height,
      },
    ],
    templates: [
      {
        id: 'clip-banner',
        name: 'Clip with a banner',
        types: ['video'],
        widthPx: WALL.width,
        heightPx: WALL.height,
        previewImageUrl: '/catalogue/clip-banner.png',
        examplePreviewVideoUrl: '/catalogue/clip-banner.mp4',
        videoMaxLengthSeconds: MAX_SECONDS,
        html: overlayHtml,
      },
    ],
    events: [
      {
        slug: 'fete',
        name: 'Fête',
        startDateHourLocalInclusive: '2030-06-20_00',
        endDateHourLocalExclusive: '2030-06-23_00',
        slotWidthMS: 900000,
        allowedContentGeneratorTypes: ['photo', 'video'],
        devices: [{ deviceId: 'wall-1' }],
        templates: ['clip-banner'],
      },
    ],
  })
  if (!imported.success) throw new Error(imported.problems.map(englishOf).join('\n'))
})

afterAll(async () => {
  await server?.stop()
})

async function upload(
  bytes: Uint8Array,
  name: string,
  fields: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const form = new FormData()
  // The template goes first, as the app sends it: the server reads the form in order.
  for (const [key, value] of Object.entries(fields)) form.append(key, value)
  form.append('file', new Blob([new Uint8Array(bytes)]), name)
  const response = await fetch(`${base}/uploads`, { method: 'POST', body: form })
  return { status: response.status, body: await response.json() }
}

/** An upload as the app reads it while it is processed. */
async function uploadOf(id: string): Promise<Upload> {
  return answerOf(
    contentEndpoints.uploadStatus,
    await replyOf(await fetch(`${base}/uploads/${id}`)),
  )
}

async function settledUpload(id: string): Promise<Upload> {
  for (let poll = 0; poll < 600; poll++) {
    const upload = await uploadOf(id)
    if (upload.status !== 'processing') return upload
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('the upload is still processing')
}

async function clip(name: string, options: Parameters<typeof makeTestVideo>[2] = {}) {
  return readFile(await makeTestVideo(tools, path.join(clips, name), options))
}

const request = (uploadId: string | null, overrides: Record<string, unknown> = {}) => ({
  contentGenerationRequest: {
    generatorId: 'clip-banner',
    deviceId: 'wall-1',
    eventSlug: 'fete',
    uploadId,
    buyerName: 'Inès',
    recipientName: 'Maman',
    multilineMessage: 'Bonne fête',
    ...overrides,
  },
  async: true,
})

async function postGenerate(body: unknown) {
  const response = await fetch(`${base}/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as unknown }
}

async function waitForJob(token: string) {
  for (let poll = 0; poll < 600; poll++) {
    const reply = await replyOf(await fetch(`${base}/daemon/public/${token}`))
    const status = answerOf(contentEndpoints.daemonStatus, reply)
    if (status.error !== null || status.completedEpochMS !== null) return status
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('the job did not finish')
}

/** The entries a finished job's result link leads to (spec §7 calls 4 and 5). */
async function entriesOf(link: string | null) {
  const result = await replyOf(await fetch(new URL(link ?? '', base)))
  const { newKey } = answerOf(contentEndpoints.daemonResult, result)
  return answerOf(contentEndpoints.entries, await replyOf(await fetch(`${base}/${newKey}`))).entries
}

async function readyVideoUpload(): Promise<string> {
  const created = await upload(await clip('ready.mp4', { seconds: 3, audio: true }), 'me.mp4', {
    generatorId: 'clip-banner',
  })
  const ready = await settledUpload(answerOf(contentEndpoints.upload, created).id)
  expect(ready.status).toBe('ready')
  return ready.id
}

describe('POST /content/uploads refuses', () => {
  it('a wav (sound only) with 415, saying why', async () => {
    const wav = await clip('tone.wav', { format: 'wav', seconds: 1 })
    const refused = {
      errors: [
        'A wav file is sound only: no template here pairs sound with a photo, and billboards play without sound. Upload a video (mp4, mpg, avi or wmv) or a photo.',
      ],
      codes: ['upload_sound_only'],
    }
    expect(await upload(wav, 'song.wav')).toEqual({ status: 415, body: refused })
    expect(await upload(wav, 'song.mp4', { generatorId: 'clip-banner' })).toEqual({
      status: 415,
      body: refused,
    })
  })

  it('a playable mp4 carrying script in its metadata (a polyglot) with 415', async () => {
    const bytes = await clip('scripted.mp4', {
      seconds: 1,
      extraArgs: ['-metadata', 'title=<script>alert(document.cookie)</script>'],
    })
    expect(await upload(bytes, 'holiday.mp4')).toEqual({
      status: 415,
      body: {
        errors: ['This file claims to be a mp4 video but is also HTML or script; it was refused.'],
        codes: ['upload_not_only_video'],
        params: [{ format: 'mp4', other: 'markup' }],
      },
    })
  })

  it('an avi with a ZIP archive appended (GIFAR-style) with 415', async () => {
    const avi = await clip('zip.avi', { format: 'avi', seconds: 1 })
    const zipEnd = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])
    const { status, body } = await upload(Buffer.concat([avi, zipEnd]), 'party.avi')
    expect(status).toBe(415)
    expect(JSON.stringify(body)).toContain('a ZIP archive')
  })

  it('a video over 200 MB with 413 while it streams, keeping nothing', async () => {
    const head = await clip('big.mp4', { seconds: 1 })
    const boundary = 'big-video-boundary'
    const total = 200 * 1024 * 1024 + 1
    const chunk = Buffer.alloc(1024 * 1024)
    let sent = head.length
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
          ),
        )
        controller.enqueue(head)
      },
      pull(controller) {
        if (sent >= total) {
          controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`))
          controller.close()
          return
        }
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    const response = await fetch(`${base}/uploads`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({
      errors: ['The file is too large. The limit is 200 MB.'],
      codes: ['upload_too_large'],
      params: [{ mb: 200 }],
    })
    expect(await readdir(path.join(server.dataDir, 'content', 'tmp'))).toEqual([])
  })

  it('an unknown template named with the upload with 400', async () => {
    const bytes = await clip('short.mp4', { seconds: 1 })
    expect(await upload(bytes, 'a.mp4', { generatorId: 'nope' })).toEqual({
      status: 400,
      body: {
        errors: ['generatorId: unknown template "nope"'],
        codes: ['upload_template_unknown'],
        params: [{ generatorId: 'nope' }],
      },
    })
  })

  // Every video is probed before it is accepted, so this one never becomes a job.
  it('a file that starts like an mp4 but is not one: refused at once with the reason', async () => {
    const real = await clip('head.mp4', { seconds: 1 })
    const broken = Buffer.concat([real.subarray(0, 64), Buffer.alloc(4096, 0x11)])
    const refused = await upload(broken, 'broken.mp4')
    expect(refused.status).toBe(422)
    const body = refused.body as { errors: string[]; codes: string[] }
    expect(body.codes).toEqual(['video_unreadable'])
    expect(body.errors[0]).toMatch(/\S/)
    expect(body.errors[0]).not.toContain(server.dataDir)
  })
})

describe('video shouts end to end', () => {
  let uploadId: string

  beforeAll(async () => {
    uploadId = await readyVideoUpload()
  })

  it('transcodes an upload to H.264 MP4 without sound, trimmed to the template, served with ranges', async () => {
    const upload = await uploadOf(uploadId)
    expect(upload).toMatchObject({ kind: 'video', status: 'ready', error: null })
    const url = new URL(upload.url ?? '', base)
    const file = await fetch(url)
    expect(file.headers.get('content-type')).toBe('video/mp4')
    expect(file.headers.get('accept-ranges')).toBe('bytes')
    const bytes = Buffer.from(await file.arrayBuffer())
    const saved = path.join(clips, 'served.mp4')
    await writeFile(saved, bytes)
    const info = await probe(tools, saved)
    expect(info).toMatchObject({ codec: 'h264', hasAudio: false, hasVideo: true })
    // 3 s uploaded, the template allows 2 s.
    expect(info.durationSeconds).toBeLessThanOrEqual(MAX_SECONDS + 0.1)
    expect(info.durationSeconds).toBeGreaterThan(MAX_SECONDS - 0.2)

    const part = await fetch(url, { headers: { range: 'bytes=10-109' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 10-109/${bytes.length}`)
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(10, 110))
    const tail = await fetch(url, { headers: { range: 'bytes=-16' } })
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(bytes.subarray(bytes.length - 16))
    const past = await fetch(url, { headers: { range: `bytes=${bytes.length}-` } })
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`)
  })

  it('refuses to make a video in the request itself: async only', async () => {
    const { status, body } = await postGenerate({ ...request(uploadId), async: false })
    expect(status).toBe(400)
    expect(body).toEqual({
      errors: ['Video shouts are made in the background: send the request with async true.'],
      codes: ['video_needs_async'],
    })
  })

  it('makes the composite as a job: token, status, link, key, then the clip and its still', async () => {
    const answer = answerOf(contentEndpoints.generate, await postGenerate(request(uploadId)))
    expect(answer).toMatchObject({ success: true, generatedContent: null, error: null })
    const token = answer.asyncPublicToken ?? ''
    expect(token).toMatch(/^[\w-]{20,}$/)

    const done = await waitForJob(token)
    expect(done.error).toBeNull()
    const entries = await entriesOf(done.link)
    expect(entries.map((entry) => [entry.type, entry.widthPx, entry.heightPx])).toEqual([
      ['video', WALL.width, WALL.height],
      ['photo', WALL.width, WALL.height],
    ])
    expect(entries[0]?.flagged).toBe(false)
    expect(entries[0]?.durationSeconds).toBeLessThanOrEqual(MAX_SECONDS + 0.1)

    const video = await fetch(new URL(entries[0]?.url ?? '', base))
    const composite = path.join(clips, 'composite.mp4')
    await writeFile(composite, Buffer.from(await video.arrayBuffer()))
    const info = await probe(tools, composite)
    expect(info).toMatchObject({
      codec: 'h264',
      width: WALL.width,
      height: WALL.height,
      hasAudio: false,
    })

    // The still, the clip's first frame as a JPEG (the mails show it), named after the clip: the clip
    // above and the banner (the overlay's pink) along the bottom.
    expect(entries[1]?.url.replace(/\.jpg$/, '.mp4')).toBe(entries[0]?.url)
    const still = await fetch(new URL(entries[1]?.url ?? '', base))
    expect(still.headers.get('content-type')).toBe('image/jpeg')
    const jpeg = Buffer.from(await still.arrayBuffer())
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg' })
    const { data, info: size } = await sharp(jpeg)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    expect([size.width, size.height]).toEqual([WALL.width, WALL.height])
    const pixel = (x: number, y: number) => {
      const at = (y * size.width + x) * 3
      return [data[at] ?? 0, data[at + 1] ?? 0, data[at + 2] ?? 0]
    }
    const [r, g, b] = pixel(2, WALL.height - 3)
    expect(r).toBeGreaterThan(150) // #c2185b
    expect(g).toBeLessThan(80)
    expect(b).toBeGreaterThan(50)
    // testsrc's colour bars, not the banner, at the top.
    expect(pixel(2, 2)).not.toEqual(pixel(2, WALL.height - 3))
  })

  it('finishes jobs that were running and queued when the server stopped', async () => {
    const tokens: string[] = []
    // A second clip: one upload is in one generation at a time.
    const second = answerOf(
      contentEndpoints.upload,
      await upload(await clip('deux.mp4', { seconds: 2 }), 'd.mp4'),
    ).id
    expect(await settledUpload(second)).toMatchObject({ status: 'ready' })
    for (const [message, id] of [
      ['Un', uploadId],
      ['Deux', second],
    ] as const) {
      const generated = await postGenerate(request(id, { multilineMessage: message }))
      tokens.push(answerOf(contentEndpoints.generate, generated).asyncPublicToken ?? '')
    }
    const jobsOf = () =>
      server.deps.database.query(
        sql<{
          status: string
        }>`select status from content_jobs where public_token = any(${tokens})`,
      )
    // Stop while the first is being made (the second waits behind it: one job at a time).
    for (let poll = 0; poll < 400; poll++) {
      if ((await jobsOf()).some((job) => job.status === 'running')) break
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    server = await server.restart()
    base = `${server.url}/api/v1/content`
    const afterStop = await jobsOf()
    // Nothing was lost or failed by the stop: what had not finished is queued for this start.
    expect(afterStop.some((job) => job.status !== 'done')).toBe(true)
    expect(afterStop.every((job) => job.status !== 'failed')).toBe(true)

    for (const token of tokens) {
      const done = await waitForJob(token)
      expect(done.error).toBeNull()
      const entries = await entriesOf(done.link)
      expect(entries[0]).toMatchObject({ type: 'video', widthPx: WALL.width })
    }
  })

  it('finishes an upload that was being processed when the server stopped', async () => {
    const created = await upload(await clip('restart.mp4', { seconds: 2 }), 'r.mp4')
    const id = answerOf(contentEndpoints.upload, created).id
    server = await server.restart()
    base = `${server.url}/api/v1/content`
    const [row] = await server.deps.database.query(
      sql<{ status: string }>`select status from content_uploads where id = ${id}`,
    )
    expect(row?.status).not.toBe('failed')
    const ready = await settledUpload(id)
    expect(ready).toMatchObject({ status: 'ready', error: null })
  })
})
