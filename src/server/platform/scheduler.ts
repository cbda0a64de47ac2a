import type { Clock, Timer } from './clock.ts'
import type { Database } from './db/client.ts'
import { sql } from './db/sql.ts'
import type { LeaseSettings } from './lease.ts'
import type { Logger } from './log.ts'

// The one scheduler of background work. Every job is named and registered in the composition root
// (compose.ts) with its interval, whether one instance at a time runs it, and what it does; the
// scheduler runs it at start and then every interval after the end of its last run (a run never
// overlaps itself), logs a failure, counts every run for /metrics, and at shutdown stops the timers,
// lets the runs in progress finish (their signal is aborted) and calls each job's stop.
//
// A job of `oneInstance` holds a lease in job_leases (decision 015: the database's clock decides)
// for as long as its interval and a lease: the instance that ran it last runs it again, the others
// skip it; when that instance stops (it hands the lease back) or dies (the lease ends), another takes
// over. Other jobs run on every instance: their work is claimed row by row (order and content-job
// leases, mails claimed with SKIP LOCKED) or is the instance's own (its temporary files).

export type JobContext = {
  /** Aborted when the server stops: a long run ends early and leaves the rest to the next start. */
  signal: AbortSignal
}

export type Job = {
  /** kebab-case, unique: the label of its metrics and the key of its lease. */
  name: string
  /** From the end of a run to the start of the next. */
  everyMs: number
  /** One instance at a time runs it (a lease in job_leases); default: every instance. */
  oneInstance?: boolean
  /** Once, before the first run (e.g. taking over what a gone process held). */
  start?(): Promise<void>
  run(context: JobContext): Promise<unknown>
  /** Once at shutdown, after the last run: hands back what the job holds. */
  stop?(): Promise<void>
}

/** How a run ended: `skipped` when another instance holds a one-instance job's lease. */
export type JobOutcome = 'done' | 'failed' | 'skipped'

export type Scheduler = {
  /** Adds a job (compose.ts); it starts with the others, or at once when they have started. */
  register(job: Job): void
  /** Starts every job (main.ts, once the server listens). */
  start(): void
  /** Runs a job now, or joins its run in progress (tests, and work that should not wait). */
  runNow(name: string): Promise<JobOutcome>
  /** Resolves once no job is starting or running (tests: after moving a manual clock). */
  idle(): Promise<void>
  /** Stops the timers, waits for the runs in progress, calls each job's stop, hands leases back. */
  stop(): Promise<void>
  /** The jobs registered, in order. */
  jobs(): readonly Pick<Job, 'name' | 'everyMs' | 'oneInstance'>[]
}

type Entry = {
  job: Job
  /** The run in progress. */
  running: Promise<JobOutcome> | null
  /** A scheduled run and the setting of the timer after it, until that timer is set. */
  cycle: Promise<void> | null
  timer: Timer | null
  started: Promise<void> | null
}

