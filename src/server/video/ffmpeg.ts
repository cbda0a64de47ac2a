// Locating and running ffmpeg/ffprobe: every call has a timeout and ends in a settled promise with a
// message a person can read (a corrupt upload is a failed job, never a hung worker).
import { spawn } from 'node:child_process'
import { accessSync, constants, realpathSync } from 'node:fs'
import path from 'node:path'
import type { Problem } from '../../contract/problems.ts'
import { issueMessage } from '../../domain/problems.ts'
import type { Env, X264Preset } from '../platform/env.ts'

/**
 * A video operation that failed for a reason worth showing (corrupt file, timeout, missing ffmpeg).
 * Its problem is what a shopper is told: the module's own when it knows what is wrong with the file
 * (a size past the limits, no pictures), else video_unreadable with the tool's words (no paths).
 */
export class VideoError extends Error {
  override readonly name = 'VideoError'
  /** The tail of ffmpeg's own stderr, for logs (not for shoppers). */
  readonly detail: string
  readonly problem: Problem

  constructor(reason: string | Problem, detail = '') {
    super(typeof reason === 'string' ? reason : issueMessage(reason.code, reason.params))
    this.detail = detail
    this.problem =
      typeof reason === 'string' ? { code: 'video_unreadable', params: { reason } } : reason
  }
}

export type FfmpegTools = {
  ffmpeg: string
  ffprobe: string
  /**
   * Where they were found: FFMPEG_PATH/FFPROBE_PATH, or the system PATH (Debian's ffmpeg). Never an
   * npm package's static build (decision 026): those are years behind the decoders' security fixes,
   * and ffmpeg parses strangers' uploads.
   */
  source: 'env' | 'system'
  /**
   * util-linux's prlimit (Debian: always installed), which runs ffmpeg under an address-space limit
   * (RLIMIT_AS); null where it is missing, and then ffmpeg runs with the time bound alone.
   */
  prlimit?: string | null
}

/**
 * The address space one ffmpeg may reserve (RLIMIT_AS counts reservations, not only
 * memory in use: x264's threads and glibc's per-thread arenas reserve much more than they touch). A
 * 1080p transcode runs under 512 MB; the template preview composite needs more than 1 GiB and runs
 * under 1.5 GiB, so 2 GiB leaves room. An 8000×8000 AVI peaked near 1.5 GB resident before videos were
 * bounded to 4096×4096 (VIDEO_LIMITS); this is the backstop when a file still asks for more: ffmpeg's
 * allocations fail and the job fails with a message.
 */
export const FFMPEG_ADDRESS_SPACE_BYTES = 2 * 1024 * 1024 * 1024

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function onPath(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, name)
    if (isExecutable(candidate)) return candidate
  }
  return null
}

/**
 * Whether a binary lives inside a node_modules folder (after its links are followed): a static build
 * an npm package ships (@ffmpeg-installer/ffmpeg's is ffmpeg 4.1.0 from 2018), which no system update
 * ever reaches. A production shop refuses it (compose-content.ts).
 */
export function isInsideNodeModules(file: string): boolean {
  let real = file
  try {
    real = realpathSync(file)
  } catch {
    // not there: judged by the name given
  }
  return real.split(path.sep).includes('node_modules')
}

/** Where to look: the settings of platform/env.ts that name ffmpeg's place. */
export type FfmpegSettings = {
  FFMPEG_PATH?: string | undefined
  FFPROBE_PATH?: string | undefined
  PATH?: string | undefined
}

/** What a machine without ffmpeg is told to do: the system package, or the two settings. */
const FFMPEG_MISSING =
  'ffmpeg and ffprobe were not found on PATH: install the system package (apt-get install ffmpeg on Debian and Ubuntu, brew install ffmpeg on macOS) or set FFMPEG_PATH and FFPROBE_PATH.'

/**
 * Finds ffmpeg and ffprobe: FFMPEG_PATH / FFPROBE_PATH when set (they must be executable), else the
 * system's binaries on PATH (Debian's ffmpeg 5.1, installed by .ci/run). Throws a VideoError saying
 * how to install them when absent. The composition root calls it once at start
 * (src/server/compose-content.ts).
 */
