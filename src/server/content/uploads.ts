import { UPLOAD_TEMPLATE_FIELD, type Upload } from '../../contract/index.ts'
import { type Problem, problem } from '../../contract/problems.ts'
import { longestVideoSeconds, templateById } from '../catalogue/reads.ts'
import type { ImageModerator } from '../moderation/index.ts'
import type { Database } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import type { Take } from '../platform/rate-limit.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { VideoError, type VideoTools } from '../video/index.ts'
import type { ContentError, UploadRefusal } from './errors.ts'
import { imageProcessor } from './image.ts'
import { BUSY_RETRY_AFTER_S, type ContentJobs, type JobHandler } from './job-queue.ts'
import {
  isStorageFull,
  type ReceivedUpload,
  storageFull,
  UploadError,
  type UploadIntake,
  type UploadProcessor,
  type UploadReceiver,
} from './processors.ts'
import {
  flagUpload,
  insertUpload,
  markUploadFailed,
  markUploadReady,
  type UploadRow,
  uploadById,
} from './repo.ts'
import { type ContentStorage, newId, StorageUnavailable } from './storage.ts'
import { createVideoProcessor, DEFAULT_VIDEO_MAX_SECONDS } from './video.ts'

// Uploads (api-v1 POST /content/uploads, GET /content/uploads/{id}): a photo is processed before the
// answer; a video is checked, answered `processing`, and processed by a background job
// (PROCESS_UPLOAD_JOB). The multipart body is the routes' business: they hand over a receiver
// (receive.ts) that streams the file into this module's temporary folder, sniffed by its processors.

/** An upload as answered, its failure as problems (the routes write its `error`). */
export type UploadData = Omit<Upload, 'error' | 'problems'> & { problems: Problem[] }

/** The job kind that processes a background upload (videos). */
export const PROCESS_UPLOAD_JOB = 'process-upload'

export type UploadsDeps = {
  database: Database
  log: Logger
  storage: ContentStorage
  fileUrl: (name: string) => string
  imageModerator: ImageModerator | null
  video: VideoTools | null
  videoFrames: number
  /** Upload processors besides photos; default: videos through ffmpeg when there is one. */
  processors?: UploadProcessor[]
  /** Queues a client's background job under its cap (job-queue.ts). */
  enqueueCapped: ContentJobs['enqueueCapped']
  /** CONTENT_JOBS_PER_CLIENT: a client's jobs queued or running at once. */
  jobsPerClient: number
  /**
   * Counts a client's uploaded bytes against its hourly quota (UPLOAD_BYTES_PER_CLIENT_HOUR, in the
   * shared limiter): 0 bytes reads the count. Without it, uploads are not counted.
   */
  quota?: (clientKey: string, bytes: number) => Promise<Take & { limit: number }>
}

/** Who sends an upload: the rate limits' key of its client (platform/http/client.ts). */
export type Uploader = { clientKey: string }

