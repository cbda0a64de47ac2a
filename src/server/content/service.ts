// The content service of api-v1 ("Content" section, all but feature flags): templates, uploads,
// generation (sync and async), the async job's status and result link, content entries by key, the
// stored files and the template previews. Everything it runs on (storage, renderer, nudity model,
// ffmpeg) is built by the composition root (src/server/compose.ts) from the settings; tests may hand
// in their own processors, generators, job handlers or moderator.
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { ERROR_CODES } from '../../contract/error-codes.ts'
import {
  type ContentEntry,
  type ContentType,
  content as contentApi,
  type DaemonResult,
  type DaemonStatus,
  type GenerateRequest,
  GenerateRequestSchema,
  type GenerateResponse,
  type GeneratorsQuery,
  parseWithErrors,
  pathOf,
  type Template,
  UPLOAD_TEMPLATE_FIELD,
  type Upload,
} from '../../contract/index.ts'
import type { ImageModerator } from '../moderation/index.ts'
import type { Database } from '../platform/db/client.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { VideoError, type VideoTools } from '../video/index.ts'
import { type ContentError, contentMessage } from './errors.ts'
import {
  type ContentGenerator,
  type ContentModerator,
  type GenerateOutcome,
  type GenerationContext,
  generatePhoto,
  planGeneration,
} from './generate.ts'
import { imageProcessor } from './image.ts'
import { type ContentJobs, createContentJobs, type JobHandler } from './jobs.ts'
import { createContentModerator } from './moderate.ts'
import { templatePreview, templatePreviewVideo } from './previews.ts'
import { isStorageFull, storageFull, UploadError, type UploadProcessor } from './processors.ts'
import { receiveUpload } from './receive.ts'
import type { PngRenderer } from './render.ts'
import {
  flagUpload,
  generatedByKey,
  insertUpload,
  longestVideoSeconds,
  markUploadFailed,
  markUploadReady,
  type TemplateRow,
  templateById,
  templatesFor,
  type UploadRow,
  uploadById,
} from './repo.ts'
import {
  type ByteRange,
  type ContentStorage,
  isStoredName,
  newId,
  stillOf,
  storedType,
} from './storage.ts'
import { createVideoGenerator, createVideoProcessor, DEFAULT_VIDEO_MAX_SECONDS } from './video.ts'

/** The job kind of an asynchronous POST /generate. */
export const GENERATE_JOB = 'generate'
/** The job kind that processes a background upload (videos). */
export const PROCESS_UPLOAD_JOB = 'process-upload'
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

/** A stored file to send: its type, its size, and its bytes (or one range of them). */
export type FileToSend = {
  type: string
  size: number
  open(range: ByteRange | null): Promise<Readable>
}

