// Upload processors: one per kind of upload. The upload route streams the body to a temporary file,
// asks each processor's sniffer about the first bytes, enforces that processor's size limit while the
// bytes arrive, then hands the file over. Photos are processed before the response (they take tens of
// milliseconds); a processor may instead work in the background (videos are transcoded as a
// job and GET /uploads/{id} reports processing until they are ready).
import { UPLOAD_REFUSALS, type UploadRefusalCode } from '../../contract/index.ts'
import { englishOf, type Problem, problem } from '../../contract/problems.ts'
import type { ContentType } from '../../domain/index.ts'
import { issueMessage } from '../../domain/problems.ts'
import type { ContentStorage } from './storage.ts'

export type ProcessedFile = {
  /** The stored file's server-made name (see storage.ts). */
  fileName: string
  mimeType: string
  widthPx: number
  heightPx: number
  durationSeconds: number | null
  sizeBytes: number
}

/**
 * An upload refused while its request runs, for a reason the shopper can act on: the request itself
 * (upload_not_multipart, upload_no_file, upload_empty, upload_template_unknown…), its size
 * (upload_too_large, image_too_large, video_too_large…), its type (upload_wrong_type,
 * image_unreadable, upload_not_only_video, upload_sound_only…). Its codes are the ones the upload
 * endpoints declare (UPLOAD_REFUSALS). A background processor's failure is not one: it throws the
 * error of its own kind (a VideoError), kept on the upload as data (uploads.ts processUploadJob).
 */
export class UploadError extends Error {
  override name = 'UploadError'
  constructor(readonly problem: Problem<UploadRefusalCode>) {
    super(issueMessage(problem.code, problem.params))
  }
  get code(): UploadRefusalCode {
    return this.problem.code
  }
}

/**
 * A problem found by checks made before an upload is answered (a video's sniffing, probing, bounds:
 * the video module's, which names any code) as the refusal it is. Those checks name only codes of
 * UPLOAD_REFUSALS; another would be a new check not yet declared by the endpoints, answered meanwhile
 * as the unreadable video it is to the shopper, its English kept as the reason.
 */
export function asUploadRefusal(found: Problem): UploadError {
  const declared = (UPLOAD_REFUSALS as readonly string[]).includes(found.code)
  return new UploadError(
    declared
      ? (found as Problem<UploadRefusalCode>)
      : problem('video_unreadable', { reason: englishOf(found) }),
  )
}

/** A write that failed for want of room (ENOSPC) or quota (EDQUOT), on the disk or in temp files. */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'ENOSPC' || code === 'EDQUOT'
}

/**
 * A full disk is the shop's problem, not the shopper's request: 507 (storage_full), never the raw
 * ENOSPC text in a 400.
 */
export const storageFull = () => new UploadError({ code: 'storage_full' })

export type ProcessContext = {
  /** The raw upload on disk (deleted by the caller afterwards). */
  inputPath: string
  /** What the sniffer returned. */
  format: string
  storage: ContentStorage
  /** Videos: trimmed to this (the named template's videoMaxLengthSeconds, or a default). */
  maxLengthSeconds?: number
  /** The upload's id, when processed as a job. */
  uploadId?: string
  signal?: AbortSignal
}

export type UploadProcessor = {
  kind: ContentType
  /** Shopper-facing names of the accepted formats, for messages. */
  extensions: readonly string[]
  /** Largest raw upload accepted, in bytes; past it the upload stops with 413. */
  maxBytes: number
  /** The format of a file from its first bytes (up to SNIFF_BYTES), or null if not this kind. */
  sniff(head: Uint8Array): string | null
  /**
   * 'inline': process() runs before the upload answers (status ready or an error status code);
   * 'background': the upload answers status processing at once and process() runs as a job.
   */
  timing: 'inline' | 'background'
  /**
   * Runs on the whole received file before the upload is answered (a background processor's quick
   * refusals: 415 for a polyglot). Throws UploadError.
   */
  check?(context: Pick<ProcessContext, 'inputPath' | 'format'>): Promise<void>
  /**
   * Checks and converts the raw file into a stored file. Inline: throws UploadError for a refusal;
   * background: anything it throws with a problem (UploadError, VideoError) is kept on the upload.
   */
  process(context: ProcessContext): Promise<ProcessedFile>
}

export type SniffedUpload = { processor: UploadProcessor; format: string }

/** An upload received whole into a temporary file, its type sniffed (receive.ts). */
export type ReceivedUpload = SniffedUpload & {
  tempPath: string
  sizeBytes: number
  /** The form's text fields (e.g. generatorId), first value of each. */
  fields: Record<string, string>
}

/** What a receiver of an upload needs from the service: the processors and where files go. */
export type UploadIntake = {
  processors: readonly UploadProcessor[]
  storage: ContentStorage
}

/**
 * Receives an upload into the intake's temporary folder: the routes hand one to the service, which
 * never sees the HTTP request (receive.ts reads the multipart body).
 */
export type UploadReceiver = (intake: UploadIntake) => Promise<ReceivedUpload>

export function sniffUpload(
  processors: readonly UploadProcessor[],
  head: Uint8Array,
): SniffedUpload | null {
  for (const processor of processors) {
    const format = processor.sniff(head)
    if (format) return { processor, format }
  }
  return null
}

/** The largest limit of all processors: a body longer than that is refused before it is sniffed. */
export function largestUpload(processors: readonly UploadProcessor[]): number {
  return Math.max(...processors.map((processor) => processor.maxBytes))
}
