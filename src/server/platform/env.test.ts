import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ENV_VARIABLES, parseEnv, wantsDemoCatalogue } from './env.ts'

// The schema lists every variable the server reads, and docs/configuration.md lists exactly those,
// grouped by area: every table whose header is `| variable | default | meaning |`, one variable a row.
function configurationRows(): { name: string; fallback: string }[] {
  const page = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8')
  const rows: { name: string; fallback: string }[] = []
  let inTable = false
  for (const line of page.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false
      continue
    }
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim())
    if (cells[1] === 'variable' && cells[2] === 'default') inTable = true
    else if (inTable && !/^-+$/.test(cells[1] ?? '')) {
      rows.push({ name: cells[1] ?? '', fallback: cells[2] ?? '' })
    }
  }
  return rows
}

/** The least a production shop starts with: its public address, its Stripe account, its seller. */
const PROD = {
  APP_ENV: 'prod',
  PUBLIC_BASE_URL: 'https://shouts.example',
  STRIPE_SECRET_KEY: 'sk_live_not-a-real-key',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_not-a-real-key',
  STRIPE_WEBHOOK_SECRET: 'whsec_not-a-real-secret',
  ADVERTISER_TOKEN_KEYS: 'k'.repeat(32),
  ERASURE_LINK_KEY: 'e'.repeat(32),
  SELLER_LEGAL_NAME: 'Shouts SAS',
  SELLER_ADDRESS: '1 rue de Rivoli|75001 Paris',
  SELLER_COUNTRY: 'FR',
  SELLER_VAT_NUMBER: 'FR40303265045',
  SELLER_VAT_RATE: '20',
  INVOICE_PREFIX: 'SH-',
}

