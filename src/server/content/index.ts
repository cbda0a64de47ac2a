// The content service of api-v1 ("Content" section, all but feature flags): template list, uploads,
// generation (sync and async), the async job's status and result link, content entries by key, and the
// stored files themselves. Core mounts it at /api/v1/content:
//
//   app.route('/api/v1/content', contentRoutes({ db, dataDir, log }))
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { and, eq, inArray, max } from 'drizzle-orm'
import type { Context } from 'hono'
import {
  type ContentEntry,
  type ContentType,
  content as contentApi,
  GenerateRequestSchema,
  type GenerateResponse,
  parseWithErrors,
  pathOf,
  type Template,
  UPLOAD_TEMPLATE_FIELD,
  type Upload,
} from '../../contract/index.ts'
import { contentUploads, generatedContent } from '../db/schema/content.ts'
import { templates } from '../db/schema/core.ts'
import { createImageModerator, imageModerationConfigFromEnv } from '../moderation/index.ts'
import type { Db } from '../platform/db/client.ts'
import { errorResponse } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { Logger } from '../platform/log.ts'
import { locateFfmpeg, VideoError } from '../video/index.ts'
import { contentWorkerConfigFromEnv, createContentWorker } from './content-worker.ts'
import {
  type ContentGenerator,
  type ContentModerator,
  type GenerateOutcome,
  type GenerationContext,
  generatePhoto,
  planGeneration,
  type UploadRow,
} from './generate.ts'
import { imageProcessor } from './image.ts'
import { type ContentJobs, createContentJobs, type JobHandler } from './jobs.ts'
import { createContentModerator } from './moderate.ts'
import { templatePreview, templatePreviewVideo } from './previews.ts'
import { UploadError, type UploadProcessor } from './processors.ts'
import { receiveUpload } from './receive.ts'
import { type PngRenderer, renderTemplatePng } from './render.ts'
import { createS3Storage, s3ConfigFromEnv } from './s3-storage.ts'
import {
  type ByteRange,
  type ContentStorage,
  createContentStorage,
  isStoredName,
  newId,
  storedType,
} from './storage.ts'
import {
  createVideoGenerator,
  createVideoProcessor,
  DEFAULT_VIDEO_MAX_SECONDS,
  stillOf,
} from './video.ts'

export type {
  ContentGenerator,
  ContentModerator,
  GenerateOutcome,
  GenerationContext,
  GenerationPlan,
  ModerationVerdict,
} from './generate.ts'
export { saveGeneratedContent, templateContentType } from './generate.ts'
export type { JobHandler, JobOutcome } from './jobs.ts'
export type { ProcessContext, ProcessedFile, UploadProcessor } from './processors.ts'
export { UploadError } from './processors.ts'
export { S3EnvSchema, s3ConfigFromEnv } from './s3-storage.ts'
export type { ContentStorage } from './storage.ts'
export { PLACEHOLDERS, parseTemplateHtml } from './template-html.ts'
export { DEFAULT_VIDEO_MAX_SECONDS, VIDEO_MAX_BYTES, WAV_REFUSED } from './video.ts'

/** The job kind of an asynchronous POST /generate. */
export const GENERATE_JOB = 'generate'
/** The job kind that processes a background upload (issue 5: videos). */
export const PROCESS_UPLOAD_JOB = 'process-upload'
const TEMP_MAX_AGE_MS = 24 * 60 * 60 * 1000
const NOT_AVAILABLE = (type: ContentType) =>
  `${type === 'video' ? 'Video' : 'Photo'} templates are not available on this server.`
/** A clip takes seconds to make: it is made as a job (spec §4 asynchronous content generation). */
const VIDEO_IS_ASYNC = 'Video shouts are made in the background: send the request with async true.'

