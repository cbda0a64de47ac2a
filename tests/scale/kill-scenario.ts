// Three instances of the server (each its own process, src/server/main.ts) on one PostgreSQL and one
// S3 bucket (s3rver), paying through the Stripe stand-in, and the crash they must survive: shoppers
// race for slots across the instances, videos are uploaded, and the instance holding a running content
// job and orders in Processing (their charges made at Stripe, the answers held back) is killed with
// SIGKILL. The scale test asserts what the survivors leave behind; scripts/bench/recovery.ts times how
// long they take.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { makeTestVideo } from '../../src/server/video/test-videos.ts'
import {
  type Checkout,
  client,
  daySlots,
  freshPostgres,
  generateContent,
  orderBody,
  placeOrder,
  requireFfmpeg,
} from '../api/helpers.ts'
import { type Instance, spawnInstance, until } from '../api/instances.ts'
import { startS3rver } from '../api/s3rver.ts'
import { type StripeStandIn, startStripeStandIn } from '../api/stripe-stand-in.ts'

const SECRET = 'sk_test_shouts_scale'
const BUCKET = 'shouts-scale'
const LEASE_SECONDS = 2
export const SHOPPERS = 60
export const SLOTS = daySlots(6, 0, 20)
// Bought on the victim alone after the race, so that it surely holds orders in Processing when it is
// killed: which instance wins each raced slot is up to the race. Each slot is raced by one shopper on
// each instance, and one instance usually wins all 20: timed per request, each instance answered its
// 20 orders in one burst (in one run instance 0 answered its 20 at 1.3-1.9 s and won them all,
// instance 2 at 2.5-2.9 s, instance 1 at 2.8-3.1 s; in the run before, the victim lost all 20). Three
// busy servers, PostgreSQL, the Stripe stand-in and the caller share two cores: the scheduler runs one
// server's event loop long enough to take all its waiting requests through to their insert before the
// next one runs. That is fairness of CPU time, not a defect: a slot goes to the first insert to commit,
// the unique key refuses the others, and no instance is favoured by the code.
export const VICTIM_SLOTS = daySlots(6, 30, 3)
export const ALL_SLOTS = [...SLOTS, ...VICTIM_SLOTS]
// Promo lookups a client may make per minute, over all the instances together.
export const PROMO_LIMIT = 6

export type Cluster = {
  instances: Instance[]
  stripe: StripeStandIn
  /** The shared database, for the checks. */
  db: Database
  /** A scratch directory, removed with the cluster. */
  work: string
  close(): Promise<void>
}

/** A fresh database, bucket and Stripe stand-in, and three instances on them behind one proxy. */
export async function startCluster(): Promise<Cluster> {
  const work = await mkdtemp(path.join(tmpdir(), 'shouts-scale-'))
  const database = await freshPostgres()
  const s3 = await startS3rver(path.join(work, 's3'), BUCKET)
  const stripe = await startStripeStandIn(SECRET)
  const shared = {
    DATABASE_URL: database.url,
    APP_ENV: 'local',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    LEASE_SECONDS: String(LEASE_SECONDS),
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: 'eu-west-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    ...stripe.env,
    // One proxy in front (the load balancer): the client is the last X-Forwarded-For entry.
    TRUST_PROXY: '1',
    PROMO_LOOKUPS_PER_MINUTE: String(PROMO_LIMIT),
  }
  // Started at once: one imports the demo catalogue (under its lock), the others find it there.
  const instances = await Promise.all(
    [0, 1, 2].map((i) =>
      spawnInstance('src/server/main.ts', { ...shared, DATA_DIR: path.join(work, `i${i}`) }, [
        '--api-only',
      ]),
    ),
  )
  const db = await openDatabase({ dataDir: work, databaseUrl: database.url })
  return {
    instances,
    stripe,
    db,
    work,
    close: async () => {
      stripe.holdCharges(false)
      for (const instance of instances) await instance.kill()
      await db.close()
      await stripe.close()
      await s3.close()
      await database.drop()
      await rm(work, { recursive: true, force: true })
    },
  }
}

type Placed = Awaited<ReturnType<typeof placeOrder>>

export type Recovery = {
  /** Every raced order's answer: one 201 a slot, the others refused. */
  raced: Placed[]
  /** The orders bought on the victim alone. */
  onVictim: Placed[]
  /** From the kill until no order was left Processing, and until every video was ready. */
  ordersMs: number
  videosMs: number
}