export function createScheduler(deps: {
  database: Database
  /** This instance's id (the owner of its leases) and the length of a lease. */
  lease: LeaseSettings
  log: Logger
  clock: Clock
  /** Each run's outcome, length, and end by the clock (platform/metrics.ts counts them). */
  observe?: (job: string, outcome: JobOutcome, seconds: number, endedAtMs: number) => void
}): Scheduler {
  const { database: db, lease, log, clock } = deps
  const entries = new Map<string, Entry>()
  const stopping = new AbortController()
  let started: Promise<void> | null = null
  let stopped = false

  const holdMs = (job: Job) => Math.round(job.everyMs + lease.leaseMs)

  /** Takes or keeps the job's lease; false when another live instance holds it. */
  async function hold(job: Job): Promise<boolean> {
    const rows = await db.query(sql`
      insert into job_leases as l (name, owner, expires_at)
      values (${job.name}, ${lease.owner}, now() + ${holdMs(job)}::int * interval '1 millisecond')
      on conflict (name) do update set owner = excluded.owner, expires_at = excluded.expires_at
        where l.owner = excluded.owner or l.expires_at < now()
      returning owner`)
    return rows.length > 0
  }

  async function execute(entry: Entry): Promise<JobOutcome> {
    const { job } = entry
    const began = clock.now()
    let outcome: JobOutcome = 'done'
    let renewal: Timer | null = null
    try {
      if (job.oneInstance) {
        if (!(await hold(job))) {
          outcome = 'skipped'
          return outcome
        }
        // Renewed while it runs, so a long run keeps its lease.
        const renew = () => {
          renewal = clock.after(Math.max(50, Math.floor(lease.leaseMs / 3)), () => {
            hold(job).then(renew, (error: unknown) => {
              log.warn('job lease not renewed', { job: job.name, error })
              renew()
            })
          })
        }
        renew()
      }
      await job.run({ signal: stopping.signal })
      if (job.oneInstance) await hold(job)
    } catch (error) {
      outcome = 'failed'
      if (!stopping.signal.aborted) log.error('job failed', { job: job.name, error })
    } finally {
      ;(renewal as Timer | null)?.cancel()
      const ended = clock.now()
      deps.observe?.(job.name, outcome, (ended - began) / 1000, ended)
    }
    return outcome
  }

  function runNow(entry: Entry): Promise<JobOutcome> {
    entry.running ??= execute(entry).finally(() => {
      entry.running = null
    })
    return entry.running
  }

  /** A run on the timer, then the timer of the next. */
  function cycle(entry: Entry) {
    entry.cycle = runNow(entry).then(() => {
      entry.cycle = null
      if (stopped) return
      entry.timer = clock.after(entry.job.everyMs, () => {
        entry.timer = null
        cycle(entry)
      })
    })
  }

  function startEntry(entry: Entry) {
    entry.started = (started ?? Promise.resolve())
      .then(() => entry.job.start?.())
      .catch((error: unknown) => log.error('job start failed', { job: entry.job.name, error }))
      .then(() => {
        if (!stopped) cycle(entry)
      })
  }

  return {
    register(job) {
      if (entries.has(job.name)) throw new Error(`a job named ${job.name} is registered already`)
      if (!(job.everyMs > 0)) throw new Error(`job ${job.name}: everyMs must be above 0`)
      const entry: Entry = { job, running: null, cycle: null, timer: null, started: null }
      entries.set(job.name, entry)
      if (started && !stopped) startEntry(entry)
    },
    start() {
      if (started || stopped) return
      // The embedded database is opened by one process at a time: a lease it holds was a gone
      // process's.
      started = (db.kind === 'pglite' ? db.query(sql`delete from job_leases`) : Promise.resolve())
        .then(() => undefined)
        .catch((error: unknown) => log.error('job leases not taken over', { error }))
      for (const entry of entries.values()) startEntry(entry)
    },
    runNow(name) {
      const entry = entries.get(name)
      if (!entry) throw new Error(`no job named ${name}`)
      return stopped ? Promise.resolve('skipped') : runNow(entry)
    },
    async idle() {
      for (;;) {
        const list = [...entries.values()]
        await Promise.all(list.flatMap((entry) => [entry.started, entry.running, entry.cycle]))
        if (list.every((entry) => entry.running === null && entry.cycle === null)) return
      }
    },
    async stop() {
      if (stopped) return
      stopped = true
      stopping.abort()
      for (const entry of entries.values()) entry.timer?.cancel()
      const list = [...entries.values()]
      await Promise.all(list.map((entry) => entry.started))
      await Promise.all(list.flatMap((entry) => [entry.running, entry.cycle]))
      await Promise.all(
        list
          .filter((entry) => entry.started)
          .map((entry) =>
            entry.job
              .stop?.()
              .catch((error: unknown) =>
                log.error('job stop failed', { job: entry.job.name, error }),
              ),
          ),
      )
      if (list.some((entry) => entry.job.oneInstance)) {
        await db
          .query(sql`delete from job_leases where owner = ${lease.owner}`)
          .catch((error: unknown) => log.warn('job leases not handed back', { error }))
      }
    },
    jobs: () =>
      [...entries.values()].map(({ job }) => ({
        name: job.name,
        everyMs: job.everyMs,
        oneInstance: job.oneInstance ?? false,
      })),
  }
}
