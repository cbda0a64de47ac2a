import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import sharp from 'sharp'
import * as v from 'valibot'
import { spotlight } from '../../src/contract/catalogue.ts'
import { content as contentEndpoints } from '../../src/contract/content.ts'
import type { Endpoint, ResponseOf } from '../../src/contract/endpoint.ts'
import { type OrderStatus, order } from '../../src/contract/order.ts'
import { type PlayoutEvent, playsOfSlot } from '../../src/domain/schedule.ts'
import {
  LIVE_EVENT_SLUG,
  LIVE_UK_EVENT_SLUG,
  LIVE_US_EVENT_SLUG,
} from '../../src/server/catalogue/demo-catalogue.ts'
import { type RunningServer, type StartOptions, startServer } from '../../src/server/main.ts'
import { parseEnv } from '../../src/server/platform/env.ts'
import { type VideoTools, videoTools } from '../../src/server/video/index.ts'
import { migratedDataDir, migratedPostgres } from './databases.ts'
import { undeclaredCodes } from './declared-codes.ts'
import { callingTestFile, timed } from './test-times.ts'

export {
  BACKENDS,
  freshDataDir,
  freshPostgres,
  migratedDataDir,
  migratedPostgres,
  POSTGRES_URL,
} from './databases.ts'

export type TestServer = RunningServer & {
  dataDir: string
  backend: 'pglite' | 'postgres'
  /** Stops the server and removes its data. */
  stop(): Promise<void>
  /** Starts the server again on the same data (a restart). */
  restart(options?: Partial<StartOptions>): Promise<TestServer>
}

export async function startTestServer(
  backend: 'pglite' | 'postgres' = 'pglite',
  options: Partial<StartOptions> = {},
): Promise<TestServer> {
  const file = callingTestFile()
  // a test's own DATA_DIR is used as it is; otherwise a migrated copy (databases.ts)
  const dataDir = options.dataDir ?? (await timed(file, 'database', migratedDataDir))
  const pgDb = backend === 'postgres' ? await timed(file, 'database', migratedPostgres) : null
  const boot = async (extra: Partial<StartOptions>): Promise<TestServer> => {
    const running = await timed(file, 'start', () =>
      startServer({
        port: 0,
        dataDir,
        serveApp: false,
        ...(pgDb ? { databaseUrl: pgDb.url } : {}),
        ...options,
        ...extra,
        // The suites write far faster than a shopper (40-way races, hundreds of orders a minute) from
        // one address: the write limit is lifted unless a test sets its own (rate-limits.test.ts).
        env: {
          LOG_LEVEL: 'error',
          // Rendering and the nudity model in the test's own process: a child process per server
          // loaded them again for each of the suite's servers (about two seconds of a core each). The
          // content worker's suite runs the child process, and so does every end-to-end test.
          CONTENT_WORKER: 'inline',
          WRITES_PER_MINUTE: '100000',
          // and a client's share of content jobs and upload bytes (content-fair-share.test.ts)
          CONTENT_JOBS_PER_CLIENT: '1000',
          UPLOAD_BYTES_PER_CLIENT_HOUR: '100000000000',
          ...options.env,
          ...extra.env,
        },
      }),
    )
    return {
      ...running,
      dataDir,
      backend,
      stop: () =>
        timed(file, 'stop', async () => {
          await running.close()
          await pgDb?.drop()
          rmSync(dataDir, { recursive: true, force: true })
        }),
      restart: async (more = {}) => {
        await timed(file, 'stop', () => running.close())
        return boot(more)
      },
    }
  }
  return boot({})
}

/** ffmpeg as the server would find it from this process's settings (platform/env.ts), or null. */
export function ffmpegTools(): VideoTools | null {
  try {
    return videoTools(parseEnv(process.env))
  } catch {
    return null
  }
}

/** ffmpeg, for tests that cannot run without it. */
export function requireFfmpeg(): VideoTools {
  const tools = ffmpegTools()
  if (!tools) throw new Error('ffmpeg is not installed (apt-get install ffmpeg)')
  return tools
}

export type Reply<T = unknown> = { status: number; body: T; headers: Headers }

export function client(baseUrl: string) {
  const call = async <T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> => {
    const init: RequestInit = { method, headers: { ...headers } }
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body)
      ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
    }
    const res = await fetch(`${baseUrl}/api/v1${path}`, init)
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {}
    // a refusal's codes are the endpoint's declared ones, so the OpenAPI document lists what a
    // client can meet
    const stray = undeclaredCodes(method, path, res.status, parsed)
    if (stray.length > 0) {
      throw new Error(`${method} ${path} answered ${res.status} ${stray.join(', ')}, undeclared`)
    }
    return { status: res.status, body: parsed as T, headers: res.headers }
  }
  return {
    baseUrl,
    get: <T = unknown>(path: string, headers?: Record<string, string>) =>
      call<T>('GET', path, undefined, headers),
    post: <T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>('POST', path, body, headers),
    call,
  }
}
export type Client = ReturnType<typeof client>

