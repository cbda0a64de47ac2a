// Background jobs: one scheduler runs every job of the server (platform/scheduler.ts), at start and
// then every interval, never overlapping itself; a job of one instance at a time runs on one of
// several servers sharing the database, and on another once that one stops. Time is a manual clock.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createManualClock } from '../../src/server/platform/clock.ts'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { applyMigrations } from '../../src/server/platform/db/migrate.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { createScheduler, type JobOutcome } from '../../src/server/platform/scheduler.ts'
import { BACKENDS, freshDataDir, freshPostgres, startTestServer } from './helpers.ts'

const log = createLogger('silent')

describe.each(BACKENDS)('background jobs (%s)', (backend) => {
  let db: Database
  let dataDir: string
  let drop: (() => Promise<void>) | null = null

  beforeAll(async () => {
    dataDir =
      backend === 'pglite'
        ? await freshDataDir()
        : await mkdtemp(path.join(tmpdir(), 'shouts-jobs-'))
    const pgDb = backend === 'postgres' ? await freshPostgres() : null
    drop = pgDb?.drop ?? null
    db = await openDatabase({ dataDir, ...(pgDb ? { databaseUrl: pgDb.url } : {}) })
    await applyMigrations(db)
  })
  afterAll(async () => {
    await db?.close()
    await drop?.()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('run at start, then every interval after the end of the last run, never two at once', async () => {
    const clock = createManualClock(1_000_000)
    const jobs = createScheduler({ database: db, lease: { owner: 'a', leaseMs: 1000 }, log, clock })
    const started: number[] = []
    let finish = () => {}
    jobs.register({
      name: 'counting',
      everyMs: 60_000,
      run: () => {
        started.push(clock.now())
        return new Promise<void>((resolve) => {
          finish = resolve
        })
      },
    })
    jobs.start()
    // The first run starts once the scheduler has taken over the leases of a gone process.
    while (started.length === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    expect(started).toEqual([1_000_000])
    // The run is still going: a minute later nothing else starts, and asking for a run joins it.
    clock.advance(60_000)
    const joined = jobs.runNow('counting')
    expect(started).toHaveLength(1)
    finish()
    expect(await joined).toBe('done')
    await jobs.idle()
    // The next run comes a minute after the end of the last one, not before.
    clock.advance(59_999)
    expect(started).toHaveLength(1)
    clock.advance(1)
    expect(started).toEqual([1_000_000, 1_120_000])
    finish()
    await jobs.idle()
    await jobs.stop()
    clock.advance(10 * 60_000)
    expect(started).toHaveLength(2)
  })

  it('log and count a failed run, and run again at the next interval', async () => {
    const clock = createManualClock()
    const outcomes: JobOutcome[] = []
    const jobs = createScheduler({
      database: db,
      lease: { owner: 'b', leaseMs: 1000 },
      log,
      clock,
      observe: (_job, outcome) => outcomes.push(outcome),
    })
    let calls = 0
    jobs.register({
      name: 'flaky',
      everyMs: 1000,
      run: async () => {
        calls++
        if (calls === 1) throw new Error('the first run fails')
      },
    })
    jobs.start()
    await jobs.idle()
    clock.advance(1000)
    await jobs.idle()
    await jobs.stop()
    expect(outcomes).toEqual(['failed', 'done'])
  })

  it('of one instance run on one server at a time, and on another once it stops', async () => {
    const clock = createManualClock()
    const ran: string[] = []
    const stoppedWith: string[] = []
    const server = (owner: string) => {
      const jobs = createScheduler({ database: db, lease: { owner, leaseMs: 1000 }, log, clock })
      jobs.register({
        name: 'one-at-a-time',
        everyMs: 60_000,
        oneInstance: true,
        run: async () => {
          ran.push(owner)
        },
        stop: async () => {
          stoppedWith.push(owner)
        },
      })
      return jobs
    }
    const first = server('first')
    const second = server('second')
    expect(await first.runNow('one-at-a-time')).toBe('done')
    expect(await second.runNow('one-at-a-time')).toBe('skipped')
    expect(await first.runNow('one-at-a-time')).toBe('done')
    expect(ran).toEqual(['first', 'first'])
    // The first server starts (its first run is its own lease's again), then stops: its job's stop
    // is called and its lease handed back, so the second server's next run is not skipped.
    first.start()
    await first.idle()
    await first.stop()
    expect(stoppedWith).toEqual(['first'])
    expect(await second.runNow('one-at-a-time')).toBe('done')
    expect(ran).toEqual(['first', 'first', 'first', 'second'])
    await second.stop()
  })

  it('refuse two jobs of one name', () => {
    const jobs = createScheduler({
      database: db,
      lease: { owner: 'c', leaseMs: 1000 },
      log,
      clock: createManualClock(),
    })
    jobs.register({ name: 'twice', everyMs: 1000, run: async () => {} })
    expect(() => jobs.register({ name: 'twice', everyMs: 1000, run: async () => {} })).toThrow(
      'a job named twice is registered already',
    )
  })
})

describe("the server's jobs", () => {
  it('are each shown on /metrics with their runs', async () => {
    const clock = createManualClock()
    const server = await startTestServer('pglite', {
      clock,
      env: { METRICS_TOKEN: 'metrics-token-for-jobs' },
    })
    try {
      const names = server.deps.jobs.jobs().map((job) => job.name)
      expect(names).toEqual([
        'order-recovery',
        'review-expiry',
        'refund-retry',
        'stripe-events-sweep',
        'mail-planner',
        'mail-sender',
        'content-jobs',
        'raw-upload-sweep',
        'content-lifetime',
        'rate-limit-sweep',
        'ad-renditions',
        'advertiser-requests',
        'advertiser-sweep',
        'ad-pacing',
        'ad-settlement',
        'campaign-receipts',
        'play-alerts',
        'order-data-lifetime',
        'authentication-timeout',
        'make-goods',
        'billboard-outages',
      ])
      await server.deps.jobs.idle()
      const res = await fetch(`${server.url}/api/v1/metrics`, {
        headers: { authorization: 'Bearer metrics-token-for-jobs' },
      })
      const text = await res.text()
      for (const name of names) {
        expect(text).toContain(`shouts_job_runs_total{job="${name}",outcome="done"} 1`)
        expect(text).toContain(`shouts_job_last_success_timestamp_seconds{job="${name}"} 0`)
      }
      // Nothing more runs until the clock moves: the rate limit sweep comes a minute later.
      clock.advance(60_000)
      await server.deps.jobs.idle()
      const later = await (
        await fetch(`${server.url}/api/v1/metrics`, {
          headers: { authorization: 'Bearer metrics-token-for-jobs' },
        })
      ).text()
      expect(later).toContain('shouts_job_runs_total{job="rate-limit-sweep",outcome="done"} 2')
      expect(later).toContain('shouts_job_runs_total{job="raw-upload-sweep",outcome="done"} 1')
    } finally {
      await server.stop()
    }
  })
})
