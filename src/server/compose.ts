import type { Agent } from 'node:https'
import { resolve } from 'node:path'
import { type AdvertiserGuard, createAdvertiserGuard } from './advertisers/guard.ts'
import { advertiserJobs } from './advertisers/jobs.ts'
import { type AirChanges, createAirChanges } from './advertisers/on-air/changes.ts'
import { createOnAir } from './advertisers/on-air/on-air.ts'
import { type AdvertisersService, createAdvertisersService } from './advertisers/service.ts'
import { createOpsGuard, type OpsGuard } from './auth/guard.ts'
import { type AuthService, createAuthService } from './auth/service.ts'
import { demoCatalogue } from './catalogue/demo-catalogue.ts'
import { billboardPhoto } from './catalogue/reads.ts'
import {
  type CatalogueService,
  createCatalogueService,
  seedEmptyShop,
} from './catalogue/service.ts'
import { contentLifetimeJob, contentQueueJob, rawUploadSweepJob } from './content/jobs.ts'
import { countJobsByStatus } from './content/reads.ts'
import type { ContentService } from './content/service.ts'
import { mailPlannerJob, mailSenderJob } from './mail/jobs.ts'
import { createMailService, type MailService } from './mail/service.ts'
import { createSmtpTransport } from './mail/transport.ts'
import { orderMakeGood } from './make-good/reads.ts'
import { createReadiness, type ReadinessCheck } from './meta/service.ts'
import { reviewExpiryJob } from './ops/jobs.ts'
import { createOpsService, type OpsService } from './ops/service.ts'
import { createErasureLinks, type ErasureLinks } from './order/erasure.ts'
import { authenticationTimeoutJob, orderDataLifetimeJob, orderRecoveryJob } from './order/jobs.ts'
import { countOrdersByState, hasRedeemed, orderOfPayment } from './order/reads.ts'
import { createOrderService, type OrderService } from './order/service.ts'
import { createSoldSlots, type SoldSlots } from './order/sold-slots.ts'
import { createDisputeMails } from './payment/dispute-mails.ts'
import { refundRetryJob, webhookEventsSweepJob } from './payment/jobs.ts'
import {
  createPaymentProvider,
  createPaymentService,
  type PaymentService,
} from './payment/service.ts'
import { createStripeWebhooks, type StripeWebhooks } from './payment/webhooks.ts'
import { type Clock, systemClock } from './platform/clock.ts'
import { type Database, openDatabase } from './platform/db/client.ts'
import { applyMigrations, pendingMigrations } from './platform/db/migrate.ts'
import { sql } from './platform/db/sql.ts'
import type { Env } from './platform/env.ts'
import { sellerOf } from './platform/env-seller.ts'
import { allowedHosts } from './platform/http/client.ts'
import { createOriginCheck, type OriginCheck } from './platform/http/origin.ts'
import type { LeaseSettings } from './platform/lease.ts'
import type { Logger } from './platform/log.ts'
import { createMetrics, type Metrics } from './platform/metrics.ts'
import {
  type ClientLimits,
  clientLimits,
  createRateLimiter,
  rateLimitSweepJob,
} from './platform/rate-limit.ts'
import { createScheduler, type Scheduler } from './platform/scheduler.ts'
import { playsOfOrder } from './player/reads.ts'
import { createPlayerService, type PlayerService } from './player/service.ts'
import { playAlertsJob } from './push/jobs.ts'
import { createPushService, type PushService } from './push/service.ts'
import { vapidSubject } from './push/vapid.ts'
import { createShareService, type ShareService } from './share/service.ts'

// The composition root: from the settings parsed once (platform/env.ts, by main.ts) it
// opens the database, and builds the payment provider, content storage (a folder or a bucket), the
// content worker, the ffmpeg location and the modules, each handed typed settings. Nothing below
// reads the environment.

import { billboardCareJobs } from './compose-care.ts'
import { type ContentOverrides, composeContent, leaseSettings } from './compose-content.ts'

export { type ContentOverrides, composeContent }

