// spec §5 through the API: what a shopper writes and shows is checked when the content is generated; a
// flag refuses nothing, it marks the content (the app opens the ProhibitedContent modal, the order is
// placed UnderReview). Texts in English, French and German; the photo through the bundled nudity model.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content as contentEndpoints } from '../../src/contract/index.ts'
import { composeContent } from '../../src/server/compose.ts'
import { contentRoutes } from '../../src/server/content/routes.ts'
import { startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { parseEnv } from '../../src/server/platform/env.ts'
import { createApiRouter } from '../../src/server/platform/http/router.ts'
import { createLogger } from '../../src/server/platform/log.ts'
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
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
  uploadedPhoto,
} from './helpers.ts'

let server: TestServer
let base: string
let photoId: string

beforeAll(async () => {
  server = await startTestServer()
  base = `${server.url}/api/v1/content`
  photoId = await uploadedPhoto(client(server.url))
})

afterAll(async () => {
  await server?.stop()
})

const request = (
  texts: Partial<Record<'buyerName' | 'recipientName' | 'multilineMessage', string>>,
) => ({
  contentGenerationRequest: {
    generatorId: 'hearts',
    deviceId: 'paris-opera-1',
    eventSlug: LIVE,
    uploadId: photoId,
    buyerName: 'Ana',
    recipientName: 'Mum',
    multilineMessage: 'Happy birthday!',
    ...texts,
  },
  async: false,
})

async function generate(
  texts: Parameters<typeof request>[0],
  fetcher: (path: string, init: RequestInit) => Promise<Response> = (path, init) =>
    fetch(`${base}${path}`, init),
) {
  const response = await fetcher('/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request(texts)),
  })
  const answer = answerOf(contentEndpoints.generate, await replyOf(response))
  expect(answer.success).toBe(true)
  const content = answer.generatedContent
  if (!content) throw new Error('no content')
  const [row] = await server.deps.database.query(sql<{ flag_reasons: string[]; flagged: boolean }>`
    select flag_reasons, flagged from generated_content where key = ${content.key}`)
  return { content, reasons: row?.flag_reasons ?? [], stored: row?.flagged }
}

describe('texts are moderated at generation', () => {
  it.each([
    ['English', { multilineMessage: 'You are a fucking star' }, 'multilineMessage: "fuck" (en)'],
    ['English leet-speak', { buyerName: 'sh1t happens' }, 'buyerName'],
    ['French', { recipientName: 'Espèce de connard' }, '(fr)'],
    ['French stretched', { multilineMessage: 'merdeeee alors' }, '(fr)'],
    ['German', { multilineMessage: 'Du Arschloch' }, '(de)'],
    ['German with ß', { buyerName: 'Scheiße' }, '(de)'],
  ])('flags profanity in %s', async (_language, texts, reason) => {
    const { content, reasons, stored } = await generate(texts)
    expect(content.flagged).toBe(true)
    expect(stored).toBe(true)
    expect(reasons.join(' ')).toContain(reason)
    // The app sees it on the entries too (spec §5: the ProhibitedContent modal).
    const { entries } = answerOf(
      contentEndpoints.entries,
      await replyOf(await fetch(`${base}/${content.key}`)),
    )
    expect(entries[0]?.flagged).toBe(true)
  })

  it.each([
    ['English', { buyerName: 'Scunthorpe assistant', multilineMessage: 'Classic! Pass the bass' }],
    [
      'French',
      { recipientName: 'Mamie', multilineMessage: 'Assez de salopette, le bassiste est en retard' },
    ],
    [
      'German',
      { recipientName: 'Oma', multilineMessage: 'Schwanensee in Konstantinopel, die Dicke Berta' },
    ],
  ])('leaves clean text in %s alone', async (_language, texts) => {
    const { content, reasons, stored } = await generate(texts)
    expect(reasons).toEqual([])
    expect(stored).toBe(false)
    expect(content.flagged).toBe(false)
  })
})

