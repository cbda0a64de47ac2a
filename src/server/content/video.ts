// Video shouts (spec §3-5, §9): the upload processor (mp4, mpg, avi, wmv up to 200 MB, judged
// from the bytes, transcoded as a job to H.264 MP4, trimmed, audio dropped) and the generator of the
// billboard clip (the template rendered by satori, transparent where the clip shows, composited over the
// clip with ffmpeg at the billboard's exact size). The ffmpeg work itself lives in ../video.
import { stat, writeFile } from 'node:fs/promises'
import {
  checkVideoBounds,
  composite,
  extractFirstFrame,
  extractFrames,
  probe,
  processVideoUpload,
  SNIFF_WINDOW_BYTES,
  sniffVideo,
  sniffVideoFile,
  VideoError,
  type VideoTools,
} from '../video/index.ts'
import type { ContentGenerator } from './generate.ts'
import { keepWithRow, parsedTemplate, saveGeneratedContent, textsOf } from './generate.ts'
import {
  asUploadRefusal,
  type ProcessedFile,
  UploadError,
  type UploadProcessor,
} from './processors.ts'
import { renderFailure } from './render.ts'
import { SNIFF_BYTES } from './sniff.ts'
import { newId, stillOf } from './storage.ts'

/** Videos up to 200 MB. */
export const VIDEO_MAX_BYTES = 200 * 1024 * 1024
/**
 * The length an upload is trimmed to when the request names no template (or a template without
 * videoMaxLengthSeconds): the longest any video template of the catalogue allows, or this when there is
 * none. The composite is trimmed again to the chosen template's own limit.
 */
export const DEFAULT_VIDEO_MAX_SECONDS = 30
/** Formats a shopper may upload as a video (spec §9 lists wav too; see WAV_REFUSED). */
export const VIDEO_EXTENSIONS = ['mp4', 'mpg', 'avi', 'wmv'] as const
// spec §9 lists wav, for a template that pairs sound with a still image. The catalogue format has no
// such template and every shout plays without sound (audio dropped), so a wav is refused, saying so
// (upload_sound_only).

const POLYGLOT = 'polyglot'
if (SNIFF_BYTES < SNIFF_WINDOW_BYTES) throw new Error('The upload sniffer sees too few bytes')

export type VideoProcessorOptions = {
  tools: VideoTools
  /** Frames of the finished clip sampled for the nudity check. */
  frameCount: number
  /** Checks the frames (spec §5); the verdict is logged with the upload, the flag is kept at generation. */
  onFrames?: (uploadId: string, frames: Buffer[]) => Promise<void>
}

export function createVideoProcessor(options: VideoProcessorOptions): UploadProcessor {
  return {
    kind: 'video',
    extensions: VIDEO_EXTENSIONS,
    maxBytes: VIDEO_MAX_BYTES,
    timing: 'background',
    sniff(head) {
      const sniffed = sniffVideo(head)
      if (sniffed.ok) return sniffed.format
      // A file that starts like a video and reads as something else too: refused by check() with its reason.
      return sniffed.reason === 'polyglot' ? POLYGLOT : null
    },
    // Before the upload is answered: the whole file's first and last bytes (a ZIP end record sits at the
    // end) decide polyglots, and a wav is refused at once rather than as a failed job.
    async check({ inputPath, format }) {
      const sniffed = await sniffVideoFile(inputPath)
      if (!sniffed.ok) throw asUploadRefusal(sniffed.problem)
      if (format === POLYGLOT) throw new UploadError({ code: 'video_polyglot' })
      if (sniffed.audioOnly) throw new UploadError({ code: 'upload_sound_only' })
      // Probed before it is accepted, so a video too large to transcode is refused at
      // once, never queued.
      let info: Awaited<ReturnType<typeof probe>>
      try {
        info = await probe(options.tools, inputPath, { demuxer: sniffed.demuxer })
      } catch (error) {
        if (error instanceof VideoError) throw asUploadRefusal(error.problem)
        throw error
      }
      try {
        checkVideoBounds(info)
      } catch (error) {
        if (error instanceof VideoError) throw asUploadRefusal(error.problem)
        throw error
      }
    },
    async process({ inputPath, storage, maxLengthSeconds, uploadId, signal }) {
      const name = storage.newName('mp4')
      const output = storage.tempPath('mp4')
      // A file ffmpeg cannot read throws its VideoError as it is: the shopper's answer, kept on the
      // upload as data (GET /uploads/{id} failed + its problem), never the refusal of a request.
      try {
        const done = await processVideoUpload(options.tools, {
          input: inputPath,
          output,
          maxLengthSeconds: maxLengthSeconds ?? DEFAULT_VIDEO_MAX_SECONDS,
          frameCount: options.frameCount,
          ...(signal ? { signal } : {}),
        })
        if (uploadId && options.onFrames) await options.onFrames(uploadId, done.frames)
        const { size } = await stat(output)
        await storage.adopt(output, name)
        return {
          fileName: name,
          mimeType: 'video/mp4',
          widthPx: done.video.width,
          heightPx: done.video.height,
          durationSeconds: done.video.durationSeconds,
          sizeBytes: size,
        } satisfies ProcessedFile
      } finally {
        await storage.remove(output).catch(() => undefined)
      }
    },
  }
}

