// Sampled still frames of a video, for the nudity check ("on sampled frames of a video").
import sharp from 'sharp'
import { runTool, VideoError, type VideoTools } from './ffmpeg.ts'
import { inputArgs, probe, withoutPaths } from './probe.ts'

export type ExtractFramesOptions = {
  /** Frames are scaled down so their longer side is at most this (the model looks at 224 x 224). */
  maxSidePx?: number
  /**
   * Videos up to this length are decoded once, start to end, picking the frames on the way; longer
   * ones are sought into once per frame. Seeking lands on a keyframe and decodes from there, which for
   * a short clip with one keyframe every 250 frames costs more than decoding it all once.
   */
  singlePassMaxSeconds?: number
  /** For the whole extraction. */
  timeoutMs?: number
  signal?: AbortSignal
}

export const DEFAULT_FRAME_TIMEOUT_MS = 30_000
const MAX_FRAMES = 64

/**
 * Takes `count` frames spread evenly over the whole video (the middle of each of `count` equal parts, so
 * neither the black first frame nor the last is favoured) and resolves with them as PNG buffers, in time
 * order. Rejects with a VideoError when the file has no pictures or none could be decoded.
 */
export async function extractFrames(
  tools: Pick<VideoTools, 'ffmpeg' | 'ffprobe' | 'prlimit'>,
  filePath: string,
  count: number,
  options: ExtractFramesOptions = {},
): Promise<Buffer[]> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_FRAMES) {
    throw new VideoError(
      `The number of frames must be a whole number from 1 to ${MAX_FRAMES}, not ${count}.`,
    )
  }
  const info = await probe(tools, filePath, { signal: options.signal })
  if (!info.hasVideo) throw new VideoError('This file has no pictures to look at.')
  const maxSide = options.maxSidePx ?? 512
  const scale = `scale=w='min(iw,${maxSide})':h='min(ih,${maxSide})':force_original_aspect_ratio=decrease`
  const step = info.durationSeconds / count
  const run = (args: string[], maxStdoutBytes: number) =>
    runTool(tools.ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', ...args], {
      timeoutMs: options.timeoutMs ?? DEFAULT_FRAME_TIMEOUT_MS,
      what: 'Taking frames from the video',
      signal: options.signal,
      maxStdoutBytes,
      prlimit: tools.prlimit,
    }).catch((error: unknown) => {
      if (error instanceof VideoError) {
        throw new VideoError(withoutPaths(error.message, filePath), error.detail)
      }
      throw error
    })

  let frames: Buffer[]
  if (info.durationSeconds <= (options.singlePassMaxSeconds ?? 120)) {
    // One decode: the first frame at or after the middle of the first part, then each frame at least one
    // part after the last one taken.
    const select = `select='if(isnan(prev_selected_t),gte(t,${(step / 2).toFixed(4)}),gte(t-prev_selected_t,${(step * 0.999).toFixed(4)}))'`
    // biome-ignore format: ffmpeg arguments read best as flag/value pairs
    const { stdout } = await run([
      ...inputArgs(filePath, 'mov'), '-map', '0:v:0', '-vf', `${select},${scale}`, '-fps_mode', 'vfr',
      '-frames:v', String(count), '-f', 'image2pipe', '-c:v', 'png', 'pipe:1',
    ], count * 16 * 1024 * 1024)
    frames = splitPngs(stdout)
  } else {
    frames = []
    for (let index = 0; index < count; index++) {
      const seconds = step * (index + 0.5)
      // biome-ignore format: ffmpeg arguments read best as flag/value pairs
      const { stdout } = await run([
        '-ss', seconds.toFixed(3), ...inputArgs(filePath, 'mov'), '-map', '0:v:0', '-frames:v', '1',
        '-vf', scale, '-f', 'image2pipe', '-c:v', 'png', 'pipe:1',
      ], 16 * 1024 * 1024)
      frames.push(...splitPngs(stdout))
    }
  }
  if (frames.length === 0) throw new VideoError('No frame of this video could be decoded.')
  return frames
}

export type FirstFrameOptions = {
  /** JPEG quality, 1–100. */
  quality?: number
  timeoutMs?: number
  signal?: AbortSignal
}

/** JPEG quality of a clip's first frame: a 1920x1080 grainy frame is ~0.4 MB at 80, 4 MB as a PNG. */
export const FIRST_FRAME_QUALITY = 80

/**
 * The first picture of a video as a JPEG at the video's own size (E-mail: a video order's
 * mails show "its first frame"; the content listing offers the same picture as the clip's still).
 * ffmpeg decodes only that frame (lossless PNG through a pipe), sharp encodes the JPEG. Rejects with a
 * VideoError when the file has no pictures.
 */
export async function extractFirstFrame(
  tools: Pick<VideoTools, 'ffmpeg' | 'prlimit'>,
  filePath: string,
  options: FirstFrameOptions = {},
): Promise<Buffer> {
  // biome-ignore format: ffmpeg arguments read best as flag/value pairs
  const args = [
    '-hide_banner', '-nostdin', '-v', 'error', ...inputArgs(filePath, 'mov'), '-map', '0:v:0',
    '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1',
  ]
  const { stdout } = await runTool(tools.ffmpeg, args, {
    timeoutMs: options.timeoutMs ?? DEFAULT_FRAME_TIMEOUT_MS,
    what: 'Taking the first frame of the video',
    signal: options.signal,
    // 4096 x 4096 (VIDEO_LIMITS) as 8-bit RGB, and PNG's overhead.
    maxStdoutBytes: 64 * 1024 * 1024,
    prlimit: tools.prlimit,
  }).catch((error: unknown) => {
    if (error instanceof VideoError) {
      throw new VideoError(withoutPaths(error.message, filePath), error.detail)
    }
    throw error
  })
  const [frame] = splitPngs(stdout)
  if (!frame) throw new VideoError('This video has no picture to show.')
  return sharp(frame)
    .jpeg({ quality: options.quality ?? FIRST_FRAME_QUALITY })
    .toBuffer()
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Cuts a stream of PNG files (ffmpeg's image2pipe) into one buffer per picture, by walking chunks. */
export function splitPngs(stream: Buffer): Buffer[] {
  const pictures: Buffer[] = []
  let start = 0
  while (start + PNG_SIGNATURE.length <= stream.length) {
    if (!stream.subarray(start, start + PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) {
      throw new VideoError(
        'Taking frames from the video failed: ffmpeg wrote something other than PNG.',
      )
    }
    let offset = start + PNG_SIGNATURE.length
    let ended = false
    while (!ended) {
      if (offset + 12 > stream.length) {
        throw new VideoError('Taking frames from the video failed: a frame was cut short.')
      }
      const length = stream.readUInt32BE(offset)
      ended = stream.toString('latin1', offset + 4, offset + 8) === 'IEND'
      offset += 12 + length
    }
    pictures.push(stream.subarray(start, offset))
    start = offset
  }
  return pictures
}