/**
 * The race, the uploads, the kill of the instance holding work, and the survivors' recovery, which
 * must end within `withinMs` (a hang, not a timing target: the figures are scripts/bench/recovery.ts's).
 */
export async function raceKillRecover(
  cluster: Cluster,
  options: { withinMs: number },
): Promise<Recovery> {
  const { instances, stripe, db } = cluster
  const apis = instances.map((instance) => client(instance.url))
  const [victim] = instances as [Instance, Instance, Instance]
  const onVictim = apis[0] as ReturnType<typeof client>
  const onSurvivor = apis[1] as ReturnType<typeof client>
  const content = await generateContent(onVictim)

  // Every shopper saves a card (through the instance they shop on), as Stripe.js would.
  const checkouts = await Promise.all(
    Array.from({ length: SHOPPERS }, async (_, i) => {
      const api = apis[i % 3] as ReturnType<typeof client>
      const setup = await api.post<Checkout>('/order/payment/setup-intent')
      if (setup.status !== 200) throw new Error(`setup intent answered ${setup.status}`)
      stripe.confirmSetup(setup.body.clientSecret, 'pm_card_visa')
      return setup.body
    }),
  )

  // Stripe makes each charge, but its answers are held back until the victim is dead.
  stripe.holdCharges(true)
  const raced = await Promise.all(
    checkouts.map((checkout, i) =>
      placeOrder(
        apis[i % 3] as ReturnType<typeof client>,
        orderBody({ slots: [SLOTS[i % SLOTS.length] as number], content, checkout }),
      ),
    ),
  )
  const victimOrders = await Promise.all(
    VICTIM_SLOTS.map(async (slot) => {
      const setup = await onVictim.post<Checkout>('/order/payment/setup-intent')
      stripe.confirmSetup(setup.body.clientSecret, 'pm_card_visa')
      return placeOrder(onVictim, orderBody({ slots: [slot], content, checkout: setup.body }))
    }),
  )

  // Two videos, uploaded to the victim: their raw files go to the bucket, their jobs to the queue.
  const tools = requireFfmpeg()
  const uploads: string[] = []
  for (const name of ['one.mp4', 'two.mp4']) {
    const file = await makeTestVideo(tools, path.join(cluster.work, name), {
      seconds: 6,
      width: 640,
      height: 360,
    })
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(await readFile(file))]), name)
    const res = await fetch(`${victim.url}/api/v1/content/uploads`, { method: 'POST', body: form })
    if (res.status !== 201) throw new Error(`the upload answered ${res.status}`)
    uploads.push(((await res.json()) as { id: string }).id)
  }

  // The moment: the victim runs a content job and holds orders in Processing.
  const owner = `%:${victim.pid}:%`
  await until(
    async () => {
      const [row] = await db.query(sql<{ jobs: number; orders: number }>`
        select
          (select count(*)::int from content_jobs where status = 'running'
            and lease_owner like ${owner}) as jobs,
          (select count(*)::int from orders where state = 'Processing'
            and lease_owner like ${owner}) as orders`)
      return row && row.jobs > 0 && row.orders > 0 ? row : null
    },
    30_000,
    'the victim to hold a job and orders',
  )
  await victim.kill()
  const killedAt = Date.now()
  stripe.holdCharges(false)

  // The survivors finish all of it. What is left is kept for the message if they do not.
  let ordersMs: number | null = null
  let videosMs: number | null = null
  let left = ''
  await until(
    async () => {
      const [row] = await db.query(sql<{ n: number }>`
        select count(*)::int as n from orders where state = 'Processing'`)
      const statuses: string[] = []
      for (const id of uploads) {
        statuses.push(
          (await onSurvivor.get<{ status: string }>(`/content/uploads/${id}`)).body.status,
        )
      }
      const elapsed = Date.now() - killedAt
      if (ordersMs === null && row?.n === 0) ordersMs = elapsed
      if (videosMs === null && statuses.every((s) => s === 'ready')) videosMs = elapsed
      left = `${row?.n} orders Processing, videos ${statuses.join(', ')}`
      return ordersMs !== null && videosMs !== null ? true : null
    },
    options.withinMs,
    'every order finished and every video ready',
  ).catch((error: Error) => {
    const logs = instances.slice(1).map((i) => i.stderr().slice(-2000))
    throw new Error(`${error.message}: ${left}\n${logs.join('\n')}`)
  })
  return { raced, onVictim: victimOrders, ordersMs: ordersMs ?? 0, videosMs: videosMs ?? 0 }
}