export function locateFfmpeg(settings: FfmpegSettings): FfmpegTools {
  const fromEnvFfmpeg = settings.FFMPEG_PATH?.trim()
  const fromEnvFfprobe = settings.FFPROBE_PATH?.trim()
  if (fromEnvFfmpeg || fromEnvFfprobe) {
    if (!fromEnvFfmpeg || !fromEnvFfprobe) {
      throw new VideoError('Set both FFMPEG_PATH and FFPROBE_PATH, or neither.')
    }
    for (const file of [fromEnvFfmpeg, fromEnvFfprobe]) {
      if (!isExecutable(file))
        throw new VideoError(`${file} (from FFMPEG_PATH/FFPROBE_PATH) is not an executable file.`)
    }
    return {
      ffmpeg: fromEnvFfmpeg,
      ffprobe: fromEnvFfprobe,
      source: 'env',
      prlimit: onPath('prlimit', settings.PATH ?? ''),
    }
  }
  const searchPath = settings.PATH ?? ''
  const ffmpeg = onPath('ffmpeg', searchPath)
  const ffprobe = onPath('ffprobe', searchPath)
  if (!ffmpeg || !ffprobe) throw new VideoError(FFMPEG_MISSING)
  return { ffmpeg, ffprobe, source: 'system', prlimit: onPath('prlimit', searchPath) }
}

/** What every function of this folder runs: the two binaries, and the x264 preset to encode with. */
export type VideoTools = FfmpegTools & { x264Preset: X264Preset }

/** The tools the settings name (VIDEO_X264_PRESET included); throws a VideoError as locateFfmpeg. */
export function videoTools(settings: FfmpegSettings & Pick<Env, 'VIDEO_X264_PRESET'>): VideoTools {
  return { ...locateFfmpeg(settings), x264Preset: settings.VIDEO_X264_PRESET }
}

export type RunResult = { stdout: Buffer; stderr: string }

export type RunOptions = {
  timeoutMs: number
  /** Said in the error when the tool fails, e.g. 'Transcoding the video'. */
  what: string
  signal?: AbortSignal
  /** Upper bound on captured stdout (frames, JSON); a larger output is an error, not a memory blow-up. */
  maxStdoutBytes?: number
  /** Runs the binary under this prlimit with FFMPEG_ADDRESS_SPACE_BYTES of address space. */
  prlimit?: string | null | undefined
  /** The address space under prlimit (default FFMPEG_ADDRESS_SPACE_BYTES). */
  addressSpaceBytes?: number
}

const STDERR_KEEP = 4000

function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`
}

/** Turns ffmpeg's stderr into one short human line: the last non-empty line, without noise. */
export function summarizeStderr(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    // "Conversion failed!" closes every failed run and says nothing of why.
    .filter((line) => line.length > 0 && !/^Conversion failed!?$/.test(line))
  const last = lines.at(-1) ?? ''
  return last.replace(/^\[[^\]]+\]\s*/, '').slice(0, 300)
}

/**
 * Runs a binary with arguments (never through a shell), collecting stdout and the tail of stderr.
 * Rejects with a VideoError on a non-zero exit, a signal, a timeout (the process is killed) or an abort.
 */
export function runTool(
  bin: string,
  args: readonly string[],
  options: RunOptions,
): Promise<RunResult> {
  const { timeoutMs, what, signal, maxStdoutBytes = 256 * 1024 * 1024 } = options
  return new Promise<RunResult>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new VideoError(`${what} was cancelled.`))
      return
    }
    const [command, commandArgs] = options.prlimit
      ? [
          options.prlimit,
          [`--as=${options.addressSpaceBytes ?? FFMPEG_ADDRESS_SPACE_BYTES}`, '--', bin, ...args],
        ]
      : [bin, args]
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] })
    const chunks: Buffer[] = []
    let stdoutBytes = 0
    let stderr = ''
    let settled = false
    let failure: VideoError | null = null

    const finish = (error: VideoError | null, result?: RunResult) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      if (error) reject(error)
      else if (result) resolve(result)
    }
    const kill = (error: VideoError) => {
      failure ??= error
      child.kill('SIGKILL')
    }
    const onAbort = () => kill(new VideoError(`${what} was cancelled.`))
    const timer = setTimeout(
      () =>
        kill(
          new VideoError(`${what} took longer than ${formatDuration(timeoutMs)} and was stopped.`),
        ),
      timeoutMs,
    )
    signal?.addEventListener('abort', onAbort, { once: true })

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length
      if (stdoutBytes > maxStdoutBytes) {
        kill(new VideoError(`${what} produced more output than expected and was stopped.`))
        return
      }
      chunks.push(chunk)
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_KEEP)
    })
    child.on('error', (error) => {
      finish(new VideoError(`${what} could not start ${path.basename(bin)}: ${error.message}`))
    })
    child.on('close', (code, killedBy) => {
      if (failure) {
        finish(new VideoError(failure.message, stderr))
        return
      }
      if (code === 0) {
        finish(null, { stdout: Buffer.concat(chunks), stderr })
        return
      }
      const reason =
        summarizeStderr(stderr) || (killedBy ? `stopped by ${killedBy}` : `exit code ${code}`)
      finish(new VideoError(`${what} failed: ${reason}`, stderr))
    })
  })
}
