// Turning an upload into what a billboard plays: H.264 in MP4 (yuv420p, faststart), trimmed to the
// template's length, silent ("transcoded to H.264 MP4, trimmed to the template's
// videoMaxLengthSeconds, audio dropped"; spec §5: videos over the limit are trimmed).
import { randomUUID } from 'node:crypto'
import { rename, rm } from 'node:fs/promises'
import path from 'node:path'
import sharp, { type Metadata } from 'sharp'
import type { X264Preset } from '../platform/env.ts'
import { runTool, VideoError, type VideoTools } from './ffmpeg.ts'
import { fileArg, inputArgs, probe, type VideoProbe, withoutPaths } from './probe.ts'
import type { Demuxer } from './sniff.ts'

/** A file with sound and no picture cannot be a shout. */
const NO_PICTURES = { code: 'video_no_pictures' } as const

/** Frames per second at most: a billboard gains nothing from more, and encoding time halves. */
export const MAX_FPS = 30
/** Without a target size, the longer side is brought down to this (never up). */
export const MAX_SIDE_PX = 1920
export const DEFAULT_TRANSCODE_TIMEOUT_MS = 120_000

export type TranscodeOptions = {
  input: string
  /** The container the input's bytes claim (sniff.ts); default mov. */
  demuxer?: Demuxer
  output: string
  /** The template's videoMaxLengthSeconds: anything longer is cut there. */
  maxLengthSeconds: number
  /** When both are given, the clip is scaled and centre-cropped to exactly width x height. */
  width?: number
  height?: number
  /** x264 speed/size trade-off; default the tools' (VIDEO_X264_PRESET). */
  preset?: X264Preset
  timeoutMs?: number
  signal?: AbortSignal
}

export type CompositeOptions = {
  /** A clip the shop made (an MP4: the output of transcode). */
  videoPath: string
  /** The rendered template: a PNG of exactly width x height, transparent where the clip shows. */
  overlayPngPath: string
  width: number
  height: number
  output: string
  maxLengthSeconds: number
  /** x264 speed/size trade-off; default the tools' (VIDEO_X264_PRESET). */
  preset?: X264Preset
  timeoutMs?: number
  signal?: AbortSignal
}

function checkLength(maxLengthSeconds: number): void {
  if (!Number.isFinite(maxLengthSeconds) || maxLengthSeconds <= 0) {
    throw new VideoError(
      `The maximum video length must be a positive number of seconds, not ${maxLengthSeconds}.`,
    )
  }
}

function checkSize(width: number, height: number): void {
  for (const [name, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    // H.264 in yuv420p stores colour at half resolution: both sides must be even.
    if (!Number.isInteger(value) || value < 2 || value > 8192 || value % 2 !== 0) {
      throw new VideoError(
        `The video ${name} must be an even whole number of pixels (2–8192), not ${value}.`,
      )
    }
  }
}

/** Scale to cover width x height, then crop the middle: the billboard shows no bars. */
function coverFilter(width: number, height: number): string {
  return `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1`
}

/** Square pixels, longer side at most MAX_SIDE_PX, even sides. */
const FIT_FILTER = [
  'scale=trunc(iw*sar):ih',
  `scale=w='min(iw,${MAX_SIDE_PX})':h='min(ih,${MAX_SIDE_PX})':force_original_aspect_ratio=decrease`,
  'scale=trunc(iw/2)*2:trunc(ih/2)*2',
  'setsar=1',
].join(',')

// biome-ignore format: ffmpeg arguments read best as flag/value pairs
const h264Output = (preset: X264Preset) => [
  '-c:v', 'libx264', '-preset', preset, '-crf', '23', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
  '-fpsmax', String(MAX_FPS),
  // Drop sound, subtitles, data and the uploader's metadata (phones record GPS positions there).
  '-an', '-sn', '-dn', '-map_metadata', '-1', '-map_chapters', '-1',
  '-movflags', '+faststart', '-f', 'mp4',
]

/** Runs ffmpeg into a temporary file beside `output` and renames it into place only when complete. */
async function encodeTo(
  tools: VideoTools,
  output: string,
  args: readonly string[],
  options: RunArgs,
): Promise<VideoProbe> {
  const { ffmpeg } = tools
  const partial = path.join(
    path.dirname(output),
    `.${path.basename(output)}.${randomUUID()}.partial.mp4`,
  )
  try {
    await runTool(
      ffmpeg,
      ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args, fileArg(partial)],
      { ...options, prlimit: tools.prlimit },
    )
    const result = await probe(tools, partial, { signal: options.signal })
    if (!result.hasVideo || result.durationSeconds <= 0) {
      throw new VideoError(`${options.what} produced no playable video.`)
    }
    await rename(partial, output)
    return result
  } catch (error) {
    await rm(partial, { force: true })
    if (error instanceof VideoError) {
      throw new VideoError(withoutPaths(error.message, partial, ...options.paths), error.detail)
    }
    throw error
  }
}

