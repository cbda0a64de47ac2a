// Jobs: several instances share the content job queue on one PostgreSQL. A job another live
// instance runs is left alone (a start no longer re-queues it); when its instance dies, its lease ends
// and a live instance takes the job over and finishes it, once.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContentJobRow } from '../../src/server/content/job-queue.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { applyMigrations } from '../../src/server/platform/db/migrate.ts'
import { json, sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { freshPostgres, POSTGRES_URL } from './helpers.ts'
import { type Instance, sleep, spawnInstance, until } from './instances.ts'

const LEASE_SECONDS = 1

describe.skipIf(!POSTGRES_URL)('content jobs across instances (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof freshPostgres>>
  let dataDir: string
  let a: Instance | null = null
  let b: RunningServer | null = null
  let db: Database
  const ranOnB: string[] = []
  const query: Database['query'] = (statement) => db.query(statement)

  beforeAll(async () => {
    database = await freshPostgres()
    dataDir = await mkdtemp(path.join(tmpdir(), 'shouts-job-leases-'))
    db = await openDatabase({ dataDir, databaseUrl: database.url })
    await applyMigrations(db)
  })
  afterAll(async () => {
    await a?.kill()
    await b?.close()
    await db?.close()
    await database?.drop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('leaves a live instance its job, and finishes a dead one’s job exactly once', async () => {
    // Instance A, a process of its own: it claims the probe job and works on it until it is killed.
    a = await spawnInstance('tests/api/fixtures/probe-instance.ts', {
      DATABASE_URL: database.url,
      DATA_DIR: path.join(dataDir, 'a'),
      LEASE_SECONDS: String(LEASE_SECONDS),
    })
    const probe = await addProbeJob()
    expect((await a.line<{ probeStarted: string }>('probeStarted')).probeStarted).toBe(probe)

    // Instance B starts while A runs the job: the start leaves it to A (it used to re-queue it), and
    // for three lease lengths of A renewing its lease, B does not take it.
    b = await startServer({
      port: 0,
      serveApp: false,
      demoCatalogue: false,
      dataDir: path.join(dataDir, 'b'),
      databaseUrl: database.url,
      log: createLogger('silent'),
      env: { LEASE_SECONDS: String(LEASE_SECONDS) },
      content: {
        jobHandlers: {
          probe: async (_payload, job) => {
            ranOnB.push(job.id)
            return { done: true }
          },
        },
      },
    })
    await sleep(3 * LEASE_SECONDS * 1000)
    expect(ranOnB).toEqual([])
    const held = await job(probe)
    expect(held).toMatchObject({ status: 'running', attempts: 1, leaseOwner: expect.any(String) })
    expect(held.leaseOwner).not.toBe(b.deps.lease.owner)
    expect(held.leaseLive).toBe(true)

    // A dies without a word: its lease ends, and B finishes the job, once.
    await a.kill()
    const done = await until(async () => {
      const row = await job(probe)
      return row.status === 'done' ? row : null
    }, 20_000)
    expect(done).toMatchObject({ status: 'done', attempts: 2, leaseOwner: null, error: null })
    await sleep(2 * LEASE_SECONDS * 1000)
    expect(ranOnB).toEqual([probe])
  })

  async function addProbeJob(): Promise<string> {
    const id = `probe-${Math.random().toString(36).slice(2)}`
    await query(sql`
      insert into content_jobs (id, public_token, kind, payload)
      values (${id}, ${`${id}-token`}, 'probe', ${json({})}::jsonb)`)
    return id
  }

  async function job(id: string) {
    const [row] = await query(sql<{
      status: ContentJobRow['status']
      attempts: number
      error: string | null
      leaseOwner: string | null
      leaseLive: boolean | null
    }>`
      select status, attempts, error, lease_owner as "leaseOwner",
        lease_expires_at > now() as "leaseLive"
      from content_jobs where id = ${id}`)
    if (!row) throw new Error(`no job ${id}`)
    return row
  }
})