/**
 * A reply's body parsed with its endpoint's answer schema from the contract (after checking the
 * endpoint's success status): a row the server shapes in SQL is typed by the query's author, so a
 * suite that reads answers through this fails on a field the contract does not accept, where one that
 * read `res.body` as the type would pass.
 */
export function answerOf<E extends Endpoint>(
  e: E,
  reply: Pick<Reply, 'status' | 'body'>,
): ResponseOf<E> {
  if (!e.response) throw new Error(`${e.name} answers no JSON`)
  if (reply.status !== (e.status ?? 200)) {
    throw new Error(`${e.name} answered ${reply.status}: ${JSON.stringify(reply.body)}`)
  }
  const parsed = v.safeParse(e.response, reply.body)
  if (!parsed.success) {
    const where = parsed.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`)
    throw new Error(`${e.name}'s answer breaks its contract: ${where.join('; ')}`)
  }
  // The contract's objects drop what they do not declare: a field the server sends and the contract
  // (so the OpenAPI document) does not name is found here, not passed over.
  const undeclared = undeclaredFields(reply.body, parsed.output, '')
  if (undeclared.length > 0) {
    throw new Error(
      `${e.name}'s answer has fields its contract does not declare: ${undeclared.join(', ')}`,
    )
  }
  return parsed.output as ResponseOf<E>
}

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)

/** The paths of the keys in a body that its parsed output dropped. */
function undeclaredFields(body: unknown, output: unknown, path: string): string[] {
  if (Array.isArray(body) && Array.isArray(output) && body.length === output.length) {
    return body.flatMap((item, i) => undeclaredFields(item, output[i], `${path}[${i}]`))
  }
  if (!isRecord(body) || !isRecord(output)) return []
  return Object.keys(body).flatMap((key) => {
    const at = path ? `${path}.${key}` : key
    return key in output ? undeclaredFields(body[key], output[key], at) : [at]
  })
}

/** An event as the shop reads it, parsed with the contract. */
export async function eventOf(api: Client, slug: string) {
  return answerOf(spotlight.event, await api.get(`/spotlight/events/${slug}`))
}

/** An order as its confirmation page reads it, parsed with the contract. */
export async function orderSummaryOf(api: Client, eventSlug: string, guid: string) {
  return answerOf(order.summary, await api.get(`/order/events/${eventSlug}/orders/${guid}`))
}

/** A fetch's response as a reply (its body read as JSON), for `answerOf`. */
export async function replyOf(res: Response): Promise<Reply> {
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, body, headers: res.headers }
}

/** The demo's live event, sold in euros over Paris and Berlin; its London and New York runs. */
export const LIVE = LIVE_EVENT_SLUG
export const LIVE_UK = LIVE_UK_EVENT_SLUG
export const LIVE_US = LIVE_US_EVENT_SLUG
export const DAY_MS = 86_400_000
export const SLOTS_PER_DAY = 96

const uploads = new Map<Client, Promise<string>>()

/** A photo uploaded through the real upload endpoint (a PNG made here), once per server. */
export function uploadedPhoto(api: Client): Promise<string> {
  let upload = uploads.get(api)
  if (!upload) {
    upload = (async () => {
      const png = await sharp({
        create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 40, b: 90 } },
      })
        .png()
        .toBuffer()
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png')
      const res = await fetch(`${api.baseUrl}/api/v1/content/uploads`, {
        method: 'POST',
        body: form,
      })
      return answerOf(contentEndpoints.upload, await replyOf(res)).id
    })()
    uploads.set(api, upload)
  }
  return upload
}

/** Makes billboard content through the real content endpoint (api-v1 POST /content/generate). */
export async function generateContent(
  api: Client,
  deviceId = 'paris-opera-1',
  eventSlug = LIVE,
  generatorId = 'hearts',
  multilineMessage = 'Happy birthday!\nLove you',
): Promise<{ key: string; source: ContentSource }> {
  const source: ContentSource = {
    generatorId,
    deviceId,
    eventSlug,
    uploadId: await uploadedPhoto(api),
    buyerName: 'Ana',
    recipientName: 'Mum',
    multilineMessage,
  }
  const res = await api.post('/content/generate', {
    contentGenerationRequest: source,
    async: false,
  })
  const answer = answerOf(contentEndpoints.generate, res)
  if (!answer.success || !answer.generatedContent) {
    throw new Error(`content generation failed: ${JSON.stringify(answer)}`)
  }
  return { key: answer.generatedContent.key, source }
}

