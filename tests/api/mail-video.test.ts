// A video order's mails carry "its first frame". A real clip (ffmpeg's testsrc) is
// uploaded, composited into the demo catalogue's video template as a job, and ordered; the mail in the
// embedded outbox (read by an admin through /ops/outbox) shows an <img> whose address, fetched from the
// running server, is a JPEG of the billboard clip's size.

import { readFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content as contentEndpoints } from '../../src/contract/content.ts'
import { mail } from '../../src/contract/mail.ts'
import { order } from '../../src/contract/order.ts'
import { makeTestVideo } from '../../src/server/video/test-videos.ts'
import {
  answerOf,
  BACKENDS,
  type Client,
  type ContentSource,
  client,
  daySlots,
  LIVE,
  orderBody,
  placeOrder,
  replyOf,
  requireFfmpeg,
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'

const tools = requireFfmpeg()
const DEVICE = 'paris-opera-1'
/** The demo catalogue's banner billboards (paris-opera-1): the clip is composited at this size. */
const BANNER = { width: 1400, height: 400 }
const poll = () => new Promise((resolve) => setTimeout(resolve, 50))

/** Uploads a real clip, makes the billboard video from it as a job, and answers its key. */
async function videoContent(api: Client, dataDir: string) {
  const base = `${api.baseUrl}/api/v1/content`
  const file = await makeTestVideo(tools, path.join(dataDir, 'party.mp4'), {
    seconds: 1,
    width: 320,
    height: 240,
  })
  const form = new FormData()
  form.append('generatorId', 'fireworks-video')
  form.append('file', new Blob([new Uint8Array(await readFile(file))]), 'party.mp4')
  const created = await fetch(`${base}/uploads`, { method: 'POST', body: form })
  let upload = answerOf(contentEndpoints.upload, await replyOf(created))
  while (upload.status === 'processing') {
    await poll()
    upload = answerOf(contentEndpoints.uploadStatus, await api.get(`/content/uploads/${upload.id}`))
  }
  expect(upload.status).toBe('ready')

  const source: ContentSource = {
    generatorId: 'fireworks-video',
    deviceId: DEVICE,
    eventSlug: LIVE,
    uploadId: upload.id,
    buyerName: 'Ana',
    recipientName: 'Mum',
    multilineMessage: 'Happy birthday!',
  }
  const generated = await api.post('/content/generate', {
    contentGenerationRequest: source,
    async: true,
  })
  const token = answerOf(contentEndpoints.generate, generated).asyncPublicToken ?? ''
  const jobOf = async () =>
    answerOf(contentEndpoints.daemonStatus, await api.get(`/content/daemon/public/${token}`))
  let job = await jobOf()
  while (job.error === null && job.completedEpochMS === null) {
    await poll()
    job = await jobOf()
  }
  expect(job.error).toBeNull()
  const { newKey } = answerOf(
    contentEndpoints.daemonResult,
    await replyOf(await fetch(new URL(job.link ?? '', api.baseUrl))),
  )
  return { key: newKey, source }
}

describe.each(BACKENDS)('the mails of a video order on %s', (backend) => {
  let server: TestServer
  let api: Client

  beforeAll(async () => {
    // No PUBLIC_BASE_URL: the mails' links are the server's own address, so the test can follow them.
    server = await startTestServer(backend, { env: { MAIL_POLL_SECONDS: '0.1' } })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it("show the clip's first frame: a JPEG of the clip's size, served by the shop", async () => {
    const content = await videoContent(api, server.dataDir)
    const checkout = await savedCard(api)
    const placed = await placeOrder(
      api,
      orderBody({ slots: daySlots(3, 44, 1), content, checkout, email: 'clip@example.com' }),
    )
    expect(placed.status).toBe(201)
    const guid = placed.body.guid
    const status = await settledStatus(api, LIVE, guid)
    // A clean clip is confirmed; were it flagged, "received and under review" shows the same picture.
    expect(['Confirmed', 'UnderReview']).toContain(status.orderState)
    const summary = answerOf(order.summary, await api.get(`/order/events/${LIVE}/orders/${guid}`))
    expect(summary.contentType).toBe('video')

    await server.deps.mail.tick()
    const admin = await signedInOperator(server, 'admin')
    const listed = answerOf(mail.outbox, await admin.api.get('/ops/outbox'))
    const planned = listed.mails.find((mail) => mail.orderGuid === guid)
    expect(planned?.kind).toBe(status.orderState === 'Confirmed' ? 'confirmed' : 'received')
    const opened = answerOf(mail.outboxMail, await admin.api.get(`/ops/outbox/${planned?.id}`))
    const src = /<img src="([^"]+)" alt="Your shout for [^"]+"/.exec(opened.html)?.[1]
    expect(src).toBeDefined()
    const imageUrl = (src as string).replaceAll('&amp;', '&')
    // The still is stored beside the clip, named after it; the order's summary names it too.
    const clipUrl = new URL(summary.contentUrl ?? '', server.url).toString()
    expect(imageUrl).toBe(clipUrl.replace(/\.mp4$/, '.jpg'))
    expect(new URL(summary.contentImageUrl ?? '', server.url).toString()).toBe(imageUrl)
    const entries = answerOf(
      contentEndpoints.entries,
      await api.get(`/content/${content.key}`),
    ).entries
    expect(entries.map((e) => new URL(e.url, server.url).toString())).toEqual([clipUrl, imageUrl])

    const image = await fetch(imageUrl)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/jpeg')
    const bytes = Buffer.from(await image.arrayBuffer())
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]))
    const decoded = await sharp(bytes).raw().toBuffer({ resolveWithObject: true })
    expect(decoded.info).toMatchObject({ width: BANNER.width, height: BANNER.height })
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg' })
  })
})
