// Background content jobs (api-v1: asyncPublicToken, GET /content/daemon/public/{token}, the result
// link). Jobs are rows in content_jobs, so a job accepted before a crash or restart is run when the
// server starts again (issue 5: "Jobs persist in the database and survive a restart"). One job runs at a
// time per server: rendering and transcoding use the CPU, and the machine has two cores.
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { contentJobs } from '../db/schema/content.ts'
import type { Db } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { newId } from './storage.ts'

export type ContentJobRow = typeof contentJobs.$inferSelect

/**
 * What a job ends with: the key of the generated content, a message for the shopper, or (for jobs
 * that make no content, such as processing an upload) plain completion.
 */
export type JobOutcome = { resultKey: string } | { error: string } | { done: true }

export type JobHandler = (
  payload: Record<string, unknown>,
  job: ContentJobRow,
  /** Aborted when the server stops: ffmpeg is killed and the job is run again at the next start. */
  signal: AbortSignal,
) => Promise<JobOutcome>

/** A job that was started this many times and never finished is given up (a file that crashes us). */
const MAX_ATTEMPTS = 3
/** How often the queue is looked at besides when a job is added (jobs added by another server). */
const POLL_MS = 2_000

export type ContentJobs = {
  enqueue(kind: string, payload: Record<string, unknown>): Promise<ContentJobRow>
  byPublicToken(token: string): Promise<ContentJobRow | null>
  /** Resolves when the queue is empty and nothing runs (tests, shutdown). */
  idle(): Promise<void>
  stop(): Promise<void>
}

export function createContentJobs(
  db: Db,
  handlers: Record<string, JobHandler>,
  log: Logger,
): ContentJobs {
  let running: Promise<void> | null = null
  let stopped = false
  let again = false
  let idleWaiters: (() => void)[] = []
  const stopping = new AbortController()

  const claim = async (): Promise<ContentJobRow | null> => {
    const rows = await db
      .update(contentJobs)
      .set({ status: 'running', startedAt: new Date(), attempts: sql`${contentJobs.attempts} + 1` })
      .where(
        sql`${contentJobs.id} = (select id from content_jobs where status = 'queued' order by created_at limit 1 for update skip locked)`,
      )
      .returning()
    return rows[0] ?? null
  }

  const finish = async (job: ContentJobRow, outcome: JobOutcome) => {
    await db
      .update(contentJobs)
      .set(
        'error' in outcome
          ? { status: 'failed', error: outcome.error, completedAt: new Date() }
          : {
              status: 'done',
              resultKey: 'resultKey' in outcome ? outcome.resultKey : null,
              completedAt: new Date(),
            },
      )
      .where(eq(contentJobs.id, job.id))
  }

  const runOne = async (job: ContentJobRow) => {
    const handler = handlers[job.kind]
    if (!handler)
      return finish(job, { error: `This kind of content (${job.kind}) cannot be made here.` })
    if (job.attempts > MAX_ATTEMPTS) {
      return finish(job, {
        error: 'The content could not be made. Please try again or contact support.',
      })
    }
    let outcome: JobOutcome
    try {
      outcome = await handler(job.payload, job, stopping.signal)
    } catch (error) {
      if (stopping.signal.aborted) return requeue(job)
      log.error('content job failed', { jobId: job.id, kind: job.kind, error })
      outcome = { error: 'The content could not be made. Please try again or contact support.' }
    }
    // Cut short by a shutdown (it answered an error because ffmpeg was stopped): run again at the next start.
    if (stopping.signal.aborted && 'error' in outcome) return requeue(job)
    await finish(job, outcome)
  }

  // A shutdown is not a failed attempt: the job goes back to the queue as it was.
  const requeue = async (job: ContentJobRow) => {
    log.info('content job interrupted by shutdown; it runs again at the next start', {
      jobId: job.id,
      kind: job.kind,
    })
    await db
      .update(contentJobs)
      .set({ status: 'queued', attempts: Math.max(0, job.attempts - 1), startedAt: null })
      .where(eq(contentJobs.id, job.id))
  }

  const drain = async () => {
    do {
      again = false
      for (;;) {
        if (stopped) return
        const job = await claim()
        if (!job) break
        await runOne(job)
      }
    } while (again && !stopped)
  }

  const kick = () => {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    running = drain()
      .catch((error: unknown) => log.error('content job queue failed', { error }))
      .finally(() => {
        running = null
        const waiters = idleWaiters
        idleWaiters = []
        for (const resolve of waiters) resolve()
      })
  }

  // A job that was running when the server stopped is run again (each start counts as an attempt).
  const resumed = db
    .update(contentJobs)
    .set({ status: 'queued' })
    .where(eq(contentJobs.status, 'running'))
    .then(() => kick())
    .catch((error: unknown) => log.error('content jobs could not be resumed', { error }))
  const timer = setInterval(kick, POLL_MS)
  timer.unref()

  return {
    async enqueue(kind, payload) {
      const [job] = await db
        .insert(contentJobs)
        .values({ id: newId(), publicToken: randomBytes(24).toString('base64url'), kind, payload })
        .returning()
      if (!job) throw new Error('The job was not stored')
      kick()
      return job
    },
    async byPublicToken(token) {
      const rows = await db
        .select()
        .from(contentJobs)
        .where(eq(contentJobs.publicToken, token))
        .limit(1)
      return rows[0] ?? null
    },
    async idle() {
      await resumed
      if (!running) return
      await new Promise<void>((resolve) => idleWaiters.push(resolve))
    },
    async stop() {
      stopped = true
      stopping.abort()
      clearInterval(timer)
      await resumed
      await running
    },
  }
}