export type ServerParts = {
  env: Env
  /** This instance's id (the owner of its leases) and the length of a lease. */
  lease: LeaseSettings
  /** DATA_DIR, absolute. */
  dataDir: string
  database: Database
  log: Logger
  now: () => number
  /** Cards, charges and refunds (payment/service.ts), on the provider the settings choose. */
  payment: PaymentService
  /** Stripe's events (POST /payment/stripe/webhook): late payments, refunds' outcomes, disputes. */
  stripeWebhooks: StripeWebhooks
  /** The sold slots of each billboard, kept in memory (order/sold-slots.ts). */
  soldSlots: SoldSlots
  /** The events, billboards, templates and promo codes on sale, and their import. */
  catalogue: CatalogueService
  orders: OrderService
  content: ContentService
  /** Prometheus metrics when METRICS_TOKEN is set, else null. */
  metrics: Metrics | null
  /** /readyz's checks, and the switch the shutdown turns. */
  readiness: ReadinessCheck
  player: PlayerService
  /** The mails made from the orders' states, their outbox and their sending. */
  mail: MailService
  /** Operators, their sign-in and sessions. */
  auth: AuthService
  /** The gate every /ops endpoint is registered through (auth/guard.ts). */
  /** The shop's one cross-origin check (every guard's, and the public pages' writes). */
  origin: OriginCheck
  opsGuard: OpsGuard
  /**
   * The console: review, approve, cancel and refund, the audit log, the billboards and their day,
   * player links, the catalogue upload, the dashboard.
   */
  ops: OpsService
  /** Advertisers: accounts, campaigns, ads, proposals, the console's review of campaigns. */
  advertisers: AdvertisersService
  /** The gate of the advertisers' signed-in calls (advertisers/guard.ts). */
  advertiserGuard: AdvertiserGuard
  /** The committed changes of what billboards show of campaigns (advertisers/on-air/changes.ts). */
  airChanges: AirChanges
  /** "Tell me when it plays": the browsers subscribed to an order's alerts, and the sending. */
  push: PushService
  /** Keepsake pages: an order's shout shared as a public page (/s/{shareId}) and its picture. */
  shares: ShareService
  /** The mails' "Forget my data" links and their page (/s/forget/{token}). */
  erasure: ErasureLinks
  /** The background jobs (platform/scheduler.ts), registered below; main.ts starts them. */
  jobs: Scheduler
  /**
   * Tells the modules the origin the server listens on (main.ts, once listening): absolute URLs
   * handed to billboards use PUBLIC_BASE_URL, else this; never a client's Host header.
   */
  setListeningOrigin(origin: string): void
  /** Per-client limits on the shared limiter (platform/rate-limit.ts). */
  limits: ClientLimits
  /** The built PWA to serve, or null for an API-only server. */
  distDir: string | null
  /** The content worker's pid while it runs (content/content-worker.ts), else null. */
  contentWorkerPid(): number | null
}

export type ComposeOptions = {
  log: Logger
  now: () => number
  /** The clock the background jobs run by (tests: a manual clock); default the system's. */
  clock?: Clock
  /** The raw environment, handed to the content worker's child process (PATH, NODE_OPTIONS...). */
  childEnv: Readonly<Record<string, string | undefined>>
  /** Import the demo catalogue into an empty database. */
  demoCatalogue: boolean
  distDir: string | null
  content?: ContentOverrides
  /** The TLS agent play alerts are sent through (tests: one trusting a push stand-in's certificate). */
  pushAgent?: Agent
}

