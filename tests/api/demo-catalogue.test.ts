// The demo catalogue goes into an empty database only when APP_ENV is local (or
// DEMO_CATALOGUE=1), never in prod; instances starting at once on one PostgreSQL import it once.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { freshPostgres, POSTGRES_URL, startTestServer } from './helpers.ts'
import { PROD_SELLER } from './prod-seller.ts'

const countEvents = async (db: Awaited<ReturnType<typeof startTestServer>>['deps']['database']) => {
  const [row] = await db.query(sql<{ n: number }>`select count(*)::int as n from events`)
  return row?.n ?? 0
}

describe('the demo catalogue', () => {
  it('is not imported in prod', async () => {
    const server = await startTestServer('pglite', {
      env: {
        APP_ENV: 'prod',
        PUBLIC_BASE_URL: 'https://shouts.example',
        ADVERTISER_TOKEN_KEYS: 'k'.repeat(32),
        ERASURE_LINK_KEY: 'e'.repeat(32),
        ...PROD_SELLER,
        // a production shop needs Stripe; nothing here calls it (the port is closed)
        STRIPE_SECRET_KEY: 'sk_live_not-a-real-key',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_not-a-real-key',
        STRIPE_WEBHOOK_SECRET: 'whsec_not-a-real-secret',
        STRIPE_API_URL: 'http://127.0.0.1:9',
      },
    })
    try {
      expect(await countEvents(server.deps.database)).toBe(0)
    } finally {
      await server.stop()
    }
  })

  it('is imported in dev only when DEMO_CATALOGUE=1', async () => {
    const dev = await startTestServer('pglite', { env: { APP_ENV: 'dev' } })
    const asked = await startTestServer('pglite', { env: { APP_ENV: 'dev', DEMO_CATALOGUE: '1' } })
    try {
      expect(await countEvents(dev.deps.database)).toBe(0)
      expect(await countEvents(asked.deps.database)).toBeGreaterThan(0)
    } finally {
      await dev.stop()
      await asked.stop()
    }
  })

  it.skipIf(!POSTGRES_URL)('is imported once by instances starting at once', async () => {
    const database = await freshPostgres()
    const dataDir = await mkdtemp(path.join(tmpdir(), 'shouts-demo-'))
    const lines: string[] = []
    const log = createLogger('info', {}, (line) => lines.push(line))
    const start = () =>
      startServer({ port: 0, serveApp: false, dataDir, databaseUrl: database.url, log })
    const servers = await Promise.all([start(), start(), start()])
    try {
      expect(lines.filter((line) => line.includes('"demo catalogue imported"'))).toHaveLength(1)
      expect(await countEvents(servers[0].deps.database)).toBeGreaterThan(0)
    } finally {
      for (const server of servers) await server.close()
      await database.drop()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
