// Photo content end to end over HTTP: templates, uploads, rendering, generated content (// "Photo content", "Rendering"), against the real content routes on a fresh embedded database.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { crc32 } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content as contentEndpoints } from '../../src/contract/content.ts'
import { englishOf } from '../../src/contract/problems.ts'
import { importCatalogue } from '../../src/server/catalogue/service.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { answerOf, replyOf } from './helpers.ts'

const banner = { contentWidth: 1400, contentHeight: 400 }
const screen = { contentWidth: 1920, contentHeight: 1080 }

function device(deviceId: string, size: typeof banner) {
  return {
    deviceId,
    location: `Test location ${deviceId}`,
    city: 'Paris',
    country: 'France',
    timeZoneId: 'Europe/Paris',
    coordinates: { lat: 48.87, lng: 2.33 },
    trafficDirection: 'North' as const,
    imageUrl: `/catalogue/${deviceId}.jpg`,
    ...size,
  }
}

const photoHtml =
  '<div style="display:flex;width:100%;height:100%;background:#c2185b;color:#ffffff">' +
  '<img src="{{photoUrl}}" style="height:100%;object-fit:cover"/>' +
  '<div style="display:flex;flex-direction:column;padding:32px;flex:1">' +
  '<div style="font-size:56px">{{recipientName}}</div>' +
  '<div style="font-size:40px">{{multilineMessage}}</div>' +
  '<div style="font-size:32px">— {{buyerName}}</div></div></div>'
const textHtml =
  '<div style="display:flex;width:100%;height:100%;background:#1565c0;color:#fff;font-size:48px">{{multilineMessage}}</div>'

function template(id: string, name: string, size: typeof banner, html: string, video = false) {
  return {
    id,
    name,
    types: [video ? ('video' as const) : ('photo' as const)],
    widthPx: size.contentWidth,
    heightPx: size.contentHeight,
    previewImageUrl: `/catalogue/${id}.png`,
    examplePreviewVideoUrl: video ? `/catalogue/${id}.mp4` : null,
    videoMaxLengthSeconds: video ? 15 : null,
    html,
  }
}

const catalogue = {
  devices: [device('banner-1', banner), device('screen-1', screen)],
  templates: [
    template('hearts', 'Hearts', banner, photoHtml),
    template('words', 'Words', banner, textHtml),
    template('hearts-wide', 'Hearts wide', screen, photoHtml),
    template('fireworks-video', 'Fireworks', banner, textHtml, true),
    // Imported valid, then stored outside the html subset the renderer accepts (beforeAll): a row
    // from before the import checked html, which generation must still refuse cleanly.
    template('marquee', 'Marquee', banner, textHtml),
  ],
  events: [
    {
      slug: 'mothers-day',
      name: "Mother's Day",
      startDateHourLocalInclusive: '2030-05-07_00',
      endDateHourLocalExclusive: '2030-05-10_00',
      slotWidthMS: 900000,
      allowedContentGeneratorTypes: ['photo' as const, 'video' as const],
      devices: [{ deviceId: 'banner-1' }, { deviceId: 'screen-1' }],
      templates: ['hearts', 'words', 'hearts-wide', 'fireworks-video', 'marquee'],
    },
    {
      slug: 'photo-only',
      name: 'Photo only',
      startDateHourLocalInclusive: '2030-06-07_00',
      endDateHourLocalExclusive: '2030-06-10_00',
      slotWidthMS: 900000,
      allowedContentGeneratorTypes: ['photo' as const],
      devices: [{ deviceId: 'banner-1' }],
      templates: ['hearts'],
    },
  ],
}

let dataDir: string
let server: RunningServer
let base: string

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'shouts-content-'))
  server = await startServer({
    port: 0,
    dataDir,
    serveApp: false,
    demoCatalogue: false,
    log: createLogger('silent'),
    env: { DATABASE_URL: undefined },
  })
  const imported = await importCatalogue(server.deps.database, catalogue)
  if (!imported.success) throw new Error(imported.problems.map(englishOf).join('\n'))
  await server.deps.database.query(
    sql`update templates set html = '<marquee>{{multilineMessage}}</marquee>' where id = 'marquee'`,
  )
  base = `${server.url}/api/v1/content`
})