describe('the photo is checked by the nudity model', () => {
  it('passes a generated landscape clean', async () => {
    // A made-up picture (sky, hills, sun): no explicit fixture in the repository.
    const landscape = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#5ea9e6' },
    })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><circle cx="520" cy="90" r="50" fill="#ffd54f"/><path d="M0 330 Q160 230 320 320 T640 300 V480 H0Z" fill="#2e7d32"/></svg>',
          ),
        },
      ])
      .jpeg()
      .toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(landscape)]), 'hills.jpg')
    const uploaded = answerOf(
      contentEndpoints.upload,
      await replyOf(await fetch(`${base}/uploads`, { method: 'POST', body: form })),
    )
    const previous = photoId
    photoId = uploaded.id
    try {
      const { content, reasons } = await generate({})
      expect(reasons).toEqual([])
      expect(content.flagged).toBe(false)
    } finally {
      photoId = previous
    }
  })

  it('uses the configured thresholds: at 0 every photo goes to review', async () => {
    // A second content service on the same database with MODERATION_* set as an operator would,
    // built from the settings as the server builds its own (compose.ts).
    const settings = {
      ...process.env,
      DATA_DIR: server.dataDir,
      MODERATION_NSFW_THRESHOLD: '0',
      MODERATION_SEXY_THRESHOLD: '0',
    }
    const strict = composeContent(parseEnv(settings), {
      database: server.deps.database,
      log: createLogger('silent'),
      childEnv: settings,
    }).service
    const router = createApiRouter()
    contentRoutes(router, strict, server.deps.limits)
    try {
      const { content, reasons } = await generate({}, (path, init) =>
        Promise.resolve(router.hono.request(`/content${path}`, init)),
      )
      expect(content.flagged).toBe(true)
      expect(reasons.some((reason) => reason.startsWith('photo: '))).toBe(true)
    } finally {
      await strict.close()
    }
  })

  it('refuses to start with a bad threshold, naming it', async () => {
    await expect(
      startServer({
        serveApp: false,
        dataDir: server.dataDir,
        env: { MODERATION_NSFW_THRESHOLD: '2' },
      }),
    ).rejects.toThrow(/MODERATION_NSFW_THRESHOLD: must be between 0 and 1/)
  })
})

describe('a flag reaches the order', () => {
  it('places an order for profane content UnderReview, and one for clean content Confirmed', async () => {
    const api = client(server.url)
    const outcomes: string[] = []
    for (const [day, multilineMessage] of [
      [3, 'Joyeux anniversaire, espèce de connard'],
      [4, 'Joyeux anniversaire, maman'],
    ] as const) {
      const { content } = await generate({ multilineMessage })
      const source: ContentSource = { ...request({ multilineMessage }).contentGenerationRequest }
      const placed = await placeOrder(
        api,
        orderBody({
          slots: daySlots(day, 60, 2),
          content: { key: content.key, source },
          checkout: await savedCard(api),
        }),
      )
      expect(placed.status).toBe(201)
      outcomes.push((await settledStatus(api, LIVE, placed.body.guid)).orderState)
    }
    expect(outcomes).toEqual(['UnderReview', 'Confirmed'])
  })
})

// A text check that crashes (as a crashed model would) fails the generation after the picture was
// rendered: nothing of it is kept, on both databases.
describe.each(BACKENDS)('a text check that crashes (%s)', (backend) => {
  let crashing: TestServer
  let api: Client
  const logs: string[] = []
  let moderationFails = false

  beforeAll(async () => {
    crashing = await startTestServer(backend, {
      log: createLogger('error', {}, (line) => logs.push(line)),
      content: {
        // The real text moderator's shape; it fails on demand.
        moderate: async () => {
          if (moderationFails) throw new Error('moderation crashed')
          return { flagged: false, reasons: [] }
        },
      },
    })
    api = client(crashing.url)
  })
  afterAll(async () => {
    await crashing?.stop()
  })

  it('the generation fails and leaves no file without its record', async () => {
    const files = join(crashing.dataDir, 'content', 'files')
    await uploadedPhoto(api)
    const before = readdirSync(files).sort()
    moderationFails = true
    try {
      const res = await api.post('/content/generate', {
        contentGenerationRequest: {
          generatorId: 'hearts',
          deviceId: 'paris-opera-1',
          eventSlug: LIVE,
          uploadId: await uploadedPhoto(api),
          buyerName: 'Ana',
          recipientName: 'Mum',
          multilineMessage: 'Hi',
        },
        async: false,
      })
      expect(res.status).toBe(500)
    } finally {
      moderationFails = false
      logs.length = 0
    }
    expect(readdirSync(files).sort()).toEqual(before)
  })
})