describe('the settings', () => {
  it('are listed in docs/configuration.md, each once, and nothing else', () => {
    const rows = configurationRows()
    expect(rows.length).toBeGreaterThan(0)
    for (const { name } of rows) expect(name, 'one `NAME` a row').toMatch(/^`[A-Z][A-Z0-9_]*`$/)
    const named = rows.map(({ name }) => name.slice(1, -1))
    expect(new Set(named).size, 'a variable listed twice').toBe(named.length)
    expect([...named].sort()).toEqual([...ENV_VARIABLES].sort())
  })

  it("are documented with the schema's defaults", () => {
    const defaults = parseEnv({}) as Record<string, unknown>
    for (const { name, fallback } of configurationRows()) {
      const value = defaults[name.slice(1, -1)]
      if (typeof value !== 'string' && typeof value !== 'number') continue
      if (value === '') continue
      expect(fallback, `the default of ${name}`).toContain(`\`${value}\``)
    }
  })

  it('have defaults, so that an empty environment runs the shop', () => {
    const env = parseEnv({})
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      APP_ENV: 'local',
      PROMO_LOOKUPS_PER_MINUTE: 30,
      CONTENT_WORKER: 'process',
      CONTENT_WORKER_IDLE_SECONDS: 30,
      MODERATION_VIDEO_FRAMES: 6,
      VIDEO_X264_PRESET: 'superfast',
    })
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.S3_BUCKET).toBeUndefined()
  })

  it('count blank values as unset, and ignore variables the server does not read', () => {
    const env = parseEnv({ PORT: '', STRIPE_SECRET_KEY: '  ', SHOUTS_OTHER: 'x' })
    expect(env.PORT).toBe(3000)
    expect(env.STRIPE_SECRET_KEY).toBeUndefined()
    expect(env).not.toHaveProperty('SHOUTS_OTHER')
  })

  it('refuse bad values, naming every one at once', () => {
    let message = ''
    try {
      parseEnv({ PORT: '99999', APP_ENV: 'staging', MODERATION_NSFW_THRESHOLD: '2' })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('PORT: PORT must be a number between 0 and 65535')
    expect(message).toContain('APP_ENV: APP_ENV must be one of local, dev, prod')
    expect(message).toContain('MODERATION_NSFW_THRESHOLD: must be between 0 and 1')
    expect(() => parseEnv({ PAYMENT_ACTION_MINUTES: '0' })).toThrow(
      'PAYMENT_ACTION_MINUTES must be at least 1',
    )
  })

  it('refuse settings that only make sense together, when one is missing', () => {
    expect(() => parseEnv({ S3_REGION: 'eu-west-1' })).toThrow('S3_REGION set but S3_BUCKET is not')
    expect(() => parseEnv({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together',
    )
    expect(() => parseEnv({ FFMPEG_PATH: '/usr/bin/ffmpeg' })).toThrow(
      'Set both FFMPEG_PATH and FFPROBE_PATH, or neither.',
    )
  })

  it('import the demo catalogue locally or when asked, never in prod', () => {
    expect(wantsDemoCatalogue(parseEnv({}))).toBe(true)
    expect(wantsDemoCatalogue(parseEnv({ DEMO_CATALOGUE: '0' }))).toBe(false)
    expect(wantsDemoCatalogue(parseEnv({ APP_ENV: 'dev' }))).toBe(false)
    expect(wantsDemoCatalogue(parseEnv({ APP_ENV: 'dev', DEMO_CATALOGUE: '1' }))).toBe(true)
    expect(wantsDemoCatalogue(parseEnv(PROD))).toBe(false)
    expect(wantsDemoCatalogue(parseEnv({ ...PROD, DEMO_CATALOGUE: '0' }))).toBe(false)
    expect(() => parseEnv({ ...PROD, DEMO_CATALOGUE: '1' })).toThrow(
      'the demo catalogue is never imported in prod',
    )
  })

  it('refuse a production shop without Stripe, which would take test cards and no money', () => {
    const { STRIPE_SECRET_KEY: _s, STRIPE_PUBLISHABLE_KEY: _p, ...withoutStripe } = PROD
    expect(() => parseEnv(withoutStripe)).toThrow(
      'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set when APP_ENV=prod',
    )
    expect(() => parseEnv({ ...withoutStripe, STRIPE_SECRET_KEY: 'sk_live_x' })).toThrow(
      'STRIPE_PUBLISHABLE_KEY must be set when APP_ENV=prod',
    )
    // dev and local keep the local test-card provider
    expect(parseEnv({ APP_ENV: 'dev' }).STRIPE_SECRET_KEY).toBeUndefined()
  })

  it("refuse a production shop without Stripe's webhook secret, or with a test key unless allowed", () => {
    const { STRIPE_WEBHOOK_SECRET: _, ...withoutSecret } = PROD
    expect(() => parseEnv(withoutSecret)).toThrow(
      'STRIPE_WEBHOOK_SECRET must be set when APP_ENV=prod',
    )
    const testKeys = {
      ...PROD,
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
    }
    expect(() => parseEnv(testKeys)).toThrow('STRIPE_SECRET_KEY is a test key (sk_test_…)')
    expect(() => parseEnv({ ...testKeys, ALLOW_TEST_PAYMENTS: '0' })).toThrow('is a test key')
    expect(parseEnv({ ...testKeys, ALLOW_TEST_PAYMENTS: '1' }).STRIPE_SECRET_KEY).toBe('sk_test_x')
    // outside production a test key is the normal case
    expect(parseEnv({ APP_ENV: 'dev', STRIPE_SECRET_KEY: 'sk_test_x' }).STRIPE_SECRET_KEY).toBe(
      'sk_test_x',
    )
  })

  it('require PUBLIC_BASE_URL in production, with a message that says why', () => {
    const { PUBLIC_BASE_URL: _, ...withoutAddress } = PROD
    expect(() => parseEnv(withoutAddress)).toThrow('PUBLIC_BASE_URL must be set when APP_ENV=prod')
    expect(parseEnv(PROD).APP_ENV).toBe('prod')
    expect(parseEnv({ ALLOWED_HOSTS: 'Shop.example, 10.0.0.5' }).ALLOWED_HOSTS).toEqual([
      'shop.example',
      '10.0.0.5',
    ])
    expect(parseEnv({ TRUST_PROXY: '2', WRITES_PER_MINUTE: '10' })).toMatchObject({
      TRUST_PROXY: 2,
      WRITES_PER_MINUTE: 10,
    })
  })

  it('require the key of the "Forget my data" links in production, of 32 characters or more', () => {
    const { ERASURE_LINK_KEY: _, ...withoutKey } = PROD
    expect(() => parseEnv(withoutKey)).toThrow('ERASURE_LINK_KEY must be set when APP_ENV=prod')
    expect(() => parseEnv({ ERASURE_LINK_KEY: 'short' })).toThrow(
      'ERASURE_LINK_KEY must be a random key of at least 32 characters',
    )
    expect(parseEnv(PROD).ERASURE_LINK_KEY).toBe('e'.repeat(32))
  })

  it("require the advertisers' token keys in production, each of 32 characters or more", () => {
    const { ADVERTISER_TOKEN_KEYS: _, ...withoutKeys } = PROD
    expect(() => parseEnv(withoutKeys)).toThrow(
      'ADVERTISER_TOKEN_KEYS must be set when APP_ENV=prod',
    )
    expect(() => parseEnv({ ADVERTISER_TOKEN_KEYS: 'short' })).toThrow(
      'ADVERTISER_TOKEN_KEYS must be keys of at least 32 characters',
    )
    const a = 'a'.repeat(32)
    const b = 'b'.repeat(40)
    expect(parseEnv({ ADVERTISER_TOKEN_KEYS: ` ${a} , ${b} ` }).ADVERTISER_TOKEN_KEYS).toEqual([
      a,
      b,
    ])
    expect(parseEnv({}).AD_FREE_TIME_SHARE).toBe(50)
    expect(() => parseEnv({ AD_FREE_TIME_SHARE: '101' })).toThrow('AD_FREE_TIME_SHARE')
  })

  it("require the seller's details in production, its VAT number of its country", () => {
    const { SELLER_VAT_NUMBER: _, INVOICE_PREFIX: _p, ...withoutSeller } = PROD
    expect(() => parseEnv(withoutSeller)).toThrow(
      'SELLER_VAT_NUMBER, INVOICE_PREFIX must be set when APP_ENV=prod',
    )
    expect(() => parseEnv({ ...PROD, SELLER_VAT_NUMBER: 'DE136695976' })).toThrow(
      'SELLER_VAT_NUMBER is not a VAT number of FR',
    )
    expect(() => parseEnv({ ...PROD, SELLER_VAT_RATE: 'twenty' })).toThrow(
      'SELLER_VAT_RATE must be a percentage',
    )
    // outside production the demo seller stands in
    expect(parseEnv({}).SELLER_LEGAL_NAME).toBeUndefined()
  })

  it('a production shop cannot do without are all named in README\'s "ones a real shop sets"', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
    const paragraph = readme.slice(readme.indexOf('The ones a real shop sets'))
    const list = paragraph.slice(0, paragraph.indexOf('\n\n'))
    const required = ENV_VARIABLES.filter((name) => {
      const { [name]: _, ...without } = PROD as Record<string, string>
      try {
        parseEnv(without)
        return false
      } catch (error) {
        return String(error).includes(`${name} must be set when APP_ENV=prod`)
      }
    })
    expect(required).toContain('ADVERTISER_TOKEN_KEYS')
    expect(required.filter((name) => !list.includes(`\`${name}\``))).toEqual([])
  })
})
