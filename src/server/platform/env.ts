import * as v from 'valibot'
import { MapTilesSchema } from './env-map.ts'
import { productionProblems, SELLER_ENTRIES } from './env-prod.ts'
import { SHOP_PAGES_ENTRIES } from './env-shop.ts'
import { X264_PRESETS } from './env-video.ts'

// Configuration comes only from the environment, and it is read once: this schema
// lists every variable the server reads, the composition root (src/server/compose.ts) parses
// it at start, and the modules receive typed settings from there. A typo stops the start with every
// bad setting named at once. docs/configuration.md lists exactly these variables, by area (env.test.ts
// checks it: a new variable is a row there too).

const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)))

const wholeNumber = (name: string) =>
  v.pipe(v.string(), v.regex(/^\d+$/, `${name} must be a number`), v.transform(Number))

const probability = v.pipe(
  v.string(),
  v.trim(),
  v.transform(Number),
  v.number(),
  v.minValue(0, 'must be between 0 and 1'),
  v.maxValue(1, 'must be between 0 and 1'),
)

export { X264_PRESETS, type X264Preset } from './env-video.ts'

const EnvEntries = v.object({
  // --- serving
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'PORT must be a number between 0 and 65535'),
      v.transform(Number),
      v.maxValue(65535, 'PORT must be a number between 0 and 65535'),
    ),
    '3000',
  ),
  // The address `npm start` listens on; all interfaces when unset (startServer in tests: loopback).
  HOST: optionalText,
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  DATABASE_URL: optionalText,
  APP_ENV: v.optional(
    v.picklist(['local', 'dev', 'prod'], 'APP_ENV must be one of local, dev, prod'),
    'local',
  ),
  PUBLIC_BASE_URL: v.optional(v.pipe(v.string(), v.url('PUBLIC_BASE_URL must be a URL'))),
  // Without PUBLIC_BASE_URL, the hosts a request may name (Host header) for the addresses the server
  // makes from it (QR codes): comma-separated names; localhost, 127.0.0.1, ::1 and HOST always count
  // (a request never chooses another host).
  ALLOWED_HOSTS: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^[\w.:[\]-]+(\s*,\s*[\w.:[\]-]+)*$/,
        'ALLOWED_HOSTS must be host names separated by commas',
      ),
      v.transform((list) => list.split(',').map((host) => host.trim().toLowerCase())),
    ),
  ),
  MAP_TILES: MapTilesSchema, // the map's street extract (env-map.ts, docs/maps.md)
  LOG_LEVEL: v.optional(v.picklist(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  // --- the shop's own pages: who runs it, and the operator's texts (env-shop.ts)
  ...SHOP_PAGES_ENTRIES,

  // --- payments (Stripe when the secret key is set, else the local test-card provider)
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  // Where the Stripe SDK sends its calls; default Stripe's own API. For a Stripe-compatible server such
  // as stripe-mock, or the stand-in the tests start on loopback.
  STRIPE_API_URL: v.optional(v.pipe(v.string(), v.url('STRIPE_API_URL must be a URL'))),
  // how long an order waits for the cardholder to confirm its charge with their bank (3-D Secure)
  // before it fails and its slots are free again (order/authentication.ts)
  // (0 would fail every order waiting for its cardholder's bank at once)
  PAYMENT_ACTION_MINUTES: v.optional(
    v.pipe(
      wholeNumber('PAYMENT_ACTION_MINUTES'),
      v.minValue(1, 'PAYMENT_ACTION_MINUTES must be at least 1'),
    ),
    '15',
  ),
  // The signing secret (whsec_…) of the shop's webhook endpoint in Stripe's dashboard: every event
  // posted to /api/v1/payment/stripe/webhook is checked against it (payment/webhooks.ts).
  STRIPE_WEBHOOK_SECRET: optionalText,
  // A production shop refuses Stripe's test keys (sk_test_…, which take no money) unless this is 1:
  // a staging copy of production that must not charge real cards.
  ALLOW_TEST_PAYMENTS: v.optional(
    v.picklist(['1', '0', 'true', 'false'], 'ALLOW_TEST_PAYMENTS must be 1 or 0'),
    '0',
  ),

  // How many reverse proxies (load balancers) in front of the server append to X-Forwarded-For and
  // X-Forwarded-Proto: the client's address is read that many entries from the right;
  // 0, the default, ignores both headers (platform/http/client.ts).
  TRUST_PROXY: v.optional(wholeNumber('TRUST_PROXY'), '0'),

  // --- rate limits per client address (platform/rate-limit.ts, shared by every instance)
  // promo code checks (lookups and orders naming a code) per minute
  PROMO_LOOKUPS_PER_MINUTE: v.optional(wholeNumber('PROMO_LOOKUPS_PER_MINUTE'), '30'),
  // writes per minute, counted per kind: setup intents, card confirmations, uploads, generations,
  // orders (far above a shopper's few, far below a flood)
  WRITES_PER_MINUTE: v.optional(wholeNumber('WRITES_PER_MINUTE'), '60'),
  // an advertiser account's planning calls (inventory, proposals, campaign changes) per minute
  AD_PLANNING_PER_MINUTE: v.optional(wholeNumber('AD_PLANNING_PER_MINUTE'), '30'),
  // content jobs (background generations, video uploads being processed) a client may have queued
  // or running at once; one more is a 429 (content/job-queue.ts)
  CONTENT_JOBS_PER_CLIENT: v.optional(wholeNumber('CONTENT_JOBS_PER_CLIENT'), '2'),
  // bytes a client may upload per hour (300 MB); past it, uploads are a 429 until the hour ends
  UPLOAD_BYTES_PER_CLIENT_HOUR: v.optional(
    wholeNumber('UPLOAD_BYTES_PER_CLIENT_HOUR'),
    '300000000',
  ),

  // --- data lifetimes: uploads and generated content no order names are deleted (rows and files)
  // this many hours after they were made (content/lifetime.ts)
  UNORDERED_CONTENT_TTL_HOURS: v.optional(wholeNumber('UNORDERED_CONTENT_TTL_HOURS'), '24'),
  // an order's contact details, texts, photo and content are forgotten this many days after its last
  // slot; its accounting stays (order/lifetime.ts)
  ORDER_CONTENT_TTL_DAYS: v.optional(wholeNumber('ORDER_CONTENT_TTL_DAYS'), '30'),

  // --- content storage: an S3-compatible bucket when S3_BUCKET is set
  S3_BUCKET: optionalText,
  S3_ENDPOINT: v.optional(v.pipe(v.string(), v.trim(), v.url('S3_ENDPOINT must be a URL'))),
  S3_REGION: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: v.optional(
    v.picklist(['true', 'false', '1', '0'], 'S3_FORCE_PATH_STYLE must be true or false'),
  ),
  /** A key prefix inside the bucket, e.g. "shouts/" (default: none). */
  S3_PREFIX: v.optional(
    v.pipe(v.string(), v.regex(/^[\w./-]*$/, 'S3_PREFIX may hold letters, digits, _ . / - only')),
  ),

  // --- the content worker (content/content-worker.ts): `process` runs rendering and the nudity model
  // in a child process that exits when idle; `inline` in the server process (about 250 MB more once used)
  CONTENT_WORKER: v.optional(
    v.picklist(['process', 'inline'], 'CONTENT_WORKER must be process or inline'),
    'process',
  ),
  CONTENT_WORKER_IDLE_SECONDS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, 'CONTENT_WORKER_IDLE_SECONDS must be a number of seconds'),
      v.transform(Number),
    ),
    '30',
  ),

  // --- moderation (spec §5, moderation/README.md). A flag sends the order to review rather than
  // refusing it, so the defaults lean towards caution: a public billboard should not show
  // even "sexy" content unseen. MODERATION_HENTAI_THRESHOLD defaults to MODERATION_NSFW_THRESHOLD.
  MODERATION_NSFW_THRESHOLD: v.optional(probability, '0.5'),
  MODERATION_HENTAI_THRESHOLD: v.optional(probability),
  MODERATION_SEXY_THRESHOLD: v.optional(probability, '0.7'),
  MODERATION_NSFW_MODEL: v.optional(
    v.picklist(['MobileNetV2', 'MobileNetV2Mid', 'InceptionV3']),
    'MobileNetV2',
  ),
  MODERATION_TF_BACKEND: v.optional(v.picklist(['wasm', 'cpu']), 'wasm'),
  MODERATION_VIDEO_FRAMES: v.optional(
    v.pipe(v.string(), v.transform(Number), v.number(), v.integer(), v.minValue(1), v.maxValue(64)),
    '6',
  ),

  // --- video (video/README.md): ffmpeg and ffprobe from FFMPEG_PATH/FFPROBE_PATH (both or neither),
  // else on PATH; required in prod (compose-content.ts composeVideo, decision 026)
  FFMPEG_PATH: optionalText,
  FFPROBE_PATH: optionalText,
  PATH: v.optional(v.string(), ''),
  VIDEO_X264_PRESET: v.optional(
    v.picklist(X264_PRESETS, `VIDEO_X264_PRESET must be one of ${X264_PRESETS.join(', ')}`),
    'superfast',
  ),

  // --- the demo catalogue: imported into an empty database when APP_ENV is local, or when
  // DEMO_CATALOGUE=1 (dev); never in prod, where 1 is refused
  DEMO_CATALOGUE: v.optional(
    v.picklist(['1', '0', 'true', 'false'], 'DEMO_CATALOGUE must be 1 or 0'),
  ),

  // --- several instances on one PostgreSQL (docs/deploying.md, "Several instances")
  // A content job or an order in Processing is held by one instance under a lease this long, renewed
  // every third of it; the work of an instance that died is taken over this long after its last renewal.
  LEASE_SECONDS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, 'LEASE_SECONDS must be a number of seconds'),
      v.transform(Number),
      v.minValue(0.3, 'LEASE_SECONDS must be at least 0.3'),
    ),
    '15',
  ),
  // --- billboards: a proof of play is refused before its play has begun by the server's clock, a
  // billboard's clock allowed to run this many seconds ahead
  PLAYER_CLOCK_SKEW_SECONDS: v.optional(wholeNumber('PLAYER_CLOCK_SKEW_SECONDS'), '120'),
  // a billboard silent this many minutes is offline in the console (docs/billboards.md)
  BILLBOARD_OFFLINE_MINUTES: v.optional(
    v.pipe(
      wholeNumber('BILLBOARD_OFFLINE_MINUTES'),
      v.minValue(1, 'BILLBOARD_OFFLINE_MINUTES must be at least 1'),
    ),
    '10',
  ),
  // hours after an order's last slot before its plays without proof are refunded (docs/billboards.md)
  MAKE_GOOD_GRACE_HOURS: v.optional(wholeNumber('MAKE_GOOD_GRACE_HOURS'), '6'),
  // --- e-mail (docs/mail.md): sent over SMTP when SMTP_URL is set
  // (smtp://user:pass@host:port, smtps://… for TLS from the start); unset, every mail is kept in the
  // outbox (GET /api/v1/ops/outbox) and none is sent
  SMTP_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^smtps?:\/\/[^\s/]+/, 'SMTP_URL must be smtp://user:pass@host:port or smtps://…'),
    ),
  ),
  // The sender of every mail: an address, or a name and an address ("Shouts <shop@example.com>")
  MAIL_FROM: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
        'MAIL_FROM must be an e-mail address, or Name <address>',
      ),
    ),
    'Shouts <shouts@localhost>',
  ),
  // "Your shout airs soon" is made this many minutes before the order's first play
  REMINDER_LEAD_MINUTES: v.optional(wholeNumber('REMINDER_LEAD_MINUTES'), '60'),
  // How often each instance looks for mails to make and to send
  MAIL_POLL_SECONDS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, 'MAIL_POLL_SECONDS must be a number of seconds'),
      v.transform(Number),
      v.minValue(0.05, 'MAIL_POLL_SECONDS must be at least 0.05'),
    ),
    '15',
  ),
  // A refused send is tried again after this long, doubled after each further failure (at most 1 h)
  MAIL_RETRY_SECONDS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, 'MAIL_RETRY_SECONDS must be a number of seconds'),
      v.transform(Number),
    ),
    '60',
  ),
  // After this many failed attempts a mail is marked failed (shown in the outbox) and not retried
  MAIL_MAX_ATTEMPTS: v.optional(wholeNumber('MAIL_MAX_ATTEMPTS'), '8'),

  // --- advertisers (docs/advertisers.md): the keys that sign their access tokens, comma-separated,
  // each at least 32 characters; the first signs, any verifies (rotation: put the new key first,
  // drop the old one once its tokens expired, 15 minutes later). Unset (never in prod): a key is
  // made and kept in the database.
  ADVERTISER_TOKEN_KEYS: v.optional(
    v.pipe(
      v.string(),
      v.transform((list) =>
        list
          .split(',')
          .map((key) => key.trim())
          .filter((key) => key !== ''),
      ),
      v.check(
        (keys) => keys.length > 0 && keys.every((key) => key.length >= 32),
        'ADVERTISER_TOKEN_KEYS must be keys of at least 32 characters, separated by commas',
      ),
    ),
  ),
  // --- the "Forget my data" links (docs/privacy.md): their HMAC key (32 characters or more), the same
  // on every instance (changing it voids every link mailed); unset (never in prod): made and kept.
  ERASURE_LINK_KEY: v.optional(
    v.pipe(
      v.string(),
      v.minLength(32, 'ERASURE_LINK_KEY must be a random key of at least 32 characters'),
    ),
  ),
  ...SELLER_ENTRIES, // --- invoices: the seller (env-seller.ts)
  // The share (percent) of each hour's free time ads may take on a billboard when its event names
  // none (catalogue adSharePercent), and at times no event covers: the house card keeps the rest.
  AD_FREE_TIME_SHARE: v.optional(
    v.pipe(
      wholeNumber('AD_FREE_TIME_SHARE'),
      v.maxValue(100, 'AD_FREE_TIME_SHARE must be a percentage, 0 to 100'),
    ),
    '50',
  ),
  // --- play alerts (Web Push, push/). The key pair the shop signs its pushes with (RFC 8292),
  // base64url as `npx web-push generate-vapid-keys` prints it; unset, a pair is made on the first start
  // and kept in the database (the same for every instance).
  VAPID_PUBLIC_KEY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^[A-Za-z0-9_-]{87}$/,
        'VAPID_PUBLIC_KEY must be a P-256 public key (87 base64url characters)',
      ),
    ),
  ),
  VAPID_PRIVATE_KEY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^[A-Za-z0-9_-]{43}$/,
        'VAPID_PRIVATE_KEY must be a P-256 private key (43 base64url characters)',
      ),
    ),
  ),
  // Who push services may contact about the shop's pushes: a mailto: or https: URL
  VAPID_SUBJECT: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/,
        'VAPID_SUBJECT must be a mailto: or https: URL',
      ),
    ),
  ),
  // The push services the shop sends to (a subscription naming another host is refused: the server
  // never posts to an address a stranger chose): host names or host:port, "*.name" for subdomains
  PUSH_SERVICE_HOSTS: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^[\w*.:-]+(\s*,\s*[\w*.:-]+)*$/,
        'PUSH_SERVICE_HOSTS must be host names separated by commas',
      ),
      v.transform((list) => list.split(',').map((host) => host.trim().toLowerCase())),
    ),
    'fcm.googleapis.com,android.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,*.notify.windows.com',
  ),
  // How often the one instance sending play alerts looks for those due
  PUSH_POLL_SECONDS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, 'PUSH_POLL_SECONDS must be a number of seconds'),
      v.transform(Number),
      v.minValue(0.05, 'PUSH_POLL_SECONDS must be at least 0.05'),
    ),
    '30',
  ),

  // GET /api/v1/metrics answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset: 404, and
  // nothing is counted
  METRICS_TOKEN: v.optional(
    v.pipe(v.string(), v.trim(), v.minLength(16, 'METRICS_TOKEN must be at least 16 characters')),
  ),
  // A stop (SIGTERM) waits this long for open requests (live-event streams) before it cuts them, and
  // exits at twice this at the latest.
  SHUTDOWN_SECONDS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, 'SHUTDOWN_SECONDS must be a number of seconds'),
      v.transform(Number),
    ),
    '10',
  ),
})

