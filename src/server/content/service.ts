// The content service of api-v1 ("Content" section, all but feature flags): templates, uploads
// (uploads.ts), generation sync and async with the async job's status and result link
// (generation.ts), content entries by key, the stored files and the template previews (files.ts).
// Everything it runs on (storage, renderer, nudity model, ffmpeg) is built by the composition root
// (src/server/compose.ts) from the settings; tests may hand in their own processors, generators, job
// handlers or moderator.
import {
  type ContentType,
  content as contentApi,
  type GeneratorsQuery,
  pathOf,
  type Template,
} from '../../contract/index.ts'
import type { ImageModerator } from '../moderation/index.ts'
import type { Database } from '../platform/db/client.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import type { VideoTools } from '../video/index.ts'
import { createContentFiles } from './files.ts'
import { createFitting } from './fit.ts'
import {
  type ContentGenerator,
  type ContentModerator,
  type GenerationContext,
  generatePhoto,
} from './generate.ts'
import { createGeneration } from './generation.ts'
import { type ContentJobs, createContentJobs, type JobHandler } from './job-queue.ts'
import { createContentLifetime } from './lifetime.ts'
import { createContentModerator } from './moderate.ts'
import type { UploadProcessor } from './processors.ts'
import type { PngRenderer } from './render.ts'
import { type TemplateRow, templatesFor } from './repo.ts'
import type { ContentStorage } from './storage.ts'
import { createUploads, type UploadsDeps } from './uploads.ts'
import { createVideoGenerator } from './video.ts'

export type { FileToSend, Preview } from './files.ts'
export { FIT_GENERATOR, type FitScreen, type FittedContent } from './fit.ts'
export { GENERATE_JOB } from './generation.ts'
export { PROCESS_UPLOAD_JOB } from './uploads.ts'

const TEMP_MAX_AGE_MS = 24 * 60 * 60 * 1000

export type ContentDeps = {
  database: Database
  log: Logger
  /** Where files go: DATA_DIR/content/files, or the S3 bucket (compose.ts chooses). */
  storage: ContentStorage
  /** DATA_DIR: template preview clips are kept in DATA_DIR/content/previews. */
  dataDir: string
  /** PUBLIC_BASE_URL: when set, URLs handed out are absolute. */
  publicBaseUrl: string | undefined
  /** Draws a template (render.ts): in the content worker, or in this process. */
  render: PngRenderer
  /** The nudity model (moderation/image.ts), in the content worker or here; null: none. */
  imageModerator: ImageModerator | null
  /** ffmpeg and ffprobe; null when this server has none (photo shouts only). */
  video: VideoTools | null
  /** Frames of a video judged by the nudity model (MODERATION_VIDEO_FRAMES). */
  videoFrames: number
  /** This instance's id and the length of its leases on jobs. */
  lease: LeaseSettings
  /** UNORDERED_CONTENT_TTL_HOURS in milliseconds: content no order names is deleted after it. */
  unorderedTtlMs: number
  /** CONTENT_JOBS_PER_CLIENT: a client's content jobs queued or running at once. */
  jobsPerClient: number
  /** A client's uploaded bytes counted against its hourly quota (uploads.ts); none: not counted. */
  uploadQuota?: UploadsDeps['quota']
  /** Called when the service closes, after its jobs (compose.ts stops the content worker here). */
  onClose?: () => Promise<void>
  /** Upload processors besides photos; default: videos through ffmpeg when there is one. */
  processors?: UploadProcessor[]
  /** Content generators by type besides photos; default: 'video' when there is ffmpeg. */
  generators?: Partial<Record<ContentType, ContentGenerator>>
  /** Extra background job kinds. */
  jobHandlers?: Record<string, JobHandler>
  /**
   * spec §5 moderation of generated content. Default: texts by moderateText, photos and video frames
   * by the nudity model.
   */
  moderate?: ContentModerator
}

export type ContentService = ReturnType<typeof createContentService>

// The template's html stays on the server: the list shows names, sizes and previews.
function templateBody({ html: _html, ...template }: TemplateRow): Template {
  return template
}

