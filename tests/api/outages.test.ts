// The parts the shop runs on, stopped under it: a PostgreSQL that is down, an embedded database on a
// full disk, a content bucket that does not answer. Shoppers, advertisers and billboards are told to
// try again shortly (503 with Retry-After and a code saying which part), never a 500; readiness says
// the same; and everything works again once the part is back.
import { execFile as execFileCallback } from 'node:child_process'
import { closeSync, cpSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content as contentEndpoints } from '../../src/contract/content.ts'
import { slotStartEpochMs } from '../../src/domain/index.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { BACKENDS, migratedDataDir } from './databases.ts'
import {
  answerOf,
  type Client,
  client,
  DAY_MS,
  daySlots,
  eventOf,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
  uploadedPhoto,
} from './helpers.ts'
import { until } from './instances.ts'
import { type Cluster, canMakeCluster, startCluster } from './postgres-cluster.ts'
import { type Bucket, startS3rver } from './s3rver.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

const QUIET = createLogger('silent')

const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'

type Problems = { codes: string[] }

/** Every answer is a retryable 503 naming the part that is down. */
const expectRetryLater = (
  res: { status: number; body: unknown; headers: Headers },
  code: string,
) => {
  expect(res.status).toBe(503)
  expect((res.body as Problems).codes).toEqual([code])
  expect(res.headers.get('retry-after')).toBe('2')
}

describe.skipIf(!canMakeCluster)('the shop while its PostgreSQL is stopped', () => {
  let cluster: Cluster
  let server: TestServer
  let api: Client
  let token: string
  let smtp: SmtpTestServer

  beforeAll(async () => {
    cluster = await startCluster()
    smtp = await startSmtpTestServer()
    // (its DATA_DIR holds only content: the database is the cluster's)
    server = await startTestServer('pglite', {
      databaseUrl: cluster.url,
      // every job fails while the database is down, on purpose: its errors would fill the suite's log
      log: QUIET,
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Shouts <shop@shop.example>',
        MAIL_POLL_SECONDS: '0.1',
        PUBLIC_BASE_URL: 'https://shop.example',
        // a lease that ends soon after the database is back: a mail left claimed is taken at once
        LEASE_SECONDS: '0.5',
      },
    })
    api = client(server.url)
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    token = linked.value.token
  })
  afterAll(async () => {
    await server?.stop()
    await cluster?.remove()
    await smtp?.close()
  })

  it('tells shoppers and billboards to try again shortly, and sells again once it is back', async () => {
    const content = await generateContent(api, DEVICE)
    const checkout = await savedCard(api)
    const event = await eventOf(api, LIVE)
    const from = slotStartEpochMs(event, PARIS, daySlots(4, 0, 1)[0] as number)
    const schedule = () =>
      api.get(`/player/${DEVICE}/schedule?fromEpochMs=${from}&toEpochMs=${from + DAY_MS}`, {
        authorization: `Bearer ${token}`,
      })
    const search = () =>
      api.post('/spotlight/slots/search', {
        deviceId: DEVICE,
        eventSlug: LIVE,
        startEpochMs: Date.now(),
        endEpochMs: Date.now() + 30 * DAY_MS,
      })
    expect((await schedule()).status).toBe(200)

    await cluster.stop()
    try {
      const ready = await api.get<Problems>('/readyz')
      expect(ready.status).toBe(503)
      expect(ready.body.codes).toContain('database_unreachable')
      expectRetryLater(await search(), 'database_unreachable')
      expectRetryLater(await schedule(), 'database_unreachable')
      const now = Date.now()
      const heartbeat = await api.post(
        `/player/${DEVICE}/heartbeat`,
        {
          sentAtEpochMs: now,
          showing: { kind: 'house' },
          clockCorrectionMs: 0,
          window: { fromEpochMs: now, toEpochMs: now + DAY_MS },
          files: { cached: 0, failed: 0 },
          pendingPlays: 0,
          version: '1.2.3',
          screen: { widthPx: 1400, heightPx: 400 },
        },
        { authorization: `Bearer ${token}` },
      )
      expectRetryLater(heartbeat, 'database_unreachable')
      expectRetryLater(
        await placeOrder(api, orderBody({ slots: daySlots(4, 10, 2), content, checkout })),
        'database_unreachable',
      )
    } finally {
      await cluster.start()
    }

    await until(
      async () => ((await api.get('/readyz')).status === 200 ? true : null),
      30_000,
      'readiness to answer 200 again',
    )
    expect((await search()).status).toBe(200)
    expect((await schedule()).status).toBe(200)
    const order = await placeOrder(
      api,
      orderBody({ slots: daySlots(4, 10, 2), content, checkout: await savedCard(api) }),
    )
    expect(order.status).toBe(201)
    expect((await settledStatus(api, LIVE, order.body.guid)).orderState).toBe('Confirmed')
  })

  it('sends a mail once when the database cannot record that it was sent', async () => {
    const api2 = client(server.url)
    const content = await generateContent(api2, DEVICE)
    const checkout = await savedCard(api2)
    // the database stops while the mail server holds the confirmation: its send cannot be recorded
    let stopped = false
    smtp.beforeNextAccept(async () => {
      await cluster.stop()
      stopped = true
    })
    const order = await placeOrder(
      api2,
      orderBody({ slots: daySlots(5, 10, 2), content, checkout }),
    )
    expect(order.status).toBe(201)
    const messageId = `<${order.body.guid}.confirmed@shop.example>`
    try {
      await until(async () => (stopped ? true : null), 30_000, 'the send to be under way')
    } finally {
      await cluster.start()
    }
    // once the database is back the send is recorded, and the mail is never sent again
    await until(
      async () => {
        const rows = await server.deps.database
          .query(sql<{ status: string }>`
            select status from mail_outbox where order_guid = ${order.body.guid} and kind = 'confirmed'`)
          .catch(() => [])
        return rows[0]?.status === 'sent' ? true : null
      },
      30_000,
      'the mail to be recorded sent',
    )
    // longer than its lease: an instance that took the mail for unsent would have sent it by now
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(smtp.received.filter((mail) => mail.messageId === messageId)).toHaveLength(1)
  })
})

