import {
  type ContentType,
  content as contentApi,
  type DaemonResult,
  type DaemonStatus,
  type GenerateRequest,
  GenerateRequestSchema,
  type GenerateResponse,
  parseWithProblems,
  pathOf,
} from '../../contract/index.ts'
import { type Problem, problem } from '../../contract/problems.ts'
import type { Database } from '../platform/db/client.ts'
import { known } from '../platform/http/errors.ts'
import { err, ok, type Result } from '../platform/result.ts'
import type { ContentError } from './errors.ts'
import {
  type ContentGenerator,
  type GenerateOutcome,
  type GenerationContext,
  type GenerationError,
  planGeneration,
} from './generate.ts'
import { BUSY_RETRY_AFTER_S, type ContentJobs, type JobHandler } from './job-queue.ts'

// Generation (api-v1 POST /content/generate, spec §4): a photo is made within the request; a clip,
// or any request sent with `async: true`, is made by a background job (GENERATE_JOB) whose status
// and result link the shopper polls (spec §7 calls 3 and 4).

/** A generation's answer with its failure as problems (the routes write its `error`). */
export type GenerateData = Omit<GenerateResponse, 'error' | 'problems'> & { problems: Problem[] }
/** A job's status with its failure as problems (the routes write its `error`). */
export type DaemonStatusData = Omit<DaemonStatus, 'error' | 'problems'> & { problems: Problem[] }

/**
 * A failed job's answer to spec §7 call 4: content_failed, which the endpoint declares (422), with
 * the reasons the job kept when it ran (its problems, or content_failed itself when it kept none).
 * Those reasons are data of any code, found after the request that queued the job was answered: the
 * answer lists them as it always did (its `errors`, `codes`, `params`), never as the handler's own
 * refusals (platform/http/errors.ts KeptRefusal).
 */
export type FailedJob = { code: 'content_failed'; problems: Problem[] }

/** Why a job failed: its problems, or content_failed when it kept none. */
const failureOf = (job: { error: Problem[] | null }): Problem[] =>
  job.error && job.error.length > 0 ? job.error : [{ code: 'content_failed' }]

/** The job kind of an asynchronous POST /generate. */
export const GENERATE_JOB = 'generate'

export type GenerationDeps = {
  database: Database
  /** The public origin of the links handed out ('' for relative ones). */
  origin: string
  generators: Partial<Record<ContentType, ContentGenerator>>
  /** Whether the video generator was handed in (tests): then a clip may be made within a request. */
  videoInRequest: boolean
  context: GenerationContext
  jobs: Pick<ContentJobs, 'enqueue' | 'enqueueCapped' | 'byPublicToken'>
  /** CONTENT_JOBS_PER_CLIENT: a client's jobs queued or running at once. */
  jobsPerClient: number
}

/** Who sends a generation: the rate limits' key of its client (platform/http/client.ts). */
export type Requester = { clientKey: string }

/**
 * A background generation refused because the client's earlier ones are unfinished (or its upload
 * is in one): the routes answer 429 with Retry-After, and the app says to wait.
 */
export type GenerationBusy = {
  problem: ContentError<'content_jobs_busy' | 'upload_busy'>
  seconds: number
}