export type VideoGeneratorOptions = {
  tools: VideoTools
  frameCount: number
}

/**
 * The billboard clip: the template rendered at the billboard's size (the shopper's texts; transparent
 * where the clip shows), composited over the processed upload and trimmed to the template's limit. The
 * finished clip's first frame is stored beside it under the same id (`<id>.jpg`, storage.ts stillOf):
 * GET /content/{key} lists the clip, then the still, and the order's mails show it (E-mail).
 */
export function createVideoGenerator(options: VideoGeneratorOptions): ContentGenerator {
  return async (plan, context) => {
    const width = plan.device.contentWidth
    const height = plan.device.contentHeight
    const upload = plan.upload
    if (!upload?.fileName) {
      return { kind: 'invalid', errors: [{ code: 'upload_required', contentType: 'video' }] }
    }
    const id = newId()
    const overlayPath = context.storage.tempPath('png')
    const output = context.storage.tempPath('mp4')
    const clip = await context.storage.localFile(upload.fileName)
    try {
      let overlay: Buffer
      try {
        overlay = await context.render({
          template: parsedTemplate(plan.template),
          values: textsOf(plan),
          width,
          height,
          photo: null,
        })
      } catch (error) {
        context.log.error('video overlay failed', { templateId: plan.template.id, error })
        return { kind: 'failed', problem: renderFailure(error) }
      }
      await writeFile(overlayPath, overlay)
      let frames: Buffer[]
      let still: Buffer
      let durationSeconds: number
      try {
        const made = await composite(options.tools, {
          videoPath: clip.path,
          overlayPngPath: overlayPath,
          width,
          height,
          output,
          maxLengthSeconds: plan.template.videoMaxLengthSeconds ?? DEFAULT_VIDEO_MAX_SECONDS,
          ...(context.signal ? { signal: context.signal } : {}),
        })
        durationSeconds = made.durationSeconds
        // spec §5: the check looks at what will play, overlay included.
        const signal = context.signal ? { signal: context.signal } : {}
        frames = await extractFrames(options.tools, output, options.frameCount, signal)
        still = await extractFirstFrame(options.tools, output, signal)
      } catch (error) {
        // A shutdown stops ffmpeg on purpose: the job runs again at the next start.
        if (!context.signal?.aborted)
          context.log.error('video composite failed', { templateId: plan.template.id, error })
        return {
          kind: 'failed',
          problem: error instanceof VideoError ? error.problem : { code: 'video_composite_failed' },
        }
      }
      const verdict = context.moderate
        ? await context.moderate({
            texts: textsOf(plan),
            photo: null,
            frames,
            contentType: 'video',
          })
        : undefined
      const fileName = `${id}.mp4`
      const stillName = stillOf(fileName)
      const content = await keepWithRow(context.storage, [fileName, stillName], async () => {
        await context.storage.adopt(output, fileName)
        await context.storage.write(stillName, still)
        return saveGeneratedContent(
          context,
          plan,
          { fileName, widthPx: width, heightPx: height, durationSeconds },
          verdict,
        )
      })
      return { kind: 'done', content }
    } finally {
      await clip.release()
      await context.storage.remove(overlayPath).catch(() => undefined)
      await context.storage.remove(output).catch(() => undefined)
    }
  }
}