export function createContentService(deps: ContentDeps) {
  const db = deps.database
  const origin = (deps.publicBaseUrl ?? '').replace(/\/$/, '')
  const log = deps.log.child({ component: 'content' })
  const { storage, render, imageModerator, video } = deps
  const moderate =
    deps.moderate ?? (imageModerator ? createContentModerator(imageModerator) : undefined)
  const generators: Partial<Record<ContentType, ContentGenerator>> = {
    photo: generatePhoto,
    ...(deps.generators ??
      (video
        ? { video: createVideoGenerator({ tools: video, frameCount: deps.videoFrames }) }
        : {})),
  }
  const fileUrl = (name: string) => `${origin}${pathOf(contentApi.file, { name })}`
  const context: GenerationContext = {
    db,
    storage,
    log,
    fileUrl,
    render,
    ...(moderate ? { moderate } : {}),
  }

  // The parts queue jobs on the queue that runs their handlers: made once the handlers are known.
  let queue: ContentJobs | null = null
  const jobs: Pick<ContentJobs, 'enqueue' | 'enqueueCapped' | 'byPublicToken'> = {
    enqueue: (kind, payload, owner) => (queue as ContentJobs).enqueue(kind, payload, owner),
    enqueueCapped: (...args) => (queue as ContentJobs).enqueueCapped(...args),
    byPublicToken: (token) => (queue as ContentJobs).byPublicToken(token),
  }
  const uploads = createUploads({
    database: db,
    log,
    storage,
    fileUrl,
    imageModerator,
    video,
    videoFrames: deps.videoFrames,
    enqueueCapped: jobs.enqueueCapped,
    jobsPerClient: deps.jobsPerClient,
    ...(deps.uploadQuota ? { quota: deps.uploadQuota } : {}),
    ...(deps.processors ? { processors: deps.processors } : {}),
  })
  const generation = createGeneration({
    database: db,
    origin,
    generators,
    videoInRequest: Boolean(deps.generators?.video),
    context,
    jobs,
    jobsPerClient: deps.jobsPerClient,
  })
  const files = createContentFiles({
    database: db,
    log,
    storage,
    dataDir: deps.dataDir,
    fileUrl,
    render,
    video,
  })
  const lifetime = createContentLifetime({
    database: db,
    storage,
    log,
    unorderedTtlMs: deps.unorderedTtlMs,
  })
  const fitting = createFitting({ db, storage, log, fileUrl, moderate, video })
  queue = createContentJobs(db, { ...generation.jobs, ...uploads.jobs, ...deps.jobHandlers }, log, {
    lease: deps.lease,
    takeOverAtStart: db.kind === 'pglite',
  })

  return {
    /** The queue of content jobs (job-queue.ts); the scheduler runs it (jobs.ts). */
    queue,
    storage,

    /**
     * Removes raw uploads older than a day. A raw upload is deleted once checked; one left by a
     * crash waits a day (a queued background upload job may still need its file until then).
     */
    async sweepRawUploads(): Promise<number> {
      const removed = await storage.sweepTemp(TEMP_MAX_AGE_MS)
      if (removed > 0) log.info('stale raw uploads removed', { removed })
      return removed
    },

    /** Deletes the uploads and content no order names once their lifetime ended (lifetime.ts). */
    sweepUnordered: lifetime.sweepUnordered,
    /** Deletes an order's content and its upload once the order's data is forgotten (lifetime.ts). */
    forgetOrderContent: lifetime.forgetOrderContent,

    // spec §7 call 1: templates for the event's types, the active device's size and the modes.
    async generators(query: GeneratorsQuery): Promise<Template[]> {
      const rows = await templatesFor(db, query, query.modes)
      return rows
        .filter((row) => row.types.some((type) => query.types.includes(type)))
        .map(templateBody)
    },

    upload: uploads.upload,
    uploadStatus: uploads.uploadStatus,
    generate: generation.generate,
    jobStatus: generation.jobStatus,
    jobResult: generation.jobResult,
    file: files.file,
    preview: files.preview,
    entries: files.entries,
    /** An upload fitted to a billboard's screen (an advertiser's ad: fit.ts). */
    fitToScreen: fitting.fitToScreen,

    /** Stops the job runner (a job in progress finishes first), then what compose.ts started. */
    close: async () => {
      await (queue as ContentJobs).stop()
      await deps.onClose?.()
    },
  }
}
