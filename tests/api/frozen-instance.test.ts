// An instance frozen (SIGSTOP: a stalled VM, a long GC pause, a debugger) while it holds an order's,
// a mail's or a content job's lease, and resumed after another instance could take the work over:
// nothing is done twice. The frozen instance is a process of its own (only a real stop freezes its
// timers, so its lease truly goes unrenewed); the other runs in this process, its passes run by the
// test when it wants them (no waiting on intervals).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { order as orderEndpoints } from '../../src/contract/order.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import { json, sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import {
  answerOf,
  type Checkout,
  client,
  daySlots,
  freshPostgres,
  generateContent,
  LIVE,
  orderBody,
  POSTGRES_URL,
  placeOrder,
} from './helpers.ts'
import { type Instance, sleep, spawnInstance, until } from './instances.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts'

const SECRET = 'sk_test_shouts_frozen'
const LEASE_SECONDS = 1

describe.skipIf(!POSTGRES_URL)('an instance frozen while it holds work (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof freshPostgres>>
  let dataDir: string
  let stripe: StripeStandIn
  let smtp: SmtpTestServer
  let a: Instance
  let b: RunningServer
  let c: RunningServer | null = null
  const ranOnC: string[] = []
  const freeze = () => process.kill(a.pid, 'SIGSTOP')
  const thaw = () => process.kill(a.pid, 'SIGCONT')

  beforeAll(async () => {
    database = await freshPostgres()
    dataDir = await mkdtemp(path.join(tmpdir(), 'shouts-frozen-'))
    stripe = await startStripeStandIn(SECRET)
    smtp = await startSmtpTestServer()
    const env = {
      DATABASE_URL: database.url,
      LEASE_SECONDS: String(LEASE_SECONDS),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Shouts <shop@shop.example>',
      PUBLIC_BASE_URL: 'https://shop.example',
      ...stripe.env,
    }
    // B first: it imports the demo catalogue into the empty database. Its mail passes run when the
    // test calls them (their interval is an hour; the planner's lease is B's for as long).
    b = await startServer({
      port: 0,
      serveApp: false,
      log: createLogger('silent'),
      dataDir: path.join(dataDir, 'b'),
      env: { ...env, MAIL_POLL_SECONDS: '3600' },
    })
    a = await spawnInstance('tests/api/fixtures/probe-instance.ts', {
      ...env,
      DATA_DIR: path.join(dataDir, 'a'),
      MAIL_POLL_SECONDS: '0.1',
      PROBE_FINISH_MS: String(3 * LEASE_SECONDS * 1000),
    })
  })
  afterAll(async () => {
    if (a) thaw()
    stripe?.holdCharges(false)
    await a?.kill()
    await b?.close()
    await c?.close()
    await stripe?.close()
    await smtp?.close()
    await database?.drop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const onA = () => client(a.url)

  it('sends the mail of a frozen instance once', async () => {
    const content = await generateContent(onA())
    const checkout = await savedCard()
    // A freezes while the mail server holds its confirmation mail, its send under way
    let frozen = false
    let resume = () => {}
    const resumed = new Promise<void>((resolve) => {
      resume = resolve
    })
    smtp.beforeNextAccept(async () => {
      freeze()
      frozen = true
      await resumed
    })
    const order = await placeOrder(
      onA(),
      orderBody({ slots: daySlots(3, 30, 2), content, checkout }),
    )
    expect(order.status).toBe(201)
    // B plans the mail (the planner runs on one instance at a time: B's holds it) and A sends it
    await until(
      async () => ((await b.deps.mail.planDue()) > 0 ? true : null),
      20_000,
      'the confirmation mail to be planned',
    )
    await until(async () => (frozen ? true : null), 20_000, 'A to freeze mid-send')
    // past A's lease: B's sender passes find the mail and leave it to A
    await sleep(2 * LEASE_SECONDS * 1000)
    await b.deps.mail.sendDue()
    thaw()
    resume()
    await until(
      async () => ((await mailStatus(order.body.guid)) === 'sent' ? true : null),
      20_000,
      'the mail to be recorded sent',
    )
    await b.deps.mail.sendDue()
    const messageId = `<${order.body.guid}.confirmed@shop.example>`
    expect(smtp.received.filter((m) => m.messageId === messageId)).toHaveLength(1)
  })

  it('leaves the order a frozen instance held to the one that took it over, charging once', async () => {
    const content = await generateContent(onA())
    const checkout = await savedCard()
    // Stripe makes the charge; A freezes before it hears back
    stripe.holdCharges(true)
    const placed = await placeOrder(
      onA(),
      orderBody({ slots: daySlots(3, 50, 2), content, checkout }),
    )
    expect(placed.status).toBe(201)
    const guid = placed.body.guid
    const chargeCalls = () =>
      stripe.calls.filter(
        (call) => call.path === '/v1/payment_intents' && call.idempotencyKey === `order-${guid}`,
      )
    await until(async () => (chargeCalls().length > 0 ? true : null), 20_000, 'a charge')
    freeze()
    stripe.holdCharges(false, 'keep')
    // B takes the order over once A's lease ended, and confirms it
    const settled = await until(
      async () => {
        await b.deps.orders.recover()
        const res = answerOf(
          orderEndpoints.status,
          await client(b.url).get(`/order/events/${LIVE}/orders/${guid}/status`),
        )
        return res.orderState === 'Processing' ? null : res
      },
      20_000,
      'B to finish the order',
    )
    expect(settled).toMatchObject({ orderState: 'Confirmed', errors: [] })
    // A hears Stripe's answer at last, and carries on
    stripe.answerHeld()
    thaw()
    await sleep(3 * LEASE_SECONDS * 1000)
    const after = await client(b.url).get<{ orderState: string; errors: string[] }>(
      `/order/events/${LIVE}/orders/${guid}/status`,
    )
    expect(after.body).toMatchObject({ orderState: 'Confirmed', errors: [] })
    expect(
      new Set(
        stripe.calls
          .filter((call) => call.path === '/v1/payment_intents')
          .map((call) => call.idempotencyKey),
      ),
    ).toContain(`order-${guid}`)
    const [row] = await b.deps.database.query(sql<{ paymentId: string; leaseOwner: string | null }>`
      select payment_id as "paymentId", lease_owner as "leaseOwner" from orders where guid = ${guid}`)
    expect(row?.leaseOwner).toBeNull()
    // one PaymentIntent for the order, however many calls carried its key
    expect(stripe.paymentIntents.filter((intent) => intent === row?.paymentId)).toHaveLength(1)
    const held = await b.deps.database.query(
      sql`select slot_number from slot_reservations where order_guid = ${guid}`,
    )
    expect(held).toHaveLength(2)
  })

  it('finishes the content job of a frozen instance once', async () => {
    // B makes no probe and takes no job from here on: A takes it
    await b.deps.content.queue.stop()
    const probe = `probe-${Math.random().toString(36).slice(2)}`
    await b.deps.database.query(sql`
      insert into content_jobs (id, public_token, kind, payload)
      values (${probe}, ${`${probe}-token`}, 'probe', ${json({})}::jsonb)`)
    expect((await a.line<{ probeStarted: string }>('probeStarted')).probeStarted).toBe(probe)
    freeze()
    // C, another instance, takes the job over once A's lease ended, and finishes it
    c = await startServer({
      port: 0,
      serveApp: false,
      demoCatalogue: false,
      dataDir: path.join(dataDir, 'c'),
      databaseUrl: database.url,
      log: createLogger('silent'),
      env: { LEASE_SECONDS: String(LEASE_SECONDS) },
      content: {
        jobHandlers: {
          probe: async (_payload, job) => {
            ranOnC.push(job.id)
            return { done: true }
          },
        },
      },
    })
    const done = await until(async () => {
      const row = await job(probe)
      return row.status === 'done' ? row : null
    }, 20_000)
    // A resumes: its work ends, and its outcome is dropped, not written over C's
    thaw()
    await a.line('probeFinished', 20_000).catch(() => null)
    await sleep(2 * LEASE_SECONDS * 1000)
    expect(await job(probe)).toEqual(done)
    expect(ranOnC).toEqual([probe])
  })

  async function savedCard(): Promise<Checkout> {
    const setup = answerOf(
      orderEndpoints.setupIntent,
      await onA().post('/order/payment/setup-intent'),
    )
    stripe.confirmSetup(setup.clientSecret, 'pm_card_visa')
    return setup
  }

  async function mailStatus(guid: string) {
    const [row] = await b.deps.database.query(sql<{ status: string }>`
      select status from mail_outbox where order_guid = ${guid} and kind = 'confirmed'`)
    return row?.status ?? null
  }

  async function job(id: string) {
    const [row] = await b.deps.database.query(sql<{
      status: string
      attempts: number
      completedAt: Date | null
      leaseOwner: string | null
    }>`
      select status, attempts, completed_at as "completedAt", lease_owner as "leaseOwner"
      from content_jobs where id = ${id}`)
    if (!row) throw new Error(`no job ${id}`)
    return row
  }
})