export type Preview =
  | { kind: 'png'; templateId: string; png: Buffer }
  | { kind: 'mp4'; templateId: string; path: string; size: number }

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
  // A raw upload is deleted once checked; one left by a crash is swept a day later (a queued background
  // upload job may still need its file until then).
  storage
    .sweepTemp(TEMP_MAX_AGE_MS)
    .then((removed) => removed > 0 && log.info('stale raw uploads removed', { removed }))
    .catch((error: unknown) => log.warn('raw upload sweep failed', { error }))

  const frameCount = deps.videoFrames
  const moderate =
    deps.moderate ?? (imageModerator ? createContentModerator(imageModerator) : undefined)
  const defaultVideoProcessors: UploadProcessor[] = video
    ? [
        createVideoProcessor({
          tools: video,
          frameCount,
          // The clip is checked again once composited (what plays); the upload's own verdict is kept
          // on its row (spec §5: a flag refuses nothing) and shown as `flagged` by GET /uploads/{id}.
          onFrames: async (uploadId, frames) => {
            if (!imageModerator) return
            const verdict = await imageModerator.moderateVideoFrames(frames)
            if (!verdict.flagged) return
            log.info('uploaded video flagged', { uploadId, reasons: verdict.reasons })
            await flagUpload(db, uploadId, verdict.reasons)
          },
        }),
      ]
    : []
  const processors: UploadProcessor[] = [
    imageProcessor,
    ...(deps.processors ?? defaultVideoProcessors),
  ]
  const generators: Partial<Record<ContentType, ContentGenerator>> = {
    photo: generatePhoto,
    ...(deps.generators ??
      (video ? { video: createVideoGenerator({ tools: video, frameCount }) } : {})),
  }
  const fileUrl = (name: string) => `${origin}${pathOf(contentApi.file, { name })}`
  const uploadBody = (row: UploadRow): Upload => ({
    id: row.id,
    kind: row.kind,
    status: row.status,
    url: row.status === 'ready' && row.fileName ? fileUrl(row.fileName) : null,
    error: row.error,
    flagged: row.flagged,
  })
  const context: GenerationContext = {
    db,
    storage,
    log,
    fileUrl,
    render,
    ...(moderate ? { moderate } : {}),
  }

  const runGeneration = async (
    body: unknown,
    signal?: AbortSignal,
    mode: 'sync' | 'job' = 'job',
  ): Promise<GenerateOutcome> => {
    const parsed = parseWithErrors(GenerateRequestSchema, body)
    if (!parsed.success) {
      return {
        kind: 'invalid',
        errors: parsed.errors.map((message) => ({ code: 'invalid_input', message })),
      }
    }
    const plan = await planGeneration(db, parsed.output.contentGenerationRequest)
    if (!plan.ok) return { kind: 'invalid', errors: plan.errors }
    const generate = generators[plan.plan.contentType]
    if (!generate) {
      return {
        kind: 'invalid',
        errors: [{ code: 'content_type_unavailable', contentType: plan.plan.contentType }],
      }
    }
    // A clip takes seconds of ffmpeg: never inside a request (spec §4 asynchronous generation).
    if (mode === 'sync' && plan.plan.contentType === 'video' && !deps.generators?.video) {
      return { kind: 'invalid', errors: [{ code: 'video_needs_async' }] }
    }
    return generate(plan.plan, signal ? { ...context, signal } : context)
  }

  const jobs: ContentJobs = createContentJobs(
    db,
    {
      // The payload is the request body as accepted: it is checked again, since the catalogue or the
      // upload may have changed between the request and the job.
      [GENERATE_JOB]: async (payload, _job, signal) => {
        const outcome = await runGeneration(
          { contentGenerationRequest: payload.request, async: false },
          signal,
        )
        if (outcome.kind === 'done') return { resultKey: outcome.content.key }
        return {
          error:
            outcome.kind === 'failed'
              ? outcome.error
              : outcome.errors.map(contentMessage).join(' '),
        }
      },
      [PROCESS_UPLOAD_JOB]: async (payload, _job, signal) => {
        const uploadId = String(payload.uploadId)
        const processor = processors.find((candidate) => candidate.kind === payload.kind)
        // With a bucket the raw file waits there (any instance can run the job), and is
        // fetched to this instance's work folder; else it is on this disk.
        const storedRaw = typeof payload.storedRaw === 'string' ? payload.storedRaw : null
        const fetched = storedRaw ? await storage.localFile(storedRaw) : null
        const tempPath = fetched ? fetched.path : String(payload.tempPath)
        const dropRaw = async () => {
          await storage.remove(tempPath).catch(() => undefined)
          if (storedRaw) await storage.remove(storedRaw).catch(() => undefined)
        }
        try {
          if (!processor) {
            throw new UploadError(
              'upload_unsupported',
              'This kind of upload cannot be processed here.',
            )
          }
          const file = await processor.process({
            inputPath: tempPath,
            format: String(payload.format),
            storage,
            uploadId,
            signal,
            ...(typeof payload.maxLengthSeconds === 'number'
              ? { maxLengthSeconds: payload.maxLengthSeconds }
              : {}),
          })
          await markUploadReady(db, uploadId, file)
        } catch (error) {
          // Stopped by a shutdown: the raw file stays for the next start, which runs the job again.
          if (signal.aborted) {
            if (fetched) await fetched.release().catch(() => undefined)
            throw error
          }
          const message =
            error instanceof UploadError || error instanceof VideoError
              ? error.message
              : 'The file could not be processed.'
          await markUploadFailed(db, uploadId, message)
          await dropRaw()
          // A refused file is an answer for the shopper (GET /uploads/{id}); anything else is a bug.
          if (error instanceof UploadError || error instanceof VideoError) return { error: message }
          throw error
        }
        await dropRaw()
        return { done: true }
      },
      ...deps.jobHandlers,
    },
    log,
    { lease: deps.lease, takeOverAtStart: db.kind === 'pglite' },
  )

  // spec §5 "videos over the limit are trimmed": to the named template's videoMaxLengthSeconds; without
  // one, to the longest any video template allows (the composite is trimmed again to its template's).
  const uploadMaxLength = async (generatorId: string | undefined): Promise<number> => {
    if (generatorId !== undefined) {
      const template = await templateById(db, generatorId.trim())
      if (!template) {
        throw new UploadError(
          'upload_template_unknown',
          `${UPLOAD_TEMPLATE_FIELD}: unknown template "${generatorId}"`,
        )
      }
      if (template.videoMaxLengthSeconds) return template.videoMaxLengthSeconds
    }
    return (await longestVideoSeconds(db)) ?? DEFAULT_VIDEO_MAX_SECONDS
  }

  const uploadRefusal = (error: unknown): Result<never, ContentError> => {
    const refusal = isStorageFull(error) ? storageFull() : error
    if (refusal instanceof UploadError) {
      // An operator must hear of a full disk at once; the shopper gets a 507.
      if (refusal.code === 'storage_full') log.error('content storage is full', { error })
      return err({ code: refusal.code, message: refusal.message })
    }
    throw error
  }

  const previewFolder = join(deps.dataDir, 'content', 'previews')

  return {
    jobs,
    storage,

    // spec §7 call 1: templates for the event's types, the active device's size and the modes.
    async generators(query: GeneratorsQuery): Promise<Template[]> {
      const rows = await templatesFor(db, query, query.modes)
      return rows
        .filter((row) => row.types.some((type) => query.types.includes(type)))
        .map(templateBody)
    },

    /**
     * An upload, streamed from the request body (receive.ts): a photo is processed before the answer;
     * a video is checked, answered `processing`, and processed by a job.
     */
    async upload(request: Request): Promise<Result<Upload, ContentError>> {
      let received: Awaited<ReturnType<typeof receiveUpload>>
      try {
        received = await receiveUpload(request, processors, storage)
      } catch (error) {
        return uploadRefusal(error)
      }
      const { processor, format, tempPath } = received
      const id = newId()
      if (processor.timing === 'background') {
        let maxLengthSeconds: number
        try {
          await processor.check?.({ inputPath: tempPath, format })
          maxLengthSeconds = await uploadMaxLength(received.fields[UPLOAD_TEMPLATE_FIELD])
        } catch (error) {
          await storage.remove(tempPath).catch(() => undefined)
          return uploadRefusal(error)
        }
        // With a bucket, the raw file goes there before the job is queued, so whichever
        // instance claims the job (this one dying meanwhile) can process it. (Named like a stored
        // video: random, never handed out, removed once processed.)
        let raw: { tempPath: string } | { storedRaw: string } = { tempPath }
        if (storage.kind === 's3') {
          const storedRaw = storage.newName('mp4')
          try {
            await storage.adopt(tempPath, storedRaw)
          } catch (error) {
            await storage.remove(tempPath).catch(() => undefined)
            throw error
          }
          raw = { storedRaw }
        }
        const row = await insertUpload(db, { id, kind: processor.kind, format, file: null })
        await jobs.enqueue(PROCESS_UPLOAD_JOB, {
          uploadId: id,
          kind: processor.kind,
          format,
          ...raw,
          maxLengthSeconds,
        })
        log.info('upload accepted for processing', {
          uploadId: id,
          kind: processor.kind,
          format,
          bytes: received.sizeBytes,
          maxLengthSeconds,
        })
        return ok(uploadBody(row))
      }
      try {
        const file = await processor.process({ inputPath: tempPath, format, storage })
        const row = await insertUpload(db, { id, kind: processor.kind, format, file })
        log.info('upload stored', {
          uploadId: id,
          kind: processor.kind,
          format,
          bytes: received.sizeBytes,
        })
        return ok(uploadBody(row))
      } catch (error) {
        return uploadRefusal(error)
      } finally {
        await storage.remove(tempPath).catch(() => undefined)
      }
    },

    async uploadStatus(id: string): Promise<Result<Upload, ContentError>> {
      const row = await uploadById(db, id)
      return row ? ok(uploadBody(row)) : err({ code: 'upload_not_found' })
    },

    async generate(
      request: GenerateRequest,
    ): Promise<{ ok: true; value: GenerateResponse } | { ok: false; errors: ContentError[] }> {
      if (request.async) {
        // Checked now so that a wrong request is told at once, not after polling (spec §4).
        const plan = await planGeneration(db, request.contentGenerationRequest)
        if (!plan.ok) return { ok: false, errors: plan.errors }
        if (!generators[plan.plan.contentType]) {
          return {
            ok: false,
            errors: [{ code: 'content_type_unavailable', contentType: plan.plan.contentType }],
          }
        }
        const job = await jobs.enqueue(GENERATE_JOB, { request: request.contentGenerationRequest })
        return ok({
          success: true,
          generatedContent: null,
          error: null,
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
              error: null,
              asyncPublicToken: null,
            }
          : {
              success: false,
              generatedContent: null,
              error: outcome.error,
              asyncPublicToken: null,
            },
      )
    },

    // spec §7 call 3: the job's status; link appears once it is done (call 4 yields the new key).
    async jobStatus(publicToken: string): Promise<Result<DaemonStatus, ContentError>> {
      const job = await jobs.byPublicToken(publicToken)
      if (!job || job.kind !== GENERATE_JOB) return err({ code: 'job_not_found' })
      return ok({
        error: job.status === 'failed' ? (job.error ?? ERROR_CODES.content_failed) : null,
        completedEpochMS:
          job.status === 'done' && job.completedAt ? job.completedAt.getTime() : null,
        link:
          job.status === 'done'
            ? `${origin}${pathOf(contentApi.daemonResult, { publicToken: job.publicToken })}`
            : null,
      })
    },

    async jobResult(publicToken: string): Promise<Result<DaemonResult, ContentError>> {
      const job = await jobs.byPublicToken(publicToken)
      if (!job || job.kind !== GENERATE_JOB) return err({ code: 'job_not_found' })
      if (job.status === 'failed') return err({ code: 'content_failed', reason: job.error })
      if (job.status !== 'done' || !job.resultKey) return err({ code: 'content_not_ready' })
      return ok({ newKey: job.resultKey })
    },

    /** A stored file: only server-made names (storage.ts). */
    async file(name: string): Promise<Result<FileToSend, ContentError>> {
      const type = storedType(name)
      const file = isStoredName(name) && type ? await storage.open(name) : null
      if (!file || !type) return err({ code: 'file_not_found' })
      return ok({ type, size: file.size, open: (range) => file.stream(range ?? undefined) })
    },

    /**
     * A picture of a template with sample texts and photo (previews.ts), `{templateId}.png`; a video
     * template's example clip is `{templateId}.mp4`.
     */
    async preview(fileName: string): Promise<Result<Preview, ContentError>> {
      const match = /^(.+)\.(png|mp4)$/.exec(fileName)
      const template = match?.[1] ? await templateById(db, match[1]) : null
      if (!template) return err({ code: 'template_not_found' })
      if (match?.[2] === 'mp4') {
        if (!template.types.includes('video')) return err({ code: 'template_no_example_clip' })
        if (!video) return err({ code: 'content_type_unavailable', contentType: 'video' })
        let path: string
        try {
          path = await templatePreviewVideo(template, previewFolder, video, render)
        } catch (error) {
          log.warn('template preview clip failed', { templateId: template.id, error })
          return err({ code: 'template_render_failed' })
        }
        const { size } = await stat(path)
        return ok({ kind: 'mp4', templateId: template.id, path, size })
      }
      try {
        return ok({
          kind: 'png',
          templateId: template.id,
          png: await templatePreview(template, render),
        })
      } catch (error) {
        log.warn('template preview failed', { templateId: template.id, error })
        return err({ code: 'template_render_failed' })
      }
    },

    // spec §7 call 5: the entries of generated content, by the key an order names.
    async entries(key: string): Promise<Result<{ entries: ContentEntry[] }, ContentError>> {
      const row = await generatedByKey(db, key)
      if (!row) return err({ code: 'content_not_found' })
      const entries: ContentEntry[] = [
        {
          url: row.url,
          type: row.type,
          widthPx: row.widthPx,
          heightPx: row.heightPx,
          durationSeconds: row.durationSeconds,
          flagged: row.flagged,
        },
      ]
      // A clip's still (its first frame), stored beside it under the same id (video.ts).
      const still = row.type === 'video' ? stillOf(row.fileName) : null
      if (still && (await storage.open(still))) {
        entries.push({
          url: fileUrl(still),
          type: 'photo',
          widthPx: row.widthPx,
          heightPx: row.heightPx,
          durationSeconds: null,
          flagged: row.flagged,
        })
      }
      return ok({ entries })
    },

    /** Stops the job runner (a job in progress finishes first), then what compose.ts started. */
    close: async () => {
      await jobs.stop()
      await deps.onClose?.()
    },
  }
}
