// Liveness and readiness for a load balancer, and a shutdown that hands its work back.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { meta } from '../../src/contract/meta.ts'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { applyMigrations } from '../../src/server/platform/db/migrate.ts'
import { json, sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  client,
  freshPostgres,
  POSTGRES_URL,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { spawnInstance, until } from './instances.ts'

describe.each(BACKENDS)('liveness and readiness on %s', (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(backend)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('is not ready while content storage takes no write, and ready again after', async () => {
    const api = client(server.url)
    // Storage's folder replaced by a file: nothing can be written into it (root or not).
    const files = path.join(server.dataDir, 'content', 'files')
    renameSync(files, `${files}.away`)
    writeFileSync(files, 'not a folder')
    try {
      const res = await api.get<{ codes: string[] }>('/readyz')
      expect(res.status).toBe(503)
      expect(res.body.codes).toEqual(['storage_unwritable'])
    } finally {
      rmSync(files)
      renameSync(`${files}.away`, files)
    }
    expect((await api.get('/readyz')).status).toBe(200)
  })

  it('answers liveness, and readiness with what it checked', async () => {
    const api = client(server.url)
    expect(answerOf(meta.livez, await api.get('/livez'))).toMatchObject({ status: 'ok' })
    expect(answerOf(meta.readyz, await api.get('/readyz'))).toMatchObject({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', storage: 'ok' },
    })
  })

  it('is not ready while a migration is missing', async () => {
    const api = client(server.url)
    const db = server.deps.database
    await db.query(sql`delete from schema_migrations where name = '0006_leases.sql'`)
    try {
      const res = await api.get<{ errors: string[]; codes: string[] }>('/readyz')
      expect(res.status).toBe(503)
      expect(res.body).toEqual({
        errors: ['Migrations not applied: 0006_leases.sql'],
        codes: ['migrations_pending'],
        params: [{ migrations: '0006_leases.sql' }],
      })
    } finally {
      await db.query(sql`insert into schema_migrations (name) values ('0006_leases.sql')`)
    }
    expect((await api.get('/readyz')).status).toBe(200)
  })
})

describe.skipIf(!POSTGRES_URL)('a graceful shutdown (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof freshPostgres>>
  let dataDir: string
  let db: Database

  beforeAll(async () => {
    database = await freshPostgres()
    dataDir = await mkdtemp(path.join(tmpdir(), 'shouts-shutdown-'))
    mkdirSync(dataDir, { recursive: true })
    db = await openDatabase({ dataDir, databaseUrl: database.url })
    await applyMigrations(db)
  })
  afterAll(async () => {
    await db?.close()
    await database?.drop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('stops the job it runs, hands it back to the queue, and exits', async () => {
    const instance = await spawnInstance('tests/api/fixtures/probe-instance.ts', {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LEASE_SECONDS: '60',
    })
    try {
      await db.query(sql`
        insert into content_jobs (id, public_token, kind, payload)
        values ('shutdown-probe', 'shutdown-probe-token', 'probe', ${json({})}::jsonb)`)
      await instance.line('probeStarted')
      await until(
        async () => {
          const [row] = await db.query(sql<{ status: string }>`
            select status from content_jobs where id = 'shutdown-probe'`)
          return row?.status === 'running' ? true : null
        },
        10_000,
        'the job to run',
      )
      // SIGTERM: a clean exit, and the job back in the queue at once (not after its 60 s lease).
      expect(await instance.stop()).toBe(0)
      const [row] = await db.query(sql<{
        status: string
        attempts: number
        leaseOwner: string | null
      }>`select status, attempts, lease_owner as "leaseOwner" from content_jobs
        where id = 'shutdown-probe'`)
      expect(row).toEqual({ status: 'queued', attempts: 0, leaseOwner: null })
    } finally {
      await instance.kill()
    }
  })
})