afterAll(async () => {
  await server?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

async function upload(bytes: Uint8Array, fileName: string, type: string) {
  const form = new FormData()
  form.set('file', new Blob([Uint8Array.from(bytes)], { type }), fileName)
  const response = await fetch(`${base}/uploads`, { method: 'POST', body: form })
  return { status: response.status, body: (await response.json()) as unknown }
}

async function uploadReady(bytes: Uint8Array, fileName: string, type: string) {
  return answerOf(contentEndpoints.upload, await upload(bytes, fileName, type))
}

async function fetchBytes(url: string) {
  const response = await fetch(new URL(url, base))
  expect(response.status).toBe(200)
  return { response, bytes: Buffer.from(await response.arrayBuffer()) }
}

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })

async function postJson(pathName: string, body: unknown) {
  const response = await fetch(`${base}${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

function generationRequest(overrides: Record<string, unknown> = {}) {
  return {
    contentGenerationRequest: {
      generatorId: 'hearts',
      deviceId: 'banner-1',
      eventSlug: 'mothers-day',
      uploadId: null,
      buyerName: 'Zoé',
      recipientName: 'Maman',
      multilineMessage: 'Bonne fête!\nAlles Gute',
      ...overrides,
    },
    async: false,
  }
}

/** An asynchronous generation's status, as the app polls it (spec §7 call 3). */
async function jobOf(token: string) {
  const reply = await replyOf(await fetch(`${base}/daemon/public/${token}`))
  return answerOf(contentEndpoints.daemonStatus, reply)
}

describe('GET /content/generators', () => {
  async function ids(query: string) {
    const response = await fetch(`${base}/generators?${query}`)
    return answerOf(contentEndpoints.generators, await replyOf(response)).generators.map(
      (t) => t.id,
    )
  }

  it('lists the templates of the billboard size and the event types', async () => {
    expect(
      await ids('types=photo&types=video&widthPx=1400&heightPx=400&modes=DynamicHtml'),
    ).toEqual(['fireworks-video', 'hearts', 'marquee', 'words'])
    expect(await ids('types=photo&widthPx=1400&heightPx=400')).toEqual([
      'hearts',
      'marquee',
      'words',
    ])
    expect(await ids('types=video&widthPx=1400&heightPx=400')).toEqual(['fireworks-video'])
    expect(await ids('types=photo&widthPx=1920&heightPx=1080')).toEqual(['hearts-wide'])
    expect(await ids('types=photo&widthPx=1400&heightPx=401')).toEqual([])
    expect(await ids('types=photo&widthPx=1400&heightPx=400&modes=OtherMode')).toEqual([])
  })

  it('answers the Template shape', async () => {
    const response = await fetch(`${base}/generators?types=video&widthPx=1400&heightPx=400`)
    const [first] = answerOf(contentEndpoints.generators, await replyOf(response)).generators
    expect(first).toEqual({
      id: 'fireworks-video',
      name: 'Fireworks',
      // no name in another language: `name` in every one
      names: {},
      types: ['video'],
      mode: 'DynamicHtml',
      widthPx: 1400,
      heightPx: 400,
      previewImageUrl: '/catalogue/fireworks-video.png',
      examplePreviewVideoUrl: '/catalogue/fireworks-video.mp4',
      videoMaxLengthSeconds: 15,
    })
  })

  it('refuses a bad query with 400', async () => {
    for (const query of [
      'types=audio&widthPx=1400&heightPx=400',
      'types=photo&widthPx=abc&heightPx=400',
    ]) {
      const response = await fetch(`${base}/generators?${query}`)
      expect(response.status).toBe(400)
      expect(((await response.json()) as { errors: string[] }).errors.length).toBeGreaterThan(0)
    }
  })
})

describe('GET /content/previews/{templateId}.png', () => {
  it('draws each template at its own size with sample texts and photo', async () => {
    for (const [id, width, height] of [
      ['hearts', 1400, 400],
      ['hearts-wide', 1920, 1080],
      ['fireworks-video', 1400, 400],
    ] as const) {
      const { response, bytes } = await fetchBytes(`${base}/previews/${id}.png`)
      expect(response.headers.get('content-type')).toBe('image/png')
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
      const meta = await sharp(bytes).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual(['png', width, height])
    }
  })

  it('answers 404 for an unknown template and 422 for one that cannot be rendered', async () => {
    expect((await fetch(`${base}/previews/nope.png`)).status).toBe(404)
    expect((await fetch(`${base}/previews/hearts`)).status).toBe(404)
    const broken = await fetch(`${base}/previews/marquee.png`)
    expect(broken.status).toBe(422)
    expect(await broken.json()).toEqual({
      errors: ['This template cannot be rendered.'],
      codes: ['template_render_failed'],
    })
  })
})

describe('POST /content/uploads', () => {
  it.each([
    ['jpg', 'image/jpeg', () => solid(64, 48, '#ff0000').jpeg().toBuffer(), 'image/jpeg'],
    ['jpeg', 'image/jpeg', () => solid(64, 48, '#00ff00').jpeg().toBuffer(), 'image/jpeg'],
    ['png', 'image/png', () => solid(64, 48, '#0000ff').png().toBuffer(), 'image/png'],
    ['gif', 'image/gif', () => solid(64, 48, '#ffff00').gif().toBuffer(), 'image/png'],
  ])(
    'accepts a .%s image and serves a re-encoded copy',
    async (extension, type, make, servedType) => {
      const created = await uploadReady(await make(), `holiday.${extension}`, type)
      expect(created).toMatchObject({ kind: 'photo', status: 'ready', error: null })
      expect(created.url).toMatch(/^\/api\/v1\/content\/files\/[A-Za-z0-9_-]{22}\.(jpg|png)$/)
      // The shopper's file name never becomes a stored name.
      expect(created.url).not.toContain('holiday')
      const { response, bytes } = await fetchBytes(created.url ?? '')
      expect(response.headers.get('content-type')).toBe(servedType)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
      expect(response.headers.get('content-disposition')).toMatch(
        /^inline; filename="[A-Za-z0-9_-]{22}\.(jpg|png)"$/,
      )
      const meta = await sharp(bytes).metadata()
      expect([meta.width, meta.height]).toEqual([64, 48])

      const status = await fetch(`${base}/uploads/${created.id}`)
      expect(answerOf(contentEndpoints.uploadStatus, await replyOf(status))).toEqual(created)
    },
  )

  it('applies the EXIF orientation and strips every bit of metadata, GPS included', async () => {
    // Left half red, right half blue, stored sideways with orientation 6 ("rotate 90° clockwise to view").
    const red = await solid(40, 20, '#ff0000').png().toBuffer()
    const photo = await solid(80, 20, '#0000ff')
      .composite([{ input: red, left: 0, top: 0 }])
      .withExif({
        IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '48/1 52/1 1500/100',
          GPSLongitudeRef: 'E',
          GPSLongitude: '2/1 19/1 5400/100',
        },
      })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer()
    const sent = await sharp(photo).metadata()
    expect(sent.orientation).toBe(6)
    expect(sent.exif?.toString('latin1')).toContain('PhoneMaker')

    const created = await uploadReady(photo, 'IMG_0001.JPG', 'image/jpeg')
    const { bytes } = await fetchBytes(created.url ?? '')
    const stored = await sharp(bytes).metadata()
    expect(stored.exif).toBeUndefined()
    expect(stored.xmp).toBeUndefined()
    expect(stored.iptc).toBeUndefined()
    expect(stored.icc).toBeUndefined()
    expect(stored.orientation).toBeUndefined()
    expect(bytes.toString('latin1')).not.toContain('PhoneMaker')
    // Rotated upright: 80x20 became 20x80 and the red half is now on top.
    expect([stored.width, stored.height]).toEqual([20, 80])
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true })
    const pixel = (x: number, y: number) => {
      const offset = (y * info.width + x) * info.channels
      return [data[offset] ?? 0, data[offset + 1] ?? 0, data[offset + 2] ?? 0]
    }
    const [topRed, , topBlue] = pixel(10, 10)
    const [bottomRed, , bottomBlue] = pixel(10, 70)
    expect(topRed).toBeGreaterThan(200)
    expect(topBlue).toBeLessThan(60)
    expect(bottomBlue).toBeGreaterThan(200)
    expect(bottomRed).toBeLessThan(60)
  })

  it.each([
    [
      'a text file renamed to .jpg',
      'not-a-photo.jpg',
      'image/jpeg',
      Buffer.from('just some text, not a picture\n'),
    ],
    [
      'an SVG',
      'drawing.svg',
      'image/svg+xml',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    ],
    [
      'an SVG renamed to .png',
      'drawing.png',
      'image/png',
      Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'),
    ],
    [
      'an HTML file',
      'page.html',
      'text/html',
      Buffer.from('<!doctype html><script>alert(1)</script>'),
    ],
    [
      'an HTML file renamed to .gif',
      'page.gif',
      'image/gif',
      Buffer.from('<html><body onload=alert(1)>'),
    ],
  ])('refuses %s with 415', async (_label, fileName, type, bytes) => {
    const { status, body } = await upload(bytes, fileName, type)
    expect(status).toBe(415)
    expect(body).toEqual({
      errors: [englishOf({ code: 'upload_wrong_type' })],
      codes: ['upload_wrong_type'],
    })
  })

  it('refuses a file with image magic bytes that is not a readable image with 415', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)])
    const { status, body } = await upload(broken, 'broken.jpg', 'image/jpeg')
    expect(status).toBe(415)
    expect((body as { errors: string[] }).errors[0]).toMatch(/could not be read as an image/)
  })

  it('refuses a decompression bomb (a tiny PNG declaring 30000 x 30000 pixels) with 413', async () => {
    const chunk = (type: string, data: Buffer) => {
      const length = Buffer.alloc(4)
      length.writeUInt32BE(data.length)
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
      const crc = Buffer.alloc(4)
      crc.writeUInt32BE(crc32(body))
      return Buffer.concat([length, body, crc])
    }
    const header = Buffer.alloc(13)
    header.writeUInt32BE(30000, 0)
    header.writeUInt32BE(30000, 4)
    header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
    const bomb = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
      chunk('IEND', Buffer.alloc(0)),
    ])
    const { status, body } = await upload(bomb, 'bomb.png', 'image/png')
    expect(status).toBe(413)
    // Judged from the header, a side first
    expect((body as { errors: string[] }).errors[0]).toMatch(/at most 16,384 pixels a side/)
  })

  it('stops a body larger than 15 MB with 413 while it streams, and keeps nothing', async () => {
    const boundary = 'shouts-test-boundary'
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
    )
    const png = await solid(8, 8, '#123456').png().toBuffer()
    const chunk = Buffer.alloc(1024 * 1024, 0x41)
    let sent = 0
    const total = 40 * 1024 * 1024
    // No Content-Length: the server can only find out by counting the bytes as they arrive.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head)
        controller.enqueue(png)
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
      errors: ['The file is too large. The limit is 15 MB.'],
      codes: ['upload_too_large'],
      params: [{ mb: 15 }],
    })
    expect(await readdir(path.join(dataDir, 'content', 'tmp'))).toEqual([])
  })

  it('refuses a declared length above the largest limit (videos, 200 MB) at once with 413, before the body is sent', async () => {
    // Only the headers and a few bytes go out: the answer must come from the declared length alone.
    const { status, body } = await new Promise<{ status: number; body: string }>(
      (resolve, reject) => {
        const request = http.request(`${base}/uploads`, {
          method: 'POST',
          headers: {
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(250 * 1024 * 1024),
          },
        })
        request.on('response', (response) => {
          let text = ''
          response.setEncoding('utf8')
          response.on('data', (chunk: string) => {
            text += chunk
          })
          response.on('end', () => {
            resolve({ status: response.statusCode ?? 0, body: text })
            request.destroy()
          })
        })
        request.on('error', reject)
        request.write('--x\r\n')
      },
    )
    expect(status).toBe(413)
    expect(JSON.parse(body)).toEqual({
      errors: ['The file is too large. The limit is 200 MB.'],
      codes: ['upload_too_large'],
      params: [{ mb: 200 }],
    })
  })

  it('refuses a request without a file field with 400', async () => {
    const form = new FormData()
    form.set('photo', new Blob([await solid(8, 8, '#000').png().toBuffer()]), 'a.png')
    const response = await fetch(`${base}/uploads`, { method: 'POST', body: form })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      errors: ['No file: send it in the multipart field "file".'],
      codes: ['upload_no_file'],
    })
    const empty = await upload(Buffer.alloc(0), 'empty.png', 'image/png')
    expect(empty).toEqual({
      status: 400,
      body: { errors: ['The file is empty.'], codes: ['upload_empty'] },
    })
    const json = await fetch(`${base}/uploads`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    })
    expect(json.status).toBe(400)
  })

  it('refuses a multipart body cut off before its closing boundary, and one without a boundary, with 400, keeping nothing', async () => {
    const boundary = 'cut-short-boundary'
    const png = await solid(64, 64, '#345678').png().toBuffer()
    const cut = await fetch(`${base}/uploads`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
      ]),
    })
    expect(cut.status).toBe(400)
    expect((await cut.json()) as { codes: string[] }).toMatchObject({
      codes: ['upload_read_failed'],
    })
    expect(await readdir(path.join(dataDir, 'content', 'tmp'))).toEqual([])

    const noBoundary = await fetch(`${base}/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; charset=utf-8' },
      body: `--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc\r\n--x--\r\n`,
    })
    expect(noBoundary.status).toBe(400)
    expect((await noBoundary.json()) as { codes: string[] }).toMatchObject({
      codes: ['upload_multipart_invalid'],
    })
  })

  it('answers 404 for an unknown upload and an unknown file', async () => {
    expect((await fetch(`${base}/uploads/nope`)).status).toBe(404)
    expect((await fetch(`${base}/files/AAAAAAAAAAAAAAAAAAAAAA.png`)).status).toBe(404)
    expect((await fetch(`${base}/files/..%2F..%2Fpg%2FPG_VERSION`)).status).toBe(404)
  })
})