type RunArgs = { timeoutMs: number; what: string; signal: AbortSignal | undefined; paths: string[] }

/**
 * Transcodes a video to H.264 MP4 (yuv420p, faststart, at most 30 fps), trimmed to maxLengthSeconds,
 * without audio or metadata; scaled and cropped to exactly width x height when both are given, else
 * kept in proportion with the longer side at most 1920 px. Writes `output` atomically and resolves with
 * the probe of the result. Rejects with a VideoError (human message) on a corrupt file, a file without
 * pictures, or a timeout (default 120 s).
 */
export async function transcode(tools: VideoTools, options: TranscodeOptions): Promise<VideoProbe> {
  const { input, output, maxLengthSeconds, width, height } = options
  checkLength(maxLengthSeconds)
  if ((width === undefined) !== (height === undefined)) {
    throw new VideoError('Give both a width and a height, or neither.')
  }
  if (width !== undefined && height !== undefined) checkSize(width, height)
  const demuxer = options.demuxer ?? 'mov'
  const source = await probe(tools, input, { signal: options.signal, demuxer })
  if (!source.hasVideo) throw new VideoError(NO_PICTURES)
  const filter =
    width !== undefined && height !== undefined ? coverFilter(width, height) : FIT_FILTER
  // -t before -i stops reading the input at the limit: a 10-minute upload costs no more than its first seconds.
  const args = [
    '-t',
    String(maxLengthSeconds),
    ...inputArgs(input, demuxer),
    '-map',
    '0:v:0',
    '-vf',
    filter,
    ...h264Output(options.preset ?? tools.x264Preset),
  ]
  return encodeTo(tools, output, args, {
    timeoutMs: options.timeoutMs ?? DEFAULT_TRANSCODE_TIMEOUT_MS,
    what: 'Transcoding the video',
    signal: options.signal,
    paths: [input, output],
  })
}

/**
 * Composites the rendered template (a PNG of exactly width x height whose transparent areas let the clip
 * show) over the clip scaled and centre-cropped to width x height; H.264 MP4 like transcode, trimmed to
 * maxLengthSeconds. Resolves with the probe of `output` (written atomically).
 */
export async function composite(tools: VideoTools, options: CompositeOptions): Promise<VideoProbe> {
  const { videoPath, overlayPngPath, width, height, output, maxLengthSeconds } = options
  checkLength(maxLengthSeconds)
  checkSize(width, height)
  let overlay: Metadata
  try {
    overlay = await sharp(overlayPngPath).metadata()
  } catch {
    throw new VideoError('The rendered overlay is not a readable image.')
  }
  if (overlay.format !== 'png')
    throw new VideoError(`The rendered overlay must be a PNG, not ${overlay.format}.`)
  if (overlay.width !== width || overlay.height !== height) {
    throw new VideoError(
      `The rendered overlay is ${overlay.width}x${overlay.height} but the billboard is ${width}x${height}.`,
    )
  }
  const source = await probe(tools, videoPath, { signal: options.signal })
  if (!source.hasVideo) throw new VideoError(NO_PICTURES)
  const graph = [
    `[0:v]scale=trunc(iw*sar):ih,${coverFilter(width, height)}[clip]`,
    '[1:v]format=rgba[overlay]',
    // The overlay is one looped picture: end with the clip.
    '[clip][overlay]overlay=0:0:format=auto:shortest=1,format=yuv420p[out]',
  ].join(';')
  // biome-ignore format: ffmpeg arguments read best as flag/value pairs
  const args = [
    '-t', String(maxLengthSeconds), ...inputArgs(videoPath, 'mov'),
    '-loop', '1', ...inputArgs(overlayPngPath, 'image2'),
    '-filter_complex', graph, '-map', '[out]', '-t', String(maxLengthSeconds),
    ...h264Output(options.preset ?? tools.x264Preset),
  ]
  return encodeTo(tools, output, args, {
    timeoutMs: options.timeoutMs ?? DEFAULT_TRANSCODE_TIMEOUT_MS,
    what: 'Compositing the video',
    signal: options.signal,
    paths: [videoPath, overlayPngPath, output],
  })
}