const S3_SETTINGS = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PREFIX',
] as const

export const EnvSchema = v.pipe(
  EnvEntries,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const e = dataset.value
    // Settings without a bucket are most likely a typo in the bucket's variable: say so, rather than
    // silently store on the local disk.
    const stray = S3_SETTINGS.filter((key) => e[key] !== undefined)
    if (!e.S3_BUCKET && stray.length > 0) {
      addIssue({ message: `${stray.join(', ')} set but S3_BUCKET is not` })
    }
    if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
      addIssue({ message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together' })
    }
    if (e.APP_ENV === 'prod' && demoCatalogueSetting(e.DEMO_CATALOGUE) === true) {
      addIssue({ message: 'DEMO_CATALOGUE: the demo catalogue is never imported in prod' })
    }
    if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
      addIssue({ message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together' })
    }
    if (e.APP_ENV === 'prod') for (const message of productionProblems(e)) addIssue({ message })
    if (Boolean(e.FFMPEG_PATH) !== Boolean(e.FFPROBE_PATH)) {
      addIssue({ message: 'Set both FFMPEG_PATH and FFPROBE_PATH, or neither.' })
    }
  }),
)

function demoCatalogueSetting(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value === '1' || value === 'true'
}

/**
 * Whether an empty database gets the demo catalogue: DEMO_CATALOGUE when set, else only
 * when APP_ENV is local; never in prod (the schema refuses DEMO_CATALOGUE=1 there).
 */
export function wantsDemoCatalogue(env: Pick<Env, 'APP_ENV' | 'DEMO_CATALOGUE'>): boolean {
  if (env.APP_ENV === 'prod') return false
  return demoCatalogueSetting(env.DEMO_CATALOGUE) ?? env.APP_ENV === 'local'
}

/** Every variable the server reads, by name. */
export const ENV_VARIABLES: readonly string[] = Object.keys(EnvEntries.entries)

export type Env = v.InferOutput<typeof EnvSchema>
export type AppEnv = Env['APP_ENV']

/** Reads the environment through the schema: typed settings, or an Error naming every bad one. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  // Empty (or blank) values count as unset: `FOO= npm start` should not be an error.
  const cleaned: Record<string, string> = {}
  for (const key of ENV_VARIABLES) {
    const value = source[key]
    if (value !== undefined && value.trim() !== '') cleaned[key] = value
  }
  const result = v.safeParse(EnvSchema, cleaned)
  if (!result.success) {
    const problems = result.issues.map((issue) => {
      const path = v.getDotPath(issue)
      return path ? `${path}: ${issue.message}` : issue.message
    })
    throw new Error(`Invalid environment:\n${problems.join('\n')}`)
  }
  return result.output
}