export type ContentSource = {
  generatorId: string
  deviceId: string
  eventSlug: string
  uploadId: string | null
  buyerName: string
  recipientName: string
  multilineMessage: string
}

export type Checkout = { customerId: string; checkoutSecretKey: string; clientSecret: string }

/** A saved card with the local provider: setup intent, then a test card. */
export async function savedCard(api: Client, cardNumber = '4242424242424242'): Promise<Checkout> {
  const setup = answerOf(order.setupIntent, await api.post('/order/payment/setup-intent'))
  const confirm = await api.post('/order/payment/local/confirm', {
    clientSecret: setup.clientSecret,
    cardNumber,
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 2,
    cvc: '123',
  })
  answerOf(order.localConfirm, confirm)
  return setup
}

export const AGREEMENTS = {
  safetyWarning: true,
  terms: true,
  noChanges: true,
  privacyPolicy: true,
  userGeneratedContentPolicy: true,
  shareInfoWithSponsor: false,
  marketingEmails: false,
  sms: false,
}

export function orderBody(input: {
  slots: number[]
  content: { key: string; source: ContentSource }
  checkout?: Checkout | null
  deviceId?: string
  eventSlug?: string
  email?: string
  promoCode?: string | null
  locale?: 'en' | 'fr' | 'de'
}) {
  const eventSlug = input.eventSlug ?? input.content.source.eventSlug
  return {
    entries: [{ deviceId: input.deviceId ?? input.content.source.deviceId, slots: input.slots }],
    eventSlug,
    emailAddress: input.email ?? 'ana@example.com',
    orderType: 'Test',
    customer: {
      firstName: 'Ana',
      lastName: 'Lopez',
      phoneNumber: '+33 6 12 34 56 78',
      marketingAcknowledgement: { willReceive: false },
    },
    executionContentKey: input.content.key,
    checkout: {
      stripeData: {
        customerId: input.checkout?.customerId ?? 'none',
        promoCode: input.promoCode ?? null,
        checkoutSecretKey: input.checkout?.checkoutSecretKey ?? 'none',
      },
      state: 'New',
    },
    contentSource: input.content.source,
    locale: input.locale ?? 'en',
    agreements: AGREEMENTS,
  }
}

let keyCounter = 0
export const newKey = () => `test-${process.pid}-${Date.now()}-${++keyCounter}`

export async function placeOrder(api: Client, body: unknown, key = newKey()) {
  const reply = await api.post<{
    guid: string
    orderState: string
    errors?: string[]
    codes?: string[]
    takenSlots?: number[]
  }>('/order/orders', body, { 'idempotency-key': key })
  // a placed order's answer (and its replay) is read as the contract declares it; a refusal is the
  // suite's to read
  if (reply.status === order.place.status) answerOf(order.place, reply)
  return reply
}

/** Polls the order status until it leaves Processing (the shop's own status call). */
export async function settledStatus(
  api: Client,
  eventSlug: string,
  guid: string,
): Promise<OrderStatus> {
  for (let i = 0; i < 200; i++) {
    const res = await api.get(`/order/events/${eventSlug}/orders/${guid}/status`)
    const status = answerOf(order.status, res)
    if (status.orderState !== 'Processing') return status
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('order still Processing')
}

/**
 * What a shopper does to buy: a test card saved (a declined one when `card` says so), the order
 * placed, and its state once it has left Processing.
 */
export async function boughtOrder(
  api: Client,
  input: Omit<Parameters<typeof orderBody>[0], 'checkout'> & { card?: string },
): Promise<{ guid: string; slots: number[]; state: string }> {
  const checkout = await savedCard(api, input.card)
  const placed = answerOf(order.place, await placeOrder(api, orderBody({ ...input, checkout })))
  const eventSlug = input.eventSlug ?? input.content.source.eventSlug
  const status = await settledStatus(api, eventSlug, placed.guid)
  return { guid: placed.guid, slots: input.slots, state: status.orderState }
}

/**
 * The proofs a billboard sends after playing one slot of an order: every play of the slot, started
 * and ended the given milliseconds after their planned times.
 */
export function proofsOfSlot(
  event: PlayoutEvent,
  timeZoneId: string,
  orderGuid: string,
  slotNumber: number,
  lateMs: { start: number; end: number },
) {
  return playsOfSlot(event, timeZoneId, slotNumber).map((p) => ({
    playId: randomUUID(),
    orderGuid,
    slotNumber,
    playIndex: p.playIndex,
    startedAtEpochMs: p.startEpochMs + lateMs.start,
    endedAtEpochMs: p.endEpochMs + lateMs.end,
  }))
}

/** Slot numbers of a day of the live event (day 0 is the import day), well past the 5-hour cut-off. */
export function daySlots(day: number, from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => day * SLOTS_PER_DAY + from + i)
}

export { rawExchange } from './raw-http.ts'
