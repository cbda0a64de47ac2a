import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BACKENDS,
  boughtOrder,
  type Client,
  client,
  daySlots,
  generateContent,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// Data has a lifetime (docs/security.md): a shopper's photo and the shouts made of it that no order
// names are deleted UNORDERED_CONTENT_TTL_HOURS after they were made, rows and files; what an order
// names stays.

const HOUR_MS = 60 * 60 * 1000

describe.each(BACKENDS)('content nobody ordered (%s)', (backend) => {
  let server: TestServer
  let api: Client
  let later = 0

  beforeAll(async () => {
    server = await startTestServer(backend, {
      env: { UNORDERED_CONTENT_TTL_HOURS: '24' },
      now: () => Date.now() + later,
    })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const fileOf = async (key: string) => {
    const entry = await api.get<{ entries: { url: string }[] }>(`/content/${key}`)
    return entry.status === 200 ? (entry.body.entries[0]?.url ?? null) : null
  }

  it('is gone a day later, with its files, while the ordered shout and its photo stay', async () => {
    const ordered = await generateContent(api)
    const abandoned = await generateContent(api, undefined, undefined, undefined, 'Never bought')
    const order = await boughtOrder(api, { slots: daySlots(2, 40, 1), content: ordered })
    expect(order.state).toBe('Confirmed')
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: 0, g: 90, b: 200 } },
    })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png')
    const res = await fetch(`${server.url}/api/v1/content/uploads`, { method: 'POST', body: form })
    const lonely = (await res.json()) as { id: string; url: string }
    const abandonedFile = await fileOf(abandoned.key)
    const orderedFile = await fileOf(ordered.key)
    expect(abandonedFile).not.toBeNull()

    // Before its lifetime ends, nothing goes.
    later = 23 * HOUR_MS
    await server.deps.jobs.runNow('content-lifetime')
    expect((await api.get(`/content/${abandoned.key}`)).status).toBe(200)
    expect((await api.get(`/content/uploads/${lonely.id}`)).status).toBe(200)

    later = 25 * HOUR_MS
    await server.deps.jobs.runNow('content-lifetime')
    expect((await api.get(`/content/${abandoned.key}`)).status).toBe(404)
    expect((await fetch(new URL(abandonedFile ?? '', server.url))).status).toBe(404)
    expect((await api.get(`/content/uploads/${lonely.id}`)).status).toBe(404)
    expect((await fetch(new URL(lonely.url, server.url))).status).toBe(404)
    // The ordered shout, and the photo it was made of, are kept.
    expect((await api.get(`/content/${ordered.key}`)).status).toBe(200)
    expect((await fetch(new URL(orderedFile ?? '', server.url))).status).toBe(200)
    expect((await api.get(`/content/uploads/${ordered.source.uploadId}`)).status).toBe(200)
  })
})