export type ContentDeps = {
  db: Db
  /** DATA_DIR: files go to DATA_DIR/content. */
  dataDir: string
  log: Logger
  /** PUBLIC_BASE_URL: when set, URLs handed out are absolute. */
  publicBaseUrl?: string | undefined
  /** Upload processors besides photos (issue 5: video), tried in order after the image sniffer. */
  processors?: UploadProcessor[]
  /** Content generators by type besides photos (issue 5: 'video'). */
  generators?: Partial<Record<ContentType, ContentGenerator>>
  /** Extra background job kinds. */
  jobHandlers?: Record<string, JobHandler>
  /**
   * spec §5 moderation of generated content. Default: texts by moderateText, photos and video frames by
   * the nsfwjs model, configured from the MODERATION_* variables.
   */
  moderate?: ContentModerator
  /**
   * The environment the defaults are configured from (MODERATION_*, FFMPEG_PATH/FFPROBE_PATH, S3_*);
   * default process.env. A bad value stops the start with a message.
   */
  env?: Record<string, string | undefined>
  /** Where files go; default from the environment: the S3 bucket when S3_BUCKET is set, else DATA_DIR. */
  storage?: ContentStorage
}

export type ContentService = {
  /** Registers the routes of api-v1 Content. */
  register(router: ApiRouter): void
  jobs: ContentJobs
  storage: ContentStorage
  /** The content worker's pid while it runs (null when idle or inline): for benchmarks. */
  contentWorkerPid(): number | null
  /** Stops the job runner (a job in progress finishes first), then the content worker. */
  close(): Promise<void>
}

function errors(c: Context, status: 400 | 404 | 409 | 413 | 415 | 422, ...messages: string[]) {
  return errorResponse(c, status, messages)
}

function uploadBody(row: UploadRow, fileUrl: (name: string) => string): Upload {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    url: row.status === 'ready' && row.fileName ? fileUrl(row.fileName) : null,
    error: row.error,
    flagged: row.flagged,
  }
}

function templateBody(row: typeof templates.$inferSelect): Template {
  return {
    id: row.id,
    name: row.name,
    types: row.types,
    mode: row.mode,
    widthPx: row.widthPx,
    heightPx: row.heightPx,
    previewImageUrl: row.previewImageUrl,
    examplePreviewVideoUrl: row.examplePreviewVideoUrl,
    videoMaxLengthSeconds: row.videoMaxLengthSeconds,
  }
}