/** Opens the database, migrates, seeds an empty shop, and builds every module. */
export async function composeServer(env: Env, options: ComposeOptions): Promise<ServerParts> {
  const { log, now } = options
  const lease = leaseSettings(env)
  const dataDir = resolve(env.DATA_DIR)
  // The embedded database's thread, if it dies, is started again by the bridge; meanwhile every
  // statement fails and readiness answers 503 (platform/db/pglite-thread.ts).
  const database = await openDatabase({
    dataDir,
    databaseUrl: env.DATABASE_URL,
    events: {
      lost: (error) =>
        log.error('the embedded database stopped: not ready until it is back', { error }),
      restarted: () => log.info('the embedded database is back'),
      restartFailed: (error) => log.error('the embedded database could not start again', { error }),
    },
  })
  try {
    const applied = await applyMigrations(database)
    if (applied.length > 0) log.info('migrations applied', { applied })
    if (options.demoCatalogue) {
      const counts = await seedEmptyShop(database, demoCatalogue(now()))
      if (counts) log.info('demo catalogue imported', counts)
    }
  } catch (error) {
    await database.close()
    throw error
  }

  const metrics = env.METRICS_TOKEN
    ? createMetrics({
        ordersByState: () => countOrdersByState(database),
        jobsByStatus: () => countJobsByStatus(database),
      })
    : null
  const limiter = createRateLimiter({ database, now })
  const limits = clientLimits(limiter, {
    trustProxy: env.TRUST_PROXY,
    writesPerMinute: env.WRITES_PER_MINUTE,
    promoChecksPerMinute: env.PROMO_LOOKUPS_PER_MINUTE,
  })
  const payment = createPaymentService({
    database,
    provider: await createPaymentProvider(env, database),
    log,
    now,
    ...(metrics ? { onPaymentError: metrics.paymentError } : {}),
  })
  const soldSlots = createSoldSlots(database, now)
  const catalogue = createCatalogueService({
    db: database,
    soldSlots,
    redeemed: (promoCode, email) => hasRedeemed(database, promoCode, email),
    now,
    publicBaseUrl: env.PUBLIC_BASE_URL,
  })
  const orders = createOrderService({
    database,
    catalogue: catalogue.reads,
    promo: catalogue.promos,
    soldSlots,
    payment,
    appEnv: env.APP_ENV,
    log,
    now,
    lease,
    playsOf: (guid) => playsOfOrder(database, guid),
    makeGoodOf: (guid) => orderMakeGood(database, guid),
    orderDataTtlMs: env.ORDER_CONTENT_TTL_DAYS * 86_400_000,
    paymentActionMs: env.PAYMENT_ACTION_MINUTES * 60_000,
  })
  let listeningOrigin = `http://localhost:${env.PORT}`
  // what billboards show of campaigns: the services tell each change once it committed
  const airChanges = createAirChanges()
  const onAir = createOnAir({
    ...{ database, now, defaultSharePercent: env.AD_FREE_TIME_SHARE },
    changes: airChanges,
    onLive: (campaignId) => advertisers.news.live(campaignId),
  })
  const player = createPlayerService({
    database,
    now,
    soldSlots,
    onAir,
    clockSkewMs: env.PLAYER_CLOCK_SKEW_SECONDS * 1000,
    origin: () => env.PUBLIC_BASE_URL ?? listeningOrigin,
    offlineMinutes: env.BILLBOARD_OFFLINE_MINUTES,
    ...(metrics ? { onHouseCardRender: metrics.houseCardRender } : {}),
  })
  const erasure = createErasureLinks({
    configuredKey: env.ERASURE_LINK_KEY,
    database,
    log,
    now,
    lifetime: orders.lifetime,
    origin: () => env.PUBLIC_BASE_URL ?? listeningOrigin,
    summary: (eventSlug, guid) => orders.summary(eventSlug, guid),
    erasureMail: (eventSlug, guid) => mail.erasureMail(eventSlug, guid),
  })
  const mail = createMailService({
    erasureLink: (guid) => erasure.link(guid),
    database,
    log: log.child({ component: 'mail' }),
    now,
    lease,
    transport: env.SMTP_URL ? createSmtpTransport(env.SMTP_URL) : null,
    settings: {
      from: env.MAIL_FROM,
      reminderLeadMs: env.REMINDER_LEAD_MINUTES * 60_000,
      retryBaseMs: Math.round(env.MAIL_RETRY_SECONDS * 1000),
      maxAttempts: env.MAIL_MAX_ATTEMPTS,
    },
    origin: () => env.PUBLIC_BASE_URL ?? listeningOrigin,
    summary: (eventSlug, guid) => orders.summary(eventSlug, guid),
    catalogue: catalogue.reads,
    takeOverAtStart: database.kind === 'pglite',
    showOneTimeLinks: env.APP_ENV === 'local',
  })
  const auth = createAuthService({
    database,
    limiter,
    log,
    now,
    ...(metrics ? { onPasswordWork: metrics.passwordWork } : {}),
  })
  const origin = createOriginCheck({
    publicBaseUrl: env.PUBLIC_BASE_URL,
    allowedHosts: allowedHosts(env),
    trustProxy: env.TRUST_PROXY,
  })
  const opsGuard = createOpsGuard({ auth, origin })
  const push = createPushService({
    database,
    log: log.child({ component: 'push' }),
    now,
    summary: (eventSlug, guid) => orders.summary(eventSlug, guid),
    proofs: (guid) => playsOfOrder(database, guid),
    settings: {
      keys:
        env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
          ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
          : null,
      subject: vapidSubject(env),
      serviceHosts: env.PUSH_SERVICE_HOSTS,
      timeoutMs: 10_000,
      ...(options.pushAgent ? { agent: options.pushAgent } : {}),
    },
  })
  const content = composeContent(
    env,
    { database, log, childEnv: options.childEnv, lease, limiter },
    options.content,
  )
  const shares = createShareService({
    database,
    log: log.child({ component: 'share' }),
    now,
    summary: (eventSlug, guid) => orders.summary(eventSlug, guid),
    contentPicture: async (url) => {
      const file = await content.service.file(url.slice(url.lastIndexOf('/') + 1))
      return file.ok ? file.value.open(null) : null
    },
    billboardPhoto: (deviceId) => billboardPhoto(database, deviceId),
    storage: content.storage,
    origin: () => (env.PUBLIC_BASE_URL ?? listeningOrigin).replace(/\/+$/, ''),
  })

  const advertisers = createAdvertisersService({
    database,
    limiter,
    passwords: auth.passwords,
    content: content.service,
    payment,
    mail,
    log,
    now,
    airChanged: airChanges.changed,
    settings: {
      tokenKeys: env.ADVERTISER_TOKEN_KEYS,
      defaultSharePercent: env.AD_FREE_TIME_SHARE,
      seller: sellerOf(env),
    },
    audit: ({ operator, action, detail }, tx) =>
      auth.recordAudit(tx ?? database, { operator, action, detail }),
  })
  const ops = createOpsService({
    database,
    catalogue,
    orders,
    soldSlots,
    payment,
    auth,
    player,
    ads: advertisers,
    log,
    now,
    graceHours: env.MAKE_GOOD_GRACE_HOURS,
  })
  const stripeWebhooks = createStripeWebhooks({
    database,
    log: log.child({ component: 'stripe-webhooks' }),
    now,
    secret: env.STRIPE_WEBHOOK_SECRET,
    orderOfPayment: (paymentId) => orderOfPayment(database, paymentId),
    audit: (tx, { action, orderGuid, detail }) =>
      auth.recordAudit(tx, { operator: null, action, orderGuid, detail }),
    notifyDispute: createDisputeMails({ mail, admins: () => auth.adminRecipients() }),
  })
  // Stripe's word that a charge settled: an order still waiting for its cardholder settles by it
  // (asked of Stripe again; a replay or an order already settled changes nothing)
  stripeWebhooks.onIntentSettled((settled) => orders.settleAuthentication(settled.orderGuid))
  const advertiserGuard = createAdvertiserGuard({ accounts: advertisers.accounts, origin })

  // Background work: every job of every module, each with its interval and whether one instance at
  // a time runs it (platform/scheduler.ts). A new job is one line here.
  const jobs = createScheduler({
    database,
    lease,
    log,
    clock: options.clock ?? systemClock,
    ...(metrics ? { observe: metrics.jobRun } : {}),
  })
  const mailPollMs = Math.round(env.MAIL_POLL_SECONDS * 1000)
  jobs.register(orderRecoveryJob(orders, lease))
  jobs.register(reviewExpiryJob(ops))
  jobs.register(refundRetryJob(payment))
  jobs.register(webhookEventsSweepJob(database, now))
  jobs.register(mailPlannerJob(mail, mailPollMs))
  jobs.register(mailSenderJob(mail, mailPollMs))
  jobs.register(contentQueueJob(content.service))
  jobs.register(rawUploadSweepJob(content.service))
  jobs.register(contentLifetimeJob(content.service, now))
  jobs.register(rateLimitSweepJob(limiter))
  for (const job of advertiserJobs(advertisers, mailPollMs)) jobs.register(job)
  jobs.register(playAlertsJob(push, Math.round(env.PUSH_POLL_SECONDS * 1000)))
  jobs.register(orderDataLifetimeJob(orders, now))
  jobs.register(authenticationTimeoutJob(orders))
  const care = { env, database, log, now, catalogue: catalogue.reads, orders, payment, mail, auth }
  for (const job of billboardCareJobs(care)) jobs.register(job)
  // what each module forgets of an order whose personal data's lifetime ended (order/lifetime.ts)
  orders.lifetime.onForget(({ guid }) => mail.forgetOrder(guid))
  orders.lifetime.onForget(({ guid }) => push.forgetOrder(guid))
  orders.lifetime.onForget(({ guid }) => shares.forgetOrder(guid))
  orders.lifetime.onForget(({ guid, contentKey }) =>
    content.service.forgetOrderContent(contentKey, guid),
  )

  const readiness = createReadiness({
    database: async () => {
      await database.query(sql`select 1`)
    },
    pendingMigrations: () => pendingMigrations(database),
    writeStorage: async () => {
      const name = content.storage.newName('png')
      await content.storage.write(name, Buffer.from('readiness probe'))
      await content.storage.remove(name)
    },
  })
  return {
    env,
    lease,
    metrics,
    readiness,
    dataDir,
    database,
    log,
    now,
    payment,
    stripeWebhooks,
    soldSlots,
    catalogue,
    orders,
    content: content.service,
    player,
    mail,
    auth,
    origin,
    opsGuard,
    ops,
    advertisers,
    advertiserGuard,
    airChanges,
    push,
    shares,
    erasure,
    jobs,
    setListeningOrigin: (origin) => {
      listeningOrigin = origin
    },
    limits,
    distDir: options.distDir,
    contentWorkerPid: content.workerPid,
  }
}