describe('the shop while its embedded database’s disk is full', () => {
  let disk: Disk | null
  let server: TestServer
  let api: Client

  beforeAll(async () => {
    disk = await smallDisk(96)
    if (!disk) return
    const dataDir = join(disk.dir, 'data')
    cpSync(await migratedDataDir(), dataDir, { recursive: true })
    server = await startTestServer('pglite', { dataDir, log: QUIET })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
    await disk?.remove()
  })

  it('tells a shopper to try again shortly, and sells again once there is room', async (ctx) => {
    if (!disk) return ctx.skip('no small file system can be mounted here (tmpfs needs root)')
    const content = await generateContent(api, DEVICE)
    const checkout = await savedCard(api)
    const filler = join(disk.dir, 'filler')
    fill(filler)
    try {
      // the card was saved before; the order is what must be written
      expectRetryLater(
        await placeOrder(api, orderBody({ slots: daySlots(4, 10, 2), content, checkout })),
        'database_unavailable',
      )
      expect((await api.get('/readyz')).status).toBe(503)
    } finally {
      rmSync(filler, { force: true })
    }
    await until(
      async () => ((await api.get('/readyz')).status === 200 ? true : null),
      30_000,
      'readiness to answer 200 again',
    )
    const order = await placeOrder(
      api,
      orderBody({ slots: daySlots(4, 10, 2), content, checkout: await savedCard(api) }),
    )
    expect(order.status).toBe(201)
    expect((await settledStatus(api, LIVE, order.body.guid)).orderState).toBe('Confirmed')
  })
})

