import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content } from '../../src/contract/content.ts'
import { type ContentGenerator, generatePhoto } from '../../src/server/content/generate.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { answerOf, BACKENDS, LIVE, startTestServer, type TestServer } from './helpers.ts'

// One client's share of the shop's work and storage (docs/security.md, Limits): a client flooding
// background generations gets a 429 past its few unfinished jobs while another shopper's job is
// still taken, one upload is in one generation at a time, and a client's uploads per hour are
// bounded in bytes.

const FLOODER = '203.0.113.7'
const SHOPPER = '198.51.100.9'
const NEIGHBOUR = '192.0.2.44'

async function photoPng(): Promise<Buffer> {
  return sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 40, b: 90 } },
  })
    .png()
    .toBuffer()
}

async function upload(server: TestServer, from: string, png: Buffer) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png')
  const res = await fetch(`${server.url}/api/v1/content/uploads`, {
    method: 'POST',
    body: form,
    headers: { 'x-forwarded-for': from },
  })
  const body = (await res.json()) as { id?: string; codes?: string[] }
  return { status: res.status, body, retryAfter: res.headers.get('retry-after') }
}

async function generateLater(server: TestServer, from: string, uploadId: string) {
  const res = await fetch(`${server.url}/api/v1/content/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({
      async: true,
      contentGenerationRequest: {
        generatorId: 'hearts',
        deviceId: 'paris-opera-1',
        eventSlug: LIVE,
        uploadId,
        buyerName: 'Ana',
        recipientName: 'Mum',
        multilineMessage: 'Happy birthday!',
      },
    }),
  })
  const body = (await res.json()) as { asyncPublicToken?: string | null; codes?: string[] }
  return { status: res.status, body, retryAfter: res.headers.get('retry-after') }
}

describe.each(BACKENDS)('one client flooding background generations (%s)', (backend) => {
  let server: TestServer
  // Every generation waits here until the test lets it go: the flood's jobs stay unfinished.
  let release: () => void = () => {}
  let gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const held: ContentGenerator = async (plan, context) => {
    await gate
    return generatePhoto(plan, context)
  }

  beforeAll(async () => {
    server = await startTestServer(backend, {
      env: { TRUST_PROXY: '1', CONTENT_JOBS_PER_CLIENT: '2' },
      content: { generators: { photo: held } },
    })
  })
  afterAll(async () => {
    release()
    await server?.stop()
  })

  it('queues two of its jobs and asks it to wait for the rest, while another shopper is served', async () => {
    const png = await photoPng()
    const uploads: string[] = []
    for (let i = 0; i < 8; i++) {
      uploads.push(answerOf(content.upload, await upload(server, FLOODER, png)).id)
    }
    // Eight at once, each naming its own upload: the cap is counted in the database, under a lock.
    const flood = await Promise.all(uploads.map((id) => generateLater(server, FLOODER, id)))
    const accepted = flood.filter((answer) => answer.status === 200)
    const refused = flood.filter((answer) => answer.status === 429)
    expect(accepted).toHaveLength(2)
    expect(refused).toHaveLength(6)
    for (const answer of refused) {
      expect(answer.body.codes).toEqual(['content_jobs_busy'])
      expect(answer.retryAfter).toBe('10')
    }
    const [queued] = await server.deps.database.query(sql<{ count: number }>`
      select count(*)::int as count from content_jobs where kind = 'generate'`)
    expect(queued?.count).toBe(2)

    // Another shopper's photo is still taken while the flood waits.
    const mine = answerOf(content.upload, await upload(server, SHOPPER, png))
    const shout = answerOf(content.generate, await generateLater(server, SHOPPER, mine.id))
    expect(shout.asyncPublicToken).toEqual(expect.any(String))

    // The same upload cannot be in two generations at once, whoever names it.
    const again = await generateLater(server, NEIGHBOUR, mine.id)
    expect(again.status).toBe(429)
    expect(again.body.codes).toEqual(['upload_busy'])

    // Once its jobs are done, the flooding client may queue again.
    release()
    await server.deps.content.queue.idle()
    for (let poll = 0; poll < 100; poll++) {
      const [left] = await server.deps.database.query(sql<{ count: number }>`
        select count(*)::int as count from content_jobs where status in ('queued', 'running')`)
      if (left?.count === 0) break
      await server.deps.jobs.runNow('content-jobs')
    }
    gate = Promise.resolve()
    const later = await generateLater(server, FLOODER, uploads[7] ?? '')
    expect(later.status).toBe(200)
  })
})

describe.each(BACKENDS)('one client uploading without end (%s)', (backend) => {
  let server: TestServer
  let png: Buffer

  beforeAll(async () => {
    png = await photoPng()
    // Room for two of these photos and a half an hour.
    server = await startTestServer(backend, {
      env: { TRUST_PROXY: '1', UPLOAD_BYTES_PER_CLIENT_HOUR: String(Math.floor(png.length * 2.5)) },
    })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('is refused past its bytes for the hour, and nothing of the refused uploads is kept', async () => {
    expect((await upload(server, FLOODER, png)).status).toBe(201)
    expect((await upload(server, FLOODER, png)).status).toBe(201)
    // The third crosses the quota once received: dropped. The fourth is refused before it is read.
    for (let i = 0; i < 2; i++) {
      const over = await upload(server, FLOODER, png)
      expect(over.status).toBe(429)
      expect(over.body.codes).toEqual(['upload_quota'])
      expect(Number(over.retryAfter)).toBeGreaterThan(3500)
    }
    // Another shopper uploads as usual.
    expect((await upload(server, SHOPPER, png)).status).toBe(201)
    const [rows] = await server.deps.database.query(sql<{ count: number }>`
      select count(*)::int as count from content_uploads`)
    expect(rows?.count).toBe(3)
  })
})