/**
 * One `bytes=` range of a Range header (RFC 9110 §14.2): null to send the whole file (no header, or one
 * we do not serve, such as several ranges), 'unsatisfiable' for a range past the end (416).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | null | 'unsatisfiable' {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null
  if (!match) return null
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return null
  if (first === '') {
    // The last N bytes.
    const length = Number(last)
    if (length === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - length), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return 'unsatisfiable'
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (end < start) return null
  return { start, end }
}

/** A whole file (200) or the one range asked for (206, 416), for GET and HEAD. */
async function sendFileRange(
  c: Context,
  headers: Record<string, string>,
  size: number,
  open: (range: ByteRange | null) => Readable | Promise<Readable>,
): Promise<Response> {
  const range = parseRange(c.req.header('range'), size)
  if (range === 'unsatisfiable') {
    return new Response(null, {
      status: 416,
      headers: { ...headers, 'Content-Range': `bytes */${size}` },
    })
  }
  const status = range ? 206 : 200
  const all = { ...headers }
  if (range) all['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`
  all['Content-Length'] = String(range ? range.end - range.start + 1 : size)
  if (c.req.method === 'HEAD') return new Response(null, { status, headers: all })
  // Awaited: storage.open() hands a promise of the stream (an S3 GET), and Readable.toWeb needs the
  // stream itself (a promise here was the "streamReadable … Received an instance of Promise" 500).
  const stream = await open(range)
  const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>
  return new Response(body, { status, headers: all })
}

/** The content service with its job runner; contentRoutes is its routes alone. */
export function createContentService(deps: ContentDeps): ContentService {
  const origin = (deps.publicBaseUrl ?? '').replace(/\/$/, '')
  const log = deps.log.child({ component: 'content' })
  const env = deps.env ?? process.env
  const s3 = deps.storage ? null : s3ConfigFromEnv(env)
  const storage =
    deps.storage ?? (s3 ? createS3Storage(deps.dataDir, s3) : createContentStorage(deps.dataDir))
  if (s3) log.info('content stored in a bucket', { bucket: s3.bucket, endpoint: s3.endpoint })
  // A raw upload is deleted once checked; one left by a crash is swept a day later (a queued background
  // upload job may still need its file until then).
  storage
    .sweepTemp(TEMP_MAX_AGE_MS)
    .then((removed) => removed > 0 && log.info('stale raw uploads removed', { removed }))
    .catch((error: unknown) => log.warn('raw upload sweep failed', { error }))
  // Issue 5 defaults: videos through ffmpeg, moderation by the bundled model. Settings are checked now,
  // so a typo stops the start instead of failing the first upload.
  const needsModel = !deps.moderate || !deps.processors || !deps.generators
  const moderationConfig = needsModel ? imageModerationConfigFromEnv(env) : null
  // Rendering and the nudity model run in the content worker (content-worker.ts) unless told otherwise.
  const workerConfig = contentWorkerConfigFromEnv(env)
  const worker =
    workerConfig.mode === 'process'
      ? createContentWorker({
          settings: { moderation: moderationConfig },
          log,
          idleMs: workerConfig.idleMs,
        })
      : null
  const render: PngRenderer = worker?.render ?? renderTemplatePng
  const imageModerator = worker
    ? worker.imageModerator
    : moderationConfig
      ? createImageModerator(moderationConfig)
      : null
  // The model is not warmed up at start: it is loaded on the first picture to judge (about 1 s once),
  // so a server that only sells slots stays small (issue 3: memory under 400 MB).
  const frameCount = moderationConfig?.videoFrames ?? 6
  let videoAvailable = false
  let ffmpegPath: string | null = null
  try {
    ffmpegPath = locateFfmpeg(env).ffmpeg
  } catch {
    // Reported below when the video defaults need it; without it there are no example clips.
  }
  if (!deps.processors || !deps.generators) {
    try {
      locateFfmpeg(env)
      videoAvailable = true
    } catch (error) {
      // Set but wrong is a configuration error; absent only means this server makes photo shouts.
      if (env.FFMPEG_PATH || env.FFPROBE_PATH) throw error
      log.warn('video shouts unavailable', { reason: (error as Error).message })
    }
  }
  const moderate =
    deps.moderate ?? (imageModerator ? createContentModerator(imageModerator) : undefined)
  const defaultVideoProcessors: UploadProcessor[] = videoAvailable
    ? [
        createVideoProcessor({
          frameCount,
          // The clip is checked again once composited (what plays); the upload's own verdict is kept
          // on its row (spec §5: a flag refuses nothing) and shown as `flagged` by GET /uploads/{id}.
          onFrames: async (uploadId, frames) => {
            if (!imageModerator) return
            const verdict = await imageModerator.moderateVideoFrames(frames)
            if (!verdict.flagged) return
            log.info('uploaded video flagged', { uploadId, reasons: verdict.reasons })
            await deps.db
              .update(contentUploads)
              .set({ flagged: true, flagReasons: verdict.reasons })
              .where(eq(contentUploads.id, uploadId))
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
    ...(deps.generators ?? (videoAvailable ? { video: createVideoGenerator({ frameCount }) } : {})),
  }
  const fileUrl = (name: string) => `${origin}${pathOf(contentApi.file, { name })}`
  const context: GenerationContext = {
    db: deps.db,
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
    if (!parsed.success) return { kind: 'invalid', errors: parsed.errors }
    const plan = await planGeneration(deps.db, parsed.output.contentGenerationRequest)
    if (!plan.ok) return { kind: 'invalid', errors: plan.errors }
    const generate = generators[plan.plan.contentType]
    if (!generate) return { kind: 'invalid', errors: [NOT_AVAILABLE(plan.plan.contentType)] }
    // A clip takes seconds of ffmpeg: never inside a request (spec §4 asynchronous generation).
    if (mode === 'sync' && plan.plan.contentType === 'video' && !deps.generators?.video)
      return { kind: 'invalid', errors: [VIDEO_IS_ASYNC] }
    return generate(plan.plan, signal ? { ...context, signal } : context)
  }

  const jobs = createContentJobs(
    deps.db,
    {
      // The payload is the request body as accepted: it is checked again, since the catalogue or the
      // upload may have changed between the request and the job.
      [GENERATE_JOB]: async (payload, _job, signal) => {
        const outcome = await runGeneration(
          { contentGenerationRequest: payload.request, async: false },
          signal,
        )
        if (outcome.kind === 'done') return { resultKey: outcome.content.key }
        return { error: outcome.kind === 'failed' ? outcome.error : outcome.errors.join(' ') }
      },
      [PROCESS_UPLOAD_JOB]: async (payload, _job, signal) => {
        const uploadId = String(payload.uploadId)
        const processor = processors.find((candidate) => candidate.kind === payload.kind)
        const tempPath = String(payload.tempPath)
        try {
          if (!processor)
            throw new UploadError(415, 'This kind of upload cannot be processed here.')
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
          await deps.db
            .update(contentUploads)
            .set({ status: 'ready', ...file, updatedAt: new Date() })
            .where(eq(contentUploads.id, uploadId))
        } catch (error) {
          // Stopped by a shutdown: the raw file stays for the next start, which runs the job again.
          if (signal.aborted) throw error
          const message =
            error instanceof UploadError || error instanceof VideoError
              ? error.message
              : 'The file could not be processed.'
          await deps.db
            .update(contentUploads)
            .set({ status: 'failed', error: message, updatedAt: new Date() })
            .where(eq(contentUploads.id, uploadId))
          await storage.remove(tempPath).catch(() => undefined)
          // A refused file is an answer for the shopper (GET /uploads/{id}); anything else is a bug.
          if (error instanceof UploadError || error instanceof VideoError) return { error: message }
          throw error
        }
        await storage.remove(tempPath).catch(() => undefined)
        return { done: true }
      },
      ...deps.jobHandlers,
    },
    log,
  )

  // spec §5 "videos over the limit are trimmed": to the named template's videoMaxLengthSeconds; without
  // one, to the longest any video template allows (the composite is trimmed again to its template's).
  const uploadMaxLength = async (generatorId: string | undefined): Promise<number> => {
    if (generatorId !== undefined) {
      const [template] = await deps.db
        .select()
        .from(templates)
        .where(eq(templates.id, generatorId.trim()))
        .limit(1)
      if (!template)
        throw new UploadError(400, `${UPLOAD_TEMPLATE_FIELD}: unknown template "${generatorId}"`)
      if (template.videoMaxLengthSeconds) return template.videoMaxLengthSeconds
    }
    const [row] = await deps.db
      .select({ longest: max(templates.videoMaxLengthSeconds) })
      .from(templates)
    return row?.longest ?? DEFAULT_VIDEO_MAX_SECONDS
  }

  const register = (router: ApiRouter) => {
    // spec §7 call 1: templates for the event's types, the active device's size and the modes.
    router.handle(contentApi.generators, async ({ query }) => {
      const { types, widthPx, heightPx, modes } = query
      const rows = await deps.db
        .select()
        .from(templates)
        .where(
          and(
            eq(templates.widthPx, widthPx),
            eq(templates.heightPx, heightPx),
            inArray(templates.mode, modes),
          ),
        )
        .orderBy(templates.name, templates.id)
      const generators = rows
        .filter((row) => row.types.some((type) => types.includes(type)))
        .map(templateBody)
      return { generators }
    })

    router.handle(contentApi.upload, async ({ c }) => {
      let received: Awaited<ReturnType<typeof receiveUpload>>
      try {
        received = await receiveUpload(c.req.raw, processors, storage)
      } catch (error) {
        if (error instanceof UploadError) return errors(c, error.status, error.message)
        throw error
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
          if (error instanceof UploadError) return errors(c, error.status, error.message)
          throw error
        }
        const [row] = await deps.db
          .insert(contentUploads)
          .values({ id, kind: processor.kind, format, status: 'processing' })
          .returning()
        await jobs.enqueue(PROCESS_UPLOAD_JOB, {
          uploadId: id,
          kind: processor.kind,
          format,
          tempPath,
          maxLengthSeconds,
        })
        log.info('upload accepted for processing', {
          uploadId: id,
          kind: processor.kind,
          format,
          bytes: received.sizeBytes,
          maxLengthSeconds,
        })
        return c.json(uploadBody(row as UploadRow, fileUrl), 201)
      }
      try {
        const file = await processor.process({ inputPath: tempPath, format, storage })
        const [row] = await deps.db
          .insert(contentUploads)
          .values({ id, kind: processor.kind, format, status: 'ready', ...file })
          .returning()
        log.info('upload stored', {
          uploadId: id,
          kind: processor.kind,
          format,
          bytes: received.sizeBytes,
        })
        return c.json(uploadBody(row as UploadRow, fileUrl), 201)
      } catch (error) {
        if (error instanceof UploadError) return errors(c, error.status, error.message)
        throw error
      } finally {
        await storage.remove(tempPath).catch(() => undefined)
      }
    })

    router.handle(contentApi.uploadStatus, async ({ c, params }) => {
      const [row] = await deps.db
        .select()
        .from(contentUploads)
        .where(eq(contentUploads.id, params.id))
        .limit(1)
      if (!row) return errors(c, 404, 'Upload not found')
      return uploadBody(row, fileUrl)
    })

    router.handle(contentApi.generate, async ({ c, body: request }) => {
      if (request.async) {
        // Checked now so that a wrong request is told at once, not after polling (spec §4).
        const plan = await planGeneration(deps.db, request.contentGenerationRequest)
        if (!plan.ok) return errors(c, 400, ...plan.errors)
        if (!generators[plan.plan.contentType])
          return errors(c, 400, NOT_AVAILABLE(plan.plan.contentType))
        const job = await jobs.enqueue(GENERATE_JOB, { request: request.contentGenerationRequest })
        return {
          success: true,
          generatedContent: null,
          error: null,
          asyncPublicToken: job.publicToken,
        } satisfies GenerateResponse
      }
      const outcome = await runGeneration(request, undefined, 'sync')
      if (outcome.kind === 'invalid') return errors(c, 400, ...outcome.errors)
      const response: GenerateResponse =
        outcome.kind === 'done'
          ? {
              success: true,
              generatedContent: outcome.content,
              error: null,
              asyncPublicToken: null,
            }
          : { success: false, generatedContent: null, error: outcome.error, asyncPublicToken: null }
      return response
    })

    // spec §7 call 3: the job's status; link appears once it is done (call 4 yields the new key).
    router.handle(contentApi.daemonStatus, async ({ c, params }) => {
      const job = await jobs.byPublicToken(params.publicToken)
      if (!job || job.kind !== GENERATE_JOB) return errors(c, 404, 'Job not found')
      return {
        error: job.status === 'failed' ? (job.error ?? 'The content could not be made.') : null,
        completedEpochMS:
          job.status === 'done' && job.completedAt ? job.completedAt.getTime() : null,
        link:
          job.status === 'done'
            ? `${origin}${pathOf(contentApi.daemonResult, { publicToken: job.publicToken })}`
            : null,
      }
    })

    router.handle(contentApi.daemonResult, async ({ c, params }) => {
      const job = await jobs.byPublicToken(params.publicToken)
      if (!job || job.kind !== GENERATE_JOB) return errors(c, 404, 'Job not found')
      if (job.status === 'failed')
        return errors(c, 422, job.error ?? 'The content could not be made.')
      if (job.status !== 'done' || !job.resultKey)
        return errors(c, 409, 'The content is not ready yet.')
      return { newKey: job.resultKey }
    })

    const previewFolder = join(deps.dataDir, 'content', 'previews')
    const previewVideo = async (c: Context, template: typeof templates.$inferSelect) => {
      if (!template.types.includes('video'))
        return errors(c, 404, 'This template has no example clip.')
      if (!ffmpegPath) return errors(c, 404, NOT_AVAILABLE('video'))
      let path: string
      try {
        path = await templatePreviewVideo(template, previewFolder, ffmpegPath, render)
      } catch (error) {
        log.warn('template preview clip failed', { templateId: template.id, error })
        return errors(c, 422, 'This template cannot be rendered.')
      }
      const { size } = await stat(path)
      const headers: Record<string, string> = {
        'Content-Type': 'video/mp4',
        'Content-Disposition': `inline; filename="${template.id.replace(/[^\w.-]/g, '_')}.mp4"`,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cache-Control': 'public, max-age=3600',
        'Accept-Ranges': 'bytes',
      }
      return sendFileRange(c, headers, size, (range) =>
        createReadStream(path, range ? { start: range.start, end: range.end } : {}),
      )
    }

    // Stored files: only server-made names, served so that no browser runs them (nosniff, a sandboxing
    // CSP, and a download name that is ours).
    router.handle(contentApi.file, async ({ c, params }) => {
      const { name } = params
      const type = storedType(name)
      const file = isStoredName(name) && type ? await storage.open(name) : null
      if (!file || !type) return errors(c, 404, 'File not found')
      const headers: Record<string, string> = {
        'Content-Type': type,
        'Content-Disposition': `inline; filename="${name}"`,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        // Names are random and files never change: cache for good.
        'Cache-Control': 'public, max-age=31536000, immutable',
        // Video players seek with Range requests (Safari will not play an mp4 without them).
        'Accept-Ranges': 'bytes',
      }
      return sendFileRange(c, headers, file.size, (range) => file.stream(range ?? undefined))
    })

    // A picture of each template with sample texts and photo (previews.ts); a catalogue can use it as
    // previewImageUrl. A video template's example clip is {templateId}.mp4 (examplePreviewVideoUrl).
    router.handle(contentApi.preview, async ({ c, params }) => {
      const match = /^(.+)\.(png|mp4)$/.exec(params.file)
      const [template] = match?.[1]
        ? await deps.db.select().from(templates).where(eq(templates.id, match[1])).limit(1)
        : []
      if (!template) return errors(c, 404, 'Template not found')
      if (match?.[2] === 'mp4') return previewVideo(c, template)
      let png: Buffer
      try {
        png = await templatePreview(template, render)
      } catch (error) {
        log.warn('template preview failed', { templateId: template.id, error })
        return errors(c, 422, 'This template cannot be rendered.')
      }
      return c.body(new Uint8Array(png), 200, {
        'Content-Type': 'image/png',
        'Content-Disposition': `inline; filename="${template.id.replace(/[^\w.-]/g, '_')}.png"`,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        // A re-import may change the template: browsers check again within the hour.
        'Cache-Control': 'public, max-age=3600',
      })
    })

    // spec §7 call 5: the entries of generated content, by the key an order names.
    router.handle(contentApi.entries, async ({ c, params }) => {
      const [row] = await deps.db
        .select()
        .from(generatedContent)
        .where(eq(generatedContent.key, params.opaqueKey))
        .limit(1)
      if (!row) return errors(c, 404, 'Content not found')
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
      // A clip's still preview, stored beside it under the same id (video.ts).
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
      return { entries }
    })
  }

  return {
    register,
    jobs,
    storage,
    contentWorkerPid: () => worker?.pid() ?? null,
    close: async () => {
      await jobs.stop()
      await worker?.close()
    },
  }
}