describe.each(BACKENDS)('the shop while its content bucket is down, on %s', (backend) => {
  const BUCKET = 'shouts-content'
  let s3: Bucket
  let s3Dir: string
  let server: TestServer
  let api: Client

  beforeAll(async () => {
    s3Dir = mkdtempSync(join(tmpdir(), 'shouts-s3rver-'))
    s3 = await startS3rver(s3Dir, BUCKET)
    server = await startTestServer(backend, {
      log: QUIET,
      env: {
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      },
    })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
    await s3?.close()
    rmSync(s3Dir, { recursive: true, force: true })
  })

  it('tells a shopper to try again shortly, and makes the content queued meanwhile once it is back', async () => {
    const uploadId = await uploadedPhoto(api)
    const request = {
      generatorId: 'hearts',
      deviceId: DEVICE,
      eventSlug: LIVE,
      uploadId,
      buyerName: 'Ana',
      recipientName: 'Mum',
      multilineMessage: 'Happy birthday!',
    }
    const generate = (async: boolean) =>
      api.post('/content/generate', {
        contentGenerationRequest: request,
        async,
      })
    const status = async (token: string) =>
      answerOf(contentEndpoints.daemonStatus, await api.get(`/content/daemon/public/${token}`))

    const port = Number(new URL(s3.endpoint).port)
    await s3.close()
    let token: string
    try {
      // made now: the photo uploaded before cannot be read
      expectRetryLater(await generate(false), 'storage_unavailable')
      // a new photo cannot be stored
      const form = new FormData()
      form.append(
        'file',
        new Blob([new Uint8Array(await photoPng())], { type: 'image/png' }),
        'p.png',
      )
      const upload = await fetch(`${server.url}/api/v1/content/uploads`, {
        method: 'POST',
        body: form,
      })
      expectRetryLater(
        { status: upload.status, body: await upload.json(), headers: upload.headers },
        'storage_unavailable',
      )
      // made as a job: tried, put off, and still to be made rather than failed
      const queued = answerOf(contentEndpoints.generate, await generate(true))
      token = queued.asyncPublicToken as string
      await until(
        async () => {
          const [job] = await server.deps.database.query(sql<{ outageRetries: number }>`
            select outage_retries as "outageRetries" from content_jobs where public_token = ${token}`)
          return (job?.outageRetries ?? 0) >= 1 ? true : null
        },
        30_000,
        'the job to meet the outage',
      )
      expect(await status(token)).toMatchObject({ problems: [], link: null })
    } finally {
      s3 = await startS3rver(s3Dir, BUCKET, port)
    }

    const done = await until(
      async () => {
        const res = await status(token)
        return res.link || (res.problems?.length ?? 0) > 0 ? res : null
      },
      30_000,
      'the job to end',
    )
    expect(done.problems).toEqual([])
    expect(done.link).not.toBeNull()
    expect(answerOf(contentEndpoints.generate, await generate(false)).success).toBe(true)
  })
})

const execFile = promisify(execFileCallback)

type Disk = { dir: string; remove(): Promise<void> }

/** A file system of `mb` megabytes of its own (a tmpfs), or null where none can be mounted. */
async function smallDisk(mb: number): Promise<Disk | null> {
  const dir = mkdtempSync(join(tmpdir(), 'shouts-disk-'))
  try {
    await execFile('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', dir])
  } catch {
    rmSync(dir, { recursive: true, force: true })
    return null
  }
  return {
    dir,
    remove: async () => {
      await execFile('umount', [dir]).catch(() => undefined)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Writes to `file` until its file system has no byte left. */
function fill(file: string) {
  const fd = openSync(file, 'w')
  const chunk = Buffer.alloc(1 << 20)
  try {
    for (;;) writeSync(fd, chunk)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error
    // the last few bytes too, in smaller pieces
    for (const size of [65_536, 4_096, 512, 1]) {
      try {
        for (;;) writeSync(fd, chunk.subarray(0, size))
      } catch {}
    }
  } finally {
    closeSync(fd)
  }
}

const photoPng = () =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 20, g: 140, b: 90 } } })
    .png()
    .toBuffer()