export function createUploads(deps: UploadsDeps) {
  const { database: db, log, storage, imageModerator, video } = deps
  const defaultVideoProcessors: UploadProcessor[] = video
    ? [
        createVideoProcessor({
          tools: video,
          frameCount: deps.videoFrames,
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
  const uploadBody = (row: UploadRow): UploadData => ({
    id: row.id,
    kind: row.kind,
    status: row.status,
    url: row.status === 'ready' && row.fileName ? deps.fileUrl(row.fileName) : null,
    problems: row.error ? [row.error] : [],
    flagged: row.flagged,
  })

  const processUploadJob: JobHandler = async (payload, _job, signal) => {
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
    if (!processor) {
      // A kind no processor of this instance takes (its video tools gone since it was queued).
      await markUploadFailed(db, uploadId, { code: 'upload_unsupported' })
      await dropRaw()
      return { problems: [{ code: 'upload_unsupported' }] }
    }
    try {
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
      // Stopped by a shutdown, or storage down for a while: the raw file stays for the job's
      // next run (at the next start, or once storage answers again: job-queue.ts).
      if (signal.aborted || error instanceof StorageUnavailable) {
        if (fetched) await fetched.release().catch(() => undefined)
        throw error
      }
      // What a job finds is data kept on the upload, of any code (a transcode's), not a refusal.
      const refused: Problem | null =
        error instanceof UploadError || error instanceof VideoError ? error.problem : null
      await markUploadFailed(db, uploadId, refused ?? { code: 'upload_processing_failed' })
      await dropRaw()
      // A refused file is an answer for the shopper (GET /uploads/{id}); anything else is a bug.
      if (refused) return { problems: [refused] }
      throw error
    }
    await dropRaw()
    return { done: true }
  }

  // spec §5 "videos over the limit are trimmed": to the named template's videoMaxLengthSeconds; without
  // one, to the longest any video template allows (the composite is trimmed again to its template's).
  const uploadMaxLength = async (generatorId: string | undefined): Promise<number> => {
    if (generatorId !== undefined) {
      const template = await templateById(db, generatorId.trim())
      if (!template) {
        throw new UploadError(problem('upload_template_unknown', { generatorId }))
      }
      if (template.videoMaxLengthSeconds) return template.videoMaxLengthSeconds
    }
    return (await longestVideoSeconds(db)) ?? DEFAULT_VIDEO_MAX_SECONDS
  }

  const uploadRefusal = (error: unknown): Result<never, UploadRefusal> => {
    const refusal = isStorageFull(error) ? storageFull() : error
    if (refusal instanceof UploadError) {
      // An operator must hear of a full disk at once; the shopper gets a 507.
      if (refusal.code === 'storage_full') log.error('content storage is full', { error })
      return err(refusal.problem)
    }
    throw error
  }

  const intake: UploadIntake = { processors, storage }

  /**
   * An upload, streamed by the receiver: a photo is processed before the answer; a video is
   * checked, answered `processing`, and processed by a job.
   */
  async function upload(
    receive: UploadReceiver,
    uploader: Uploader = { clientKey: 'shop' },
  ): Promise<Result<UploadData, UploadRefusal>> {
    // A client past its quota is refused before its body is read; the bytes of the upload that
    // crosses it are counted once it is received (its size is known only then), and it is dropped.
    const quota = deps.quota
    if (quota) {
      const used = await quota(uploader.clientKey, 0)
      if (used.hits >= used.limit)
        return err(problem('upload_quota', { seconds: used.retryAfterS }))
    }
    let received: ReceivedUpload
    try {
      received = await receive(intake)
    } catch (error) {
      return uploadRefusal(error)
    }
    const { processor, format, tempPath } = received
    if (quota) {
      const taken = await quota(uploader.clientKey, received.sizeBytes)
      if (!taken.allowed) {
        await storage.remove(tempPath).catch(() => undefined)
        log.info('upload over its client quota', { bytes: received.sizeBytes })
        return err(problem('upload_quota', { seconds: taken.retryAfterS }))
      }
    }
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
      // The upload's row and its job in one transaction, under the client's cap on jobs: a client
      // with its share of jobs unfinished is told to wait, and nothing of the upload is kept.
      const made: { row?: UploadRow } = {}
      const job = await deps.enqueueCapped(
        PROCESS_UPLOAD_JOB,
        { uploadId: id, kind: processor.kind, format, ...raw, maxLengthSeconds },
        { clientKey: uploader.clientKey, uploadId: null },
        deps.jobsPerClient,
        async (tx) => {
          made.row = await insertUpload(tx, { id, kind: processor.kind, format, file: null })
        },
      )
      const row = made.row
      if ('refused' in job || !row) {
        await storage.remove('storedRaw' in raw ? raw.storedRaw : raw.tempPath).catch(() => {})
        return err(problem('content_jobs_busy', { seconds: BUSY_RETRY_AFTER_S }))
      }
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
  }

  async function uploadStatus(
    id: string,
  ): Promise<Result<UploadData, ContentError<'upload_not_found'>>> {
    const row = await uploadById(db, id)
    return row ? ok(uploadBody(row)) : err({ code: 'upload_not_found' })
  }

  return { upload, uploadStatus, jobs: { [PROCESS_UPLOAD_JOB]: processUploadJob } }
}
