// Reading a video's length, size and streams with ffprobe.
import path from 'node:path'
import * as v from 'valibot'
import { runTool, VideoError, type VideoTools } from './ffmpeg.ts'
import type { Demuxer } from './sniff.ts'

export type VideoProbe = {
  /** Playing time in seconds (container duration, else the picture stream's). */
  durationSeconds: number
  /** Displayed size in pixels (after the rotation a phone recorded); 0 when there is no picture. */
  width: number
  height: number
  /** Pictures per second of the picture stream (average, else nominal); 0 when unknown or none. */
  frameRate: number
  hasVideo: boolean
  hasAudio: boolean
  /** Codec of the picture stream (e.g. 'h264'), or of the sound when there is no picture (wav). */
  codec: string
  /** Pixel format of the picture stream (e.g. 'yuv420p'); '' without pictures. */
  pixelFormat: string
  /** ffprobe's container name list, e.g. 'mov,mp4,m4a,3gp,3g2,mj2'; see containerMatches in sniff.ts. */
  formatName: string
}

export type ProbeOptions = {
  timeoutMs?: number
  signal?: AbortSignal
  /** The container the file's bytes claim (sniff.ts); default mov, what the shop itself writes. */
  demuxer?: Demuxer
}

export const DEFAULT_PROBE_TIMEOUT_MS = 20_000

/**
 * The argument naming a local file for ffmpeg/ffprobe: an absolute `file:` URL-ish path, so a name that
 * starts with '-' is never read as an option and one like 'concat:…' or 'http://…' is never a protocol.
 */
export function fileArg(filePath: string): string {
  return `file:${path.resolve(filePath)}`
}

/**
 * How ffmpeg and ffprobe open an input: as a local file only (no network, no other protocol a
 * container could name inside it) and with the demuxer its bytes claim, never one ffmpeg guesses.
 */
export function inputArgs(filePath: string, demuxer: Demuxer | 'image2'): string[] {
  // image2 reads one picture (our overlay): its name is never a pattern of several files
  const image = demuxer === 'image2' ? ['-pattern_type', 'none'] : []
  return ['-protocol_whitelist', 'file', '-f', demuxer, ...image, '-i', fileArg(filePath)]
}

/** Removes server paths from a message meant for people. */
export function withoutPaths(message: string, ...filePaths: string[]): string {
  let out = message
  for (const filePath of filePaths) {
    for (const variant of [fileArg(filePath), path.resolve(filePath), filePath]) {
      out = out.split(`${variant}: `).join('').split(variant).join('the file')
    }
  }
  return out
}

const StreamSchema = v.object({
  codec_type: v.optional(v.string()),
  codec_name: v.optional(v.string()),
  pix_fmt: v.optional(v.string()),
  avg_frame_rate: v.optional(v.string()),
  r_frame_rate: v.optional(v.string()),
  width: v.optional(v.number()),
  height: v.optional(v.number()),
  duration: v.optional(v.string()),
  tags: v.optional(v.record(v.string(), v.string())),
  side_data_list: v.optional(v.array(v.looseObject({ rotation: v.optional(v.number()) }))),
})

const ProbeOutputSchema = v.object({
  streams: v.optional(v.array(v.looseObject(StreamSchema.entries)), []),
  format: v.optional(
    v.looseObject({
      format_name: v.optional(v.string()),
      duration: v.optional(v.string()),
    }),
  ),
})

/** ffprobe's rate as a fraction ('30000/1001'), or 0 ('0/0', absent). */
function rate(fraction: string | undefined): number {
  const [top, bottom] = (fraction ?? '').split('/').map(Number)
  if (top === undefined || !Number.isFinite(top) || top <= 0) return 0
  const value = bottom === undefined ? top : top / bottom
  return Number.isFinite(value) && value > 0 ? value : 0
}

function rotationOf(stream: v.InferOutput<typeof StreamSchema>): number {
  const fromSideData = stream.side_data_list?.find(
    (entry) => entry.rotation !== undefined,
  )?.rotation
  const fromTag = stream.tags?.rotate === undefined ? undefined : Number(stream.tags.rotate)
  const rotation = fromSideData ?? fromTag ?? 0
  return Number.isFinite(rotation) ? Math.abs(Math.round(rotation)) % 360 : 0
}

/** Reads a video's (or a wav's) length, displayed size, codec and streams. Rejects with a VideoError. */
export async function probe(
  tools: Pick<VideoTools, 'ffprobe'>,
  filePath: string,
  options: ProbeOptions = {},
): Promise<VideoProbe> {
  const { ffprobe } = tools
  const args = [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    // ffprobe names its input without -i
    ...inputArgs(filePath, options.demuxer ?? 'mov').filter((arg) => arg !== '-i'),
  ]
  let stdout: Buffer
  try {
    ;({ stdout } = await runTool(ffprobe, args, {
      timeoutMs: options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      what: 'Reading the video',
      signal: options.signal,
      maxStdoutBytes: 8 * 1024 * 1024,
    }))
  } catch (error) {
    if (error instanceof VideoError)
      throw new VideoError(withoutPaths(error.message, filePath), error.detail)
    throw error
  }
  let json: unknown
  try {
    json = JSON.parse(stdout.toString('utf8'))
  } catch {
    throw new VideoError('Reading the video failed: ffprobe gave no readable answer.')
  }
  const parsed = v.safeParse(ProbeOutputSchema, json)
  if (!parsed.success)
    throw new VideoError('Reading the video failed: ffprobe gave an unexpected answer.')
  const { streams, format } = parsed.output
  const video = streams.find((stream) => stream.codec_type === 'video' && (stream.width ?? 0) > 0)
  const audio = streams.find((stream) => stream.codec_type === 'audio')
  if (!video && !audio) throw new VideoError({ code: 'video_empty' })

  const durations = [format?.duration, video?.duration, audio?.duration].map((value) =>
    Number(value),
  )
  const durationSeconds = durations.find((value) => Number.isFinite(value) && value > 0)
  if (durationSeconds === undefined)
    throw new VideoError('The length of this video could not be read.')

  let width = video?.width ?? 0
  let height = video?.height ?? 0
  if (rotationOf(video ?? {}) % 180 === 90) [width, height] = [height, width]
  return {
    durationSeconds,
    width,
    height,
    frameRate: rate(video?.avg_frame_rate) || rate(video?.r_frame_rate),
    hasVideo: Boolean(video),
    hasAudio: Boolean(audio),
    codec: (video ?? audio)?.codec_name ?? 'unknown',
    pixelFormat: video?.pix_fmt ?? '',
    formatName: format?.format_name ?? '',
  }
}
