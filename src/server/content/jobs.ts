// Background content jobs (api-v1: asyncPublicToken, GET /content/daemon/public/{token}, the result
// link). Jobs are rows in content_jobs, so a job accepted before a crash or restart is run when the
// server starts again (issue 5: "Jobs persist in the database and survive a restart"). Two jobs run at
// a time per server (LANES): rendering and transcoding use the CPU, and the machine has two cores.
import type { Queryable } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import {
  type ContentJobRow,
  claimJob,
  finishJob,
  insertJob,
  jobByPublicToken,
  requeueJob,
  requeueRunningJobs,
} from './repo.ts'

export type { ContentJobRow } from './repo.ts'

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
/**
 * Jobs run at once per server (issue 12 item 4): with one lane, one shopper's long transcode held every
 * other shopper's clip behind it (a normal clip waited 53 s). Two lanes share the two cores; each job is
 * bounded in time (ffmpeg's timeouts) and memory (prlimit, video/ffmpeg.ts), and a video past
 * VIDEO_LIMITS is refused before it is queued.
 */
const LANES = 2
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
  db: Queryable,
  handlers: Record<string, JobHandler>,
  log: Logger,
): ContentJobs {
  const lanes = new Set<Promise<void>>()
  let stopped = false
  let again = false
  let idleWaiters: (() => void)[] = []
  const stopping = new AbortController()

  const finish = (job: ContentJobRow, outcome: JobOutcome) =>
    finishJob(
      db,
      job.id,
      'error' in outcome
        ? { status: 'failed', error: outcome.error }
        : { status: 'done', resultKey: 'resultKey' in outcome ? outcome.resultKey : null },
    )

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
    await requeueJob(db, job.id, Math.max(0, job.attempts - 1))
  }

  // Each lane takes the oldest queued job (claimJob skips rows another lane or server holds) until
  // none is left; `again` makes a lane about to stop look once more when a job came in meanwhile.
  const lane = async () => {
    for (;;) {
      if (stopped) return
      const job = await claimJob(db)
      if (!job) {
        if (!again) return
        again = false
        continue
      }
      await runOne(job)
    }
  }

  const kick = () => {
    if (stopped) return
    again = true
    while (lanes.size < LANES) {
      const running: Promise<void> = lane()
        .catch((error: unknown) => log.error('content job queue failed', { error }))
        .finally(() => {
          lanes.delete(running)
          if (lanes.size > 0) return
          const waiters = idleWaiters
          idleWaiters = []
          for (const resolve of waiters) resolve()
        })
      lanes.add(running)
    }
  }

  // A job that was running when the server stopped is run again (each start counts as an attempt).
  const resumed = requeueRunningJobs(db)
    .then(() => kick())
    .catch((error: unknown) => log.error('content jobs could not be resumed', { error }))
  const timer = setInterval(kick, POLL_MS)
  timer.unref()

  return {
    async enqueue(kind, payload) {
      const job = await insertJob(db, kind, payload)
      kick()
      return job
    },
    byPublicToken: (token) => jobByPublicToken(db, token),
    async idle() {
      await resumed
      if (lanes.size === 0) return
      await new Promise<void>((resolve) => idleWaiters.push(resolve))
    },
    async stop() {
      stopped = true
      stopping.abort()
      clearInterval(timer)
      await resumed
      await Promise.all(lanes)
    },
  }
}