export function createGeneration(deps: GenerationDeps) {
  const { database: db, generators, context, jobs, origin } = deps

  const runGeneration = async (
    request: GenerateRequest,
    signal?: AbortSignal,
    mode: 'sync' | 'job' = 'job',
  ): Promise<GenerateOutcome> => {
    const plan = await planGeneration(db, request.contentGenerationRequest)
    if (!plan.ok) return { kind: 'invalid', errors: plan.errors }
    const generate = generators[plan.plan.contentType]
    if (!generate) {
      return {
        kind: 'invalid',
        errors: [problem('content_type_unavailable', { contentType: plan.plan.contentType })],
      }
    }
    // A clip takes seconds of ffmpeg: never inside a request (spec §4 asynchronous generation).
    if (mode === 'sync' && plan.plan.contentType === 'video' && !deps.videoInRequest) {
      return { kind: 'invalid', errors: [{ code: 'video_needs_async' }] }
    }
    return generate(plan.plan, signal ? { ...context, signal } : context)
  }

  // The payload is the request body as accepted: it is checked again, since the catalogue or the
  // upload may have changed between the request and the job. What the job finds is kept as data.
  const generateJob: JobHandler = async (payload, _job, signal) => {
    const parsed = parseWithProblems(GenerateRequestSchema, {
      contentGenerationRequest: payload.request,
      async: false,
    })
    if (!parsed.success) return { problems: parsed.problems.map(known) }
    const outcome = await runGeneration(parsed.output, signal)
    if (outcome.kind === 'done') return { resultKey: outcome.content.key }
    return { problems: outcome.kind === 'failed' ? [outcome.problem] : outcome.errors }
  }

  async function generate(
    request: GenerateRequest,
    requester: Requester = { clientKey: 'shop' },
  ): Promise<
    | { ok: true; value: GenerateData }
    | { ok: false; errors: GenerationError[] }
    | { ok: false; busy: GenerationBusy }
  > {
    if (request.async) {
      // Checked now so that a wrong request is told at once, not after polling (spec §4).
      const plan = await planGeneration(db, request.contentGenerationRequest)
      if (!plan.ok) return { ok: false, errors: plan.errors }
      if (!generators[plan.plan.contentType]) {
        return {
          ok: false,
          errors: [problem('content_type_unavailable', { contentType: plan.plan.contentType })],
        }
      }
      // Each job is seconds of a lane: a client has a few at a time (counted in the shared
      // database, across instances), and one upload is in one generation at a time.
      const job = await jobs.enqueueCapped(
        GENERATE_JOB,
        { request: request.contentGenerationRequest },
        { clientKey: requester.clientKey, uploadId: request.contentGenerationRequest.uploadId },
        deps.jobsPerClient,
      )
      if ('refused' in job) {
        return {
          ok: false,
          busy: {
            problem: problem(job.refused === 'client_busy' ? 'content_jobs_busy' : 'upload_busy', {
              seconds: BUSY_RETRY_AFTER_S,
            }),
            seconds: BUSY_RETRY_AFTER_S,
          },
        }
      }
      return ok({
        success: true,
        generatedContent: null,
        problems: [],
        asyncPublicToken: job.publicToken,
      })
    }
    const outcome = await runGeneration(request, undefined, 'sync')
    if (outcome.kind === 'invalid') return { ok: false, errors: outcome.errors }
    // spec §4: a request that was right but could not be made answers success false, not an error.
    return ok(
      outcome.kind === 'done'
        ? {
            success: true,
            generatedContent: outcome.content,
            problems: [],
            asyncPublicToken: null,
          }
        : {
            success: false,
            generatedContent: null,
            problems: [outcome.problem],
            asyncPublicToken: null,
          },
    )
  }

  // spec §7 call 3: the job's status; link appears once it is done (call 4 yields the new key).
  async function jobStatus(
    publicToken: string,
  ): Promise<Result<DaemonStatusData, ContentError<'job_not_found'>>> {
    const job = await jobs.byPublicToken(publicToken)
    if (!job || job.kind !== GENERATE_JOB) return err({ code: 'job_not_found' })
    return ok({
      problems: job.status === 'failed' ? failureOf(job) : [],
      completedEpochMS: job.status === 'done' && job.completedAt ? job.completedAt.getTime() : null,
      link:
        job.status === 'done'
          ? `${origin}${pathOf(contentApi.daemonResult, { publicToken: job.publicToken })}`
          : null,
    })
  }

  /**
   * spec §7 call 4: the new key, or why not. A failed job answers its own problems (422: the
   * content could not be made, for the reasons it says).
   */
  async function jobResult(
    publicToken: string,
  ): Promise<
    Result<DaemonResult, ContentError<'job_not_found' | 'content_not_ready'> | FailedJob>
  > {
    const job = await jobs.byPublicToken(publicToken)
    if (!job || job.kind !== GENERATE_JOB) return err({ code: 'job_not_found' })
    if (job.status === 'failed') return err({ code: 'content_failed', problems: failureOf(job) })
    if (job.status !== 'done' || !job.resultKey) return err({ code: 'content_not_ready' })
    return ok({ newKey: job.resultKey })
  }

  return { generate, jobStatus, jobResult, jobs: { [GENERATE_JOB]: generateJob } }
}
