// Real small media made with ffmpeg for tests and the benchmark: no binary fixtures in the repository.
import { runTool, type VideoTools } from './ffmpeg.ts'
import { fileArg } from './probe.ts'

export type TestVideoFormat = 'mp4' | 'mpg' | 'avi' | 'wmv' | 'wav'

export type TestVideoOptions = {
  format?: TestVideoFormat
  seconds?: number
  width?: number
  height?: number
  fps?: number
  /** Add a sine tone (always on for wav). */
  audio?: boolean
  /** Extra ffmpeg output arguments, e.g. ['-metadata', 'title=…']. */
  extraArgs?: string[]
}

const ENCODERS: Record<Exclude<TestVideoFormat, 'wav'>, string[]> = {
  mp4: [
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-f',
    'mp4',
  ],
  mpg: ['-c:v', 'mpeg1video', '-c:a', 'mp2', '-f', 'mpeg'],
  avi: ['-c:v', 'mpeg4', '-c:a', 'pcm_s16le', '-f', 'avi'],
  wmv: ['-c:v', 'wmv2', '-c:a', 'wmav2', '-f', 'asf'],
}

/** Writes an ffmpeg `testsrc` clip (moving pattern, counter) of the given format to `filePath`. */
export async function makeTestVideo(
  tools: Pick<VideoTools, 'ffmpeg'>,
  filePath: string,
  options: TestVideoOptions = {},
): Promise<string> {
  const {
    format = 'mp4',
    seconds = 2,
    width = 160,
    height = 120,
    fps = 25,
    audio = false,
  } = options
  const { ffmpeg } = tools
  const tone = ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`]
  // biome-ignore format: ffmpeg arguments read best as flag/value pairs
  const args =
    format === 'wav'
      ? [...tone, '-c:a', 'pcm_s16le', '-f', 'wav']
      : [
          '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${width}x${height}:rate=${fps}`,
          ...(audio ? tone : []),
          ...ENCODERS[format],
          ...(audio ? [] : ['-an']),
        ]
  await runTool(
    ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-y',
      ...args,
      ...(options.extraArgs ?? []),
      fileArg(filePath),
    ],
    { timeoutMs: 60_000, what: 'Making a test video' },
  )
  return filePath
}
