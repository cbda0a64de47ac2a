// Video processing for uploads and composites. See README.md beside this file.
import { rm } from 'node:fs/promises'
import { problem } from '../../contract/problems.ts'
import { VideoError, type VideoTools } from './ffmpeg.ts'
import { extractFrames } from './frames.ts'
import { probe, type VideoProbe } from './probe.ts'
import { containerMatches, sniffVideoFile, type VideoFormat } from './sniff.ts'
import { transcode } from './transcode.ts'

export {
  type FfmpegSettings,
  type FfmpegTools,
  isInsideNodeModules,
  locateFfmpeg,
  VideoError,
  type VideoTools,
  videoTools,
} from './ffmpeg.ts'
export {
  DEFAULT_FRAME_TIMEOUT_MS,
  type ExtractFramesOptions,
  extractFirstFrame,
  extractFrames,
  FIRST_FRAME_QUALITY,
  type FirstFrameOptions,
} from './frames.ts'
export { DEFAULT_PROBE_TIMEOUT_MS, type ProbeOptions, probe, type VideoProbe } from './probe.ts'
export {
  containerMatches,
  SNIFF_WINDOW_BYTES,
  type SniffResult,
  sniffVideo,
  sniffVideoFile,
  type VideoFormat,
} from './sniff.ts'
export {
  type CompositeOptions,
  composite,
  DEFAULT_TRANSCODE_TIMEOUT_MS,
  MAX_FPS,
  MAX_SIDE_PX,
  type TranscodeOptions,
  transcode,
} from './transcode.ts'

/**
 * What a shopper's video may be, judged from ffprobe's answer before any decoding. An
 * 8000×8000 AVI of a few MB held the video queue for 52 s and peaked near 1.5 GB. Phones film at most
 * 4K (3840×2160) at 60 fps or 1080p at 240: the side, the frame rate and the pixels a second allowed are
 * above those and far below what made the queue wait.
 */
export const VIDEO_LIMITS = {
  maxSidePx: 4096,
  maxFrameRate: 240,
  /** 4096×4096 at 30 fps (4K at 60 fps is 498 million). */
  maxPixelsPerSecond: 4096 * 4096 * 30,
} as const

/** Refuses, with a problem a shopper can act on, a video past VIDEO_LIMITS. */
export function checkVideoBounds(video: VideoProbe): void {
  const { width, height, frameRate } = video
  const { maxSidePx, maxFrameRate, maxPixelsPerSecond } = VIDEO_LIMITS
  const seen = { width, height, frameRate: Math.round(frameRate) }
  if (width > maxSidePx || height > maxSidePx) {
    throw new VideoError(problem('video_too_large', { maxSide: maxSidePx, width, height }))
  }
  if (frameRate > maxFrameRate) {
    throw new VideoError(
      problem('video_frame_rate_too_high', { max: maxFrameRate, frameRate: seen.frameRate }),
    )
  }
  if (width * height * frameRate > maxPixelsPerSecond) {
    throw new VideoError(problem('video_pixel_rate_too_high', seen))
  }
}

export type ProcessVideoUploadOptions = {
  /** The stored upload, as received. */
  input: string
  /** Where the playable clip goes (written atomically). */
  output: string
  /** The template's videoMaxLengthSeconds. */
  maxLengthSeconds: number
  /** The billboard's size, when the clip should already be cropped to it. */
  width?: number
  height?: number
  /** Frames sampled from the finished clip for the nudity check (default 6). */
  frameCount?: number
  signal?: AbortSignal
}

export type ProcessedVideo = {
  format: VideoFormat
  /** The upload as received. */
  source: VideoProbe
  /** The finished clip at `output`. */
  video: VideoProbe
  /** True when the upload was longer than maxLengthSeconds and was cut (spec §5). */
  trimmed: boolean
  /** PNG frames of the finished clip: exactly what will play, so what moderation must see. */
  frames: Buffer[]
}

/**
 * The whole upload job for a video: judge the bytes again (the endpoint already answered 415 for the
 * obvious cases), check ffprobe reads the same container the bytes claim, transcode and trim, then
 * sample frames of the result for moderation. Rejects with a VideoError whose message can be shown as
 * the upload's failure reason.
 */
export async function processVideoUpload(
  tools: VideoTools,
  options: ProcessVideoUploadOptions,
): Promise<ProcessedVideo> {
  const sniffed = await sniffVideoFile(options.input)
  if (!sniffed.ok) throw new VideoError(sniffed.problem)
  if (sniffed.audioOnly) throw new VideoError(problem('video_sound_only'))
  const source = await probe(tools, options.input, {
    signal: options.signal,
    demuxer: sniffed.demuxer,
  })
  if (!containerMatches(sniffed.format, source.formatName)) {
    throw new VideoError(problem('video_container_mismatch', { format: sniffed.format }))
  }
  checkVideoBounds(source)
  const video = await transcode(tools, {
    input: options.input,
    demuxer: sniffed.demuxer,
    output: options.output,
    maxLengthSeconds: options.maxLengthSeconds,
    width: options.width,
    height: options.height,
    signal: options.signal,
  })
  let frames: Buffer[]
  try {
    frames = await extractFrames(tools, options.output, options.frameCount ?? 6, {
      signal: options.signal,
    })
  } catch (error) {
    // A clip nobody could check must not stay around looking ready.
    await rm(options.output, { force: true })
    throw error
  }
  return {
    format: sniffed.format,
    source,
    video,
    // A few hundredths of a second of container rounding is not a trim.
    trimmed: source.durationSeconds > options.maxLengthSeconds + 0.1,
    frames,
  }
}
