import { rm } from 'node:fs/promises'
import sharp from 'sharp'
import type { ContentType } from '../../domain/content.ts'
import type { Queryable } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { extractFrames, transcode, VideoError, type VideoTools } from '../video/index.ts'
import type { ContentError } from './errors.ts'
import type { ContentModerator } from './generate.ts'
import { imageWork } from './limit.ts'
import { insertGeneratedContent, uploadById } from './repo.ts'
import { type ContentStorage, newId } from './storage.ts'

// An upload fitted to a billboard's screen, as it is (no template): an advertiser's ad (api-v1
// "Advertisers"). Scaled to cover the screen and centred, like a shout's clip (the billboard shows no
// bars), a video trimmed to the length of one ad play; judged by the same moderation as a shout and
// kept as generated content (generator `ad-fit`, no event) that the billboard's schedule can name.

/** The generator id of generated content that is an upload fitted to a screen. */
export const FIT_GENERATOR = 'ad-fit'

export type FittedContent = {
  key: string
  url: string
  type: ContentType
  widthPx: number
  heightPx: number
  durationSeconds: number | null
  flagged: boolean
  flagReasons: string[]
}

export type FitScreen = { deviceId: string; widthPx: number; heightPx: number }

const NO_TEXTS = { buyerName: '', recipientName: '', multilineMessage: '' }

export function createFitting(deps: {
  db: Queryable
  storage: ContentStorage
  log: Logger
  fileUrl: (name: string) => string
  moderate: ContentModerator | undefined
  video: VideoTools | null
}) {
  const { db, storage } = deps

  async function judge(input: { photo: Buffer | null; frames?: Buffer[]; type: ContentType }) {
    if (!deps.moderate) return { flagged: false, reasons: [] as string[] }
    return deps.moderate({
      texts: NO_TEXTS,
      photo: input.photo,
      ...(input.frames ? { frames: input.frames } : {}),
      contentType: input.type,
    })
  }

  async function fitPhoto(fileName: string, screen: FitScreen) {
    const source = await storage.read(fileName)
    const bytes = await imageWork(() =>
      sharp(source)
        .resize({ width: screen.widthPx, height: screen.heightPx, fit: 'cover' })
        .jpeg({ quality: 88, chromaSubsampling: '4:2:0' })
        .toBuffer(),
    )
    const name = storage.newName('jpg')
    await storage.write(name, bytes)
    return { name, bytes, durationSeconds: null }
  }

  async function fitVideo(
    fileName: string,
    screen: FitScreen,
    maxSeconds: number,
    signal?: AbortSignal,
  ) {
    if (!deps.video) throw new VideoError('Videos cannot be processed on this server.')
    const local = await storage.localFile(fileName)
    const work = storage.tempPath('mp4')
    try {
      // H.264 wants even sides
      const even = (n: number) => Math.max(2, n - (n % 2))
      const clip = await transcode(deps.video, {
        input: local.path,
        output: work,
        maxLengthSeconds: maxSeconds,
        width: even(screen.widthPx),
        height: even(screen.heightPx),
        ...(signal ? { signal } : {}),
      })
      const frames = await extractFrames(deps.video, work, 4, signal ? { signal } : {})
      const name = storage.newName('mp4')
      await storage.adopt(work, name)
      return { name, frames, durationSeconds: clip.durationSeconds }
    } finally {
      await local.release().catch(() => undefined)
      await rm(work, { force: true }).catch(() => undefined)
    }
  }

  /**
   * The upload at the screen's size, stored and judged: new generated content each call. An upload
   * still processing, failed or unknown is answered as such; a file that cannot be fitted is
   * `content_failed` with its reason.
   */
  async function fitToScreen(
    uploadId: string,
    screen: FitScreen,
    options: { maxVideoSeconds: number; signal?: AbortSignal },
  ): Promise<Result<FittedContent, ContentError>> {
    const upload = await uploadById(db, uploadId)
    if (!upload) return err({ code: 'upload_not_found' })
    if (upload.status === 'processing') return err({ code: 'upload_processing', kind: upload.kind })
    if (upload.status === 'failed' || !upload.fileName) {
      return err({ code: 'upload_failed', kind: upload.kind, reason: upload.error })
    }
    let made: { name: string; durationSeconds: number | null }
    let verdict: { flagged: boolean; reasons: string[] }
    try {
      if (upload.kind === 'photo') {
        const photo = await fitPhoto(upload.fileName, screen)
        made = photo
        verdict = await judge({ photo: photo.bytes, type: 'photo' })
      } else {
        const clip = await fitVideo(
          upload.fileName,
          screen,
          options.maxVideoSeconds,
          options.signal,
        )
        made = clip
        verdict = await judge({ photo: null, frames: clip.frames, type: 'video' })
      }
    } catch (error) {
      if (options.signal?.aborted) throw error
      deps.log.warn('an upload could not be fitted to a screen', { uploadId, error })
      const reason = error instanceof VideoError ? error.message : null
      return err({ code: 'content_failed', reason })
    }
    // the upload's own verdict (a video's frames, judged when it was processed) counts too
    const reasons = [...verdict.reasons, ...(upload.flagged ? upload.flagReasons : [])]
    const fitted: FittedContent = {
      key: newId(),
      url: deps.fileUrl(made.name),
      type: upload.kind,
      widthPx: screen.widthPx,
      heightPx: screen.heightPx,
      durationSeconds: made.durationSeconds,
      flagged: verdict.flagged || upload.flagged,
      flagReasons: reasons,
    }
    try {
      await insertGeneratedContent(db, {
        ...fitted,
        generatorId: FIT_GENERATOR,
        deviceId: screen.deviceId,
        eventSlug: '',
        uploadId,
        fileName: made.name,
        request: NO_TEXTS,
      })
    } catch (error) {
      await storage.remove(made.name).catch(() => undefined)
      throw error
    }
    return ok(fitted)
  }

  return { fitToScreen }
}
