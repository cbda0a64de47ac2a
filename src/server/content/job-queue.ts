// Background content jobs (api-v1: asyncPublicToken, GET /content/daemon/public/{token}, the result
// link). Jobs are rows in content_jobs, so a job accepted before a crash or restart is run when the
// server starts again ("Jobs persist in the database and survive a restart"). Two jobs run at
// a time per server (LANES): rendering and transcoding use the CPU, and the machine has two cores.
// Several instances share the queue. A claimed job is held under a lease (platform/lease.ts)
// renewed while it runs; another instance takes it over only when the lease ends (its owner died), and
// only the owner writes the outcome, so a job is finished once. A shutdown hands its job back.
// A job added here starts at once; the scheduler's `content-jobs` job (jobs.ts) looks at the queue
// every POLL_MS for the rest: jobs added by another instance, and leases that ended.
import { type Problem, problem } from '../../contract/problems.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import { databaseOutage } from '../platform/db/errors.ts'
import { heartbeat, type LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import {
  type ContentJobRow,
  claimJob,
  deferJob,
  expireJobLeases,
  finishJob,
  insertJob,
  type JobOwner,
  jobByPublicToken,
  lockClientJobs,
  renewJobLease,
  requeueJob,
  unfinishedJobs,
} from './repo.ts'
import { StorageUnavailable } from './storage.ts'

export type { ContentJobRow, JobOwner } from './repo.ts'

/**
 * What a job ends with: the key of the generated content, why it failed (problems, for the shopper),
 * or (for jobs that make no content, such as processing an upload) plain completion.
 */
export type JobOutcome = { resultKey: string } | { problems: Problem[] } | { done: true }

export type JobHandler = (
  payload: Record<string, unknown>,
  job: ContentJobRow,
  /**
   * Aborted when the server stops (ffmpeg is killed and the job is handed back) or when the job's lease
   * was lost to another instance.
   */
  signal: AbortSignal,
) => Promise<JobOutcome>

/** A job that was started this many times and never finished is given up (a file that crashes us). */
const MAX_ATTEMPTS = 3
/**
 * Outages in a row a job waits through before it is given up (about an hour with the delays of
 * outageDelayMs): long enough for a bucket or a database to be restarted or given room.
 */
const MAX_OUTAGE_RETRIES = 60
/** The wait before the next try after the n-th outage in a row: 1 s, doubling, at most a minute. */
export const outageDelayMs = (retries: number) => Math.min(60_000, 1_000 * 2 ** retries)

const isOutage = (error: unknown) =>
  error instanceof StorageUnavailable || databaseOutage(error) !== null

/**
 * Jobs run at once per server: with one lane, one shopper's long transcode held every
 * other shopper's clip behind it (a normal clip waited 53 s). Two lanes share the two cores; each job is
 * bounded in time (ffmpeg's timeouts) and memory (prlimit, video/ffmpeg.ts), and a video past
 * VIDEO_LIMITS is refused before it is queued.
 */
const LANES = 2
/** How often the queue is looked at besides when a job is added: jobs added by another instance, and
 * leases that ended. */
export const POLL_MS = 2_000

export type JobQueueOptions = {
  lease: LeaseSettings
  /**
   * End every running job's lease at start: only for the embedded database, which one process opens
   * at a time, so a running job there was left by a process that is gone.
   */
  takeOverAtStart: boolean
}

/** When a client told to wait may ask again: a photo is made in a few seconds, a clip in tens. */
export const BUSY_RETRY_AFTER_S = 10

/** Why a client's job was not queued: it has `max` unfinished already, or its upload is in one. */
export type JobRefusal = { refused: 'client_busy' | 'upload_busy' }

export type ContentJobs = {
  enqueue(kind: string, payload: Record<string, unknown>, owner?: JobOwner): Promise<ContentJobRow>
  /**
   * Queues a client's job unless the client has `max` jobs queued or running, or (when it names
   * one) its upload is in an unfinished job already. Counted under the client's lock in the shared
   * database: the cap holds across instances and concurrent requests.
   */
  enqueueCapped(
    kind: string,
    payload: Record<string, unknown>,
    owner: JobOwner & { clientKey: string },
    max: number,
    /** Written in the same transaction before the job (the upload's row its job processes). */
    before?: (tx: Queryable) => Promise<void>,
  ): Promise<ContentJobRow | JobRefusal>
  byPublicToken(token: string): Promise<ContentJobRow | null>
  /**
   * Takes over the jobs a gone process left running: on the embedded database at once (its owner
   * is surely gone), elsewhere once their leases end.
   */
  takeOver(): Promise<void>
  /**
   * Runs the queued jobs until none is left, or until `signal` ends (a shutdown: stop() then stops
   * the jobs and hands them back). The scheduler's `content-jobs`.
   */
  work(signal?: AbortSignal): Promise<void>
  /** Resolves when the queue is empty and nothing runs (tests, shutdown). */
  idle(): Promise<void>
  stop(): Promise<void>
}

export function createContentJobs(
  db: Database,
  handlers: Record<string, JobHandler>,
  log: Logger,
  options: JobQueueOptions,
): ContentJobs {
  const { lease } = options
  const lanes = new Set<Promise<void>>()
  let stopped = false
  let again = false
  let idleWaiters: (() => void)[] = []
  const stopping = new AbortController()

  const finish = async (job: ContentJobRow, outcome: JobOutcome) => {
    const written = await finishJob(
      db,
      job.id,
      lease.owner,
      'problems' in outcome
        ? { status: 'failed', error: outcome.problems }
        : { status: 'done', resultKey: 'resultKey' in outcome ? outcome.resultKey : null },
    )
    if (!written) {
      log.warn('content job taken over by another instance; its outcome here is dropped', {
        jobId: job.id,
        kind: job.kind,
      })
    }
  }

  const runOne = async (job: ContentJobRow) => {
    const handler = handlers[job.kind]
    if (!handler)
      return finish(job, { problems: [problem('content_kind_unknown', { kind: job.kind })] })
    if (job.attempts > MAX_ATTEMPTS) return finish(job, { problems: [{ code: 'content_failed' }] })
    // The job's own signal: the server stops, or the lease was lost (this instance stalled for
    // longer than the lease and another took the job over): either way its ffmpeg is stopped.
    const cut = new AbortController()
    const onStop = () => cut.abort()
    stopping.signal.addEventListener('abort', onStop)
    const stopBeat = heartbeat(
      lease.leaseMs,
      () => renewJobLease(db, job.id, lease),
      () => {
        log.warn('content job lease lost', { jobId: job.id, kind: job.kind })
        cut.abort()
      },
      (error) => log.warn('content job lease not renewed', { jobId: job.id, error }),
    )
    let outcome: JobOutcome
    try {
      outcome = await handler(job.payload, job, cut.signal)
    } catch (error) {
      if (cut.signal.aborted) return await handBack(job)
      if (isOutage(error) && job.outageRetries < MAX_OUTAGE_RETRIES) return await putOff(job, error)
      log.error('content job failed', { jobId: job.id, kind: job.kind, error })
      outcome = { problems: [{ code: 'content_failed' }] }
    } finally {
      stopBeat()
      stopping.signal.removeEventListener('abort', onStop)
    }
    // Cut short (it answered an error because ffmpeg was stopped): handed back, not failed.
    if (cut.signal.aborted && 'problems' in outcome) return handBack(job)
    await finish(job, outcome)
  }

  // A shutdown is not a failed attempt: the job goes back to the queue as it was, at once, for
  // another instance or the next start. (A lost lease is someone else's now: requeueJob skips it.)
  const handBack = async (job: ContentJobRow) => {
    log.info('content job interrupted; handed back to the queue', {
      jobId: job.id,
      kind: job.kind,
    })
    await requeueJob(db, job.id, lease.owner, Math.max(0, job.attempts - 1))
  }

  // An outage of storage or the database is no fault of the job's: it waits in the queue and runs
  // again once the part answers, later after each outage in a row, without spending an attempt.
  const putOff = async (job: ContentJobRow, error: unknown) => {
    const delayMs = outageDelayMs(job.outageRetries)
    log.warn('content job put off: a part it needs is unavailable', {
      jobId: job.id,
      kind: job.kind,
      retryInMs: delayMs,
      error,
    })
    await deferJob(db, job.id, lease.owner, Math.max(0, job.attempts - 1), delayMs)
  }

  // Each lane takes the oldest queued job (claimJob skips rows another lane or server holds) until
  // none is left; `again` makes a lane about to stop look once more when a job came in meanwhile.
  const lane = async () => {
    for (;;) {
      if (stopped) return
      const job = await claimJob(db, lease)
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

  const idle = async () => {
    if (lanes.size === 0) return
    await new Promise<void>((resolve) => idleWaiters.push(resolve))
  }

  return {
    async enqueue(kind, payload, owner) {
      const job = await insertJob(db, kind, payload, owner)
      kick()
      return job
    },
    async enqueueCapped(kind, payload, owner, max, before) {
      const queued = await db.transaction(async (tx): Promise<ContentJobRow | JobRefusal> => {
        await lockClientJobs(tx, owner.clientKey)
        // Two clients may name the same upload: its lock too (always taken second: no deadlock).
        if (owner.uploadId !== null) await lockClientJobs(tx, `upload:${owner.uploadId}`)
        const unfinished = await unfinishedJobs(tx, owner)
        if (unfinished.ofClient >= max) return { refused: 'client_busy' }
        if (owner.uploadId !== null && unfinished.ofUpload > 0) return { refused: 'upload_busy' }
        await before?.(tx)
        return insertJob(tx, kind, payload, owner)
      })
      if (!('refused' in queued)) kick()
      return queued
    },
    byPublicToken: (token) => jobByPublicToken(db, token),
    // A job left running by a crash is run again once its lease ends (each claim counts as an
    // attempt); on the embedded database at once, since its owner is surely gone.
    async takeOver() {
      if (options.takeOverAtStart) await expireJobLeases(db)
    },
    async work(signal) {
      kick()
      if (!signal) return idle()
      if (signal.aborted) return
      // The signal is the scheduler's, shared by every run: the listener goes with the run.
      let onAbort = () => {}
      const aborted = new Promise<void>((resolve) => {
        onAbort = () => resolve()
        signal.addEventListener('abort', onAbort, { once: true })
      })
      try {
        await Promise.race([idle(), aborted])
      } finally {
        signal.removeEventListener('abort', onAbort)
      }
    },
    idle,
    async stop() {
      stopped = true
      stopping.abort()
      await Promise.all(lanes)
    },
  }
}