describe('POST /content/generate', () => {
  let photoUploadId: string

  beforeAll(async () => {
    photoUploadId = (
      await uploadReady(await solid(600, 400, '#2255aa').jpeg().toBuffer(), 'me.jpg', 'image/jpeg')
    ).id
  })

  it('renders a photo template at the billboard size and lists it by key', async () => {
    const answer = answerOf(
      contentEndpoints.generate,
      await postJson('/generate', generationRequest({ uploadId: photoUploadId })),
    )
    expect(answer).toMatchObject({ success: true, error: null, asyncPublicToken: null })
    const content = answer.generatedContent
    expect(content).toMatchObject({ type: 'photo', widthPx: 1400, heightPx: 400 })
    const { response, bytes } = await fetchBytes(content?.url ?? '')
    expect(response.headers.get('content-type')).toBe('image/png')
    const meta = await sharp(bytes).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1400, 400])

    const entries = await fetch(`${base}/${content?.key}`)
    expect(answerOf(contentEndpoints.entries, await replyOf(entries))).toEqual({
      entries: [
        {
          url: content?.url,
          type: 'photo',
          widthPx: 1400,
          heightPx: 400,
          durationSeconds: null,
          flagged: false,
        },
      ],
    })
  })

  it('renders at the size of a wide screen for a wide template', async () => {
    const generated = await postJson(
      '/generate',
      generationRequest({
        generatorId: 'hearts-wide',
        deviceId: 'screen-1',
        uploadId: photoUploadId,
      }),
    )
    const content = answerOf(contentEndpoints.generate, generated).generatedContent
    const meta = await sharp((await fetchBytes(content?.url ?? '')).bytes).metadata()
    expect([meta.width, meta.height]).toEqual([1920, 1080])
  })

  it('keeps a hostile message as text: stored as typed, rendered to a PNG', async () => {
    const xss = '<img src=x onerror=alert(1)>'
    const answer = answerOf(
      contentEndpoints.generate,
      await postJson(
        '/generate',
        generationRequest({ generatorId: 'words', multilineMessage: xss }),
      ),
    )
    expect(answer.success).toBe(true)
    const key = answer.generatedContent?.key ?? ''
    const [row] = await server.deps.database.query(sql<{
      request: { multilineMessage: string }
      generator_id: string
      device_id: string
      event_slug: string
      flagged: boolean
    }>`select request, generator_id, device_id, event_slug, flagged
       from generated_content where key = ${key}`)
    expect(row?.request.multilineMessage).toBe(xss)
    expect(row).toMatchObject({
      generator_id: 'words',
      device_id: 'banner-1',
      event_slug: 'mothers-day',
      flagged: false,
    })
    const { bytes } = await fetchBytes(answer.generatedContent?.url ?? '')
    expect((await sharp(bytes).metadata()).format).toBe('png')
  })

  it.each([
    [
      'an unknown template',
      { generatorId: 'nope' },
      'contentGenerationRequest.generatorId: unknown template "nope"',
    ],
    [
      'an unknown billboard',
      { deviceId: 'nope' },
      'contentGenerationRequest.deviceId: unknown billboard "nope"',
    ],
    [
      'an unknown event',
      { eventSlug: 'nope' },
      'contentGenerationRequest.eventSlug: unknown event "nope"',
    ],
    ['a photo template without a photo', {}, 'This template needs a photo: upload one first.'],
    [
      'an unknown upload',
      { uploadId: 'nope' },
      'contentGenerationRequest.uploadId: unknown upload "nope"',
    ],
    [
      'a template made for another screen size',
      { generatorId: 'hearts-wide' },
      'The template "hearts-wide" is made for 1920x1080 screens; this billboard shows 1400x400.',
    ],
    [
      'a template the event does not offer',
      { eventSlug: 'photo-only', generatorId: 'words' },
      'The template "words" is not offered for the event "photo-only".',
    ],
    [
      'a billboard outside the event',
      { eventSlug: 'photo-only', deviceId: 'screen-1', generatorId: 'hearts-wide' },
      'The billboard "screen-1" is not part of the event "photo-only".',
    ],
    [
      'a video template',
      { generatorId: 'fireworks-video' },
      'This template needs a video: upload one first.',
    ],
  ])('refuses %s with 400', async (_label, overrides, message) => {
    const { status, body } = await postJson('/generate', generationRequest(overrides))
    expect(status).toBe(400)
    expect(body.errors).toContain(message)
  })

  it('refuses malformed requests with 400', async () => {
    const unknownField = await postJson('/generate', { ...generationRequest(), extra: 1 })
    expect(unknownField.status).toBe(400)
    const tooLong = await postJson(
      '/generate',
      generationRequest({ multilineMessage: 'x'.repeat(281) }),
    )
    expect(tooLong.status).toBe(400)
    const notJson = await fetch(`${base}/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"contentGenerationRequest":',
    })
    expect(notJson.status).toBe(400)
    expect(((await notJson.json()) as { errors: string[] }).errors.length).toBeGreaterThan(0)
  })

  it('makes content asynchronously: token, status, result link, entries', async () => {
    const answer = answerOf(
      contentEndpoints.generate,
      await postJson('/generate', {
        ...generationRequest({ uploadId: photoUploadId }),
        async: true,
      }),
    )
    expect(answer).toMatchObject({ success: true, generatedContent: null, error: null })
    const token = answer.asyncPublicToken ?? ''
    expect(token).not.toBe('')

    // spec §4: the app polls the job until an error or a completion time appears.
    let job = await jobOf(token)
    for (let poll = 0; poll < 200 && job.error === null && job.completedEpochMS === null; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      job = await jobOf(token)
    }
    expect(job.error).toBeNull()
    expect(job.completedEpochMS).toBeGreaterThan(Date.now() - 60_000)
    const result = await fetch(new URL(job.link ?? '', base))
    const { newKey } = answerOf(contentEndpoints.daemonResult, await replyOf(result))
    const entries = answerOf(
      contentEndpoints.entries,
      await replyOf(await fetch(`${base}/${newKey}`)),
    )
    expect(entries.entries[0]).toMatchObject({ type: 'photo', widthPx: 1400, heightPx: 400 })
  })

  it('answers success false with the error when the content cannot be made', async () => {
    const answer = answerOf(
      contentEndpoints.generate,
      await postJson('/generate', generationRequest({ generatorId: 'marquee' })),
    )
    expect(answer).toMatchObject({ success: false, generatedContent: null, asyncPublicToken: null })
    expect(answer.error).toMatch(/^The template is not valid: Tag <marquee> is not allowed/)
  })

  it('reports a failed asynchronous job through its status and result link', async () => {
    const generated = await postJson('/generate', {
      ...generationRequest({ generatorId: 'marquee' }),
      async: true,
    })
    const token = answerOf(contentEndpoints.generate, generated).asyncPublicToken ?? ''
    let job = await jobOf(token)
    for (let poll = 0; poll < 200 && job.error === null && job.completedEpochMS === null; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      job = await jobOf(token)
    }
    expect(job.error).toMatch(/^The template is not valid/)
    expect(job.link).toBeNull()
    const result = await fetch(`${base}/daemon/result/${token}`)
    expect(result.status).toBe(422)
    // the result says the reasons the job kept, as its status does
    expect(await result.json()).toMatchObject({
      errors: [job.error],
      codes: job.problems?.map((kept) => kept.code),
    })
  })

  it('answers 404 for an unknown job and an unknown content key', async () => {
    expect((await fetch(`${base}/daemon/public/nope`)).status).toBe(404)
    expect((await fetch(`${base}/daemon/result/nope`)).status).toBe(404)
    const unknown = await fetch(`${base}/AAAAAAAAAAAAAAAAAAAAAA`)
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({
      errors: ['Content not found'],
      codes: ['content_not_found'],
    })
  })
})
