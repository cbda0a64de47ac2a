// The content worker: rendering billboards (satori, resvg, fonts) and judging pictures (the nudity
// model on tfjs) run in a child process that starts on the first such job and exits once idle. Those
// libraries hold about 250 MB once loaded and V8 never gives it back, so a shop that spends most of
// its time selling slots would carry it for good (server memory under 400 MB). The child is
// the same code (render.ts, moderation/image.ts) behind a small request/answer protocol over Node's IPC
// channel; a crash or a hang fails only the jobs it had, and the next job starts a new child.
import { type ChildProcess, fork } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  type ImageModerationConfig,
  type ImageModerationResult,
  type ImageModerator,
  ModerationError,
  type VideoFramesModerationResult,
} from '../moderation/index.ts'
import type { Logger } from '../platform/log.ts'
import { BUNDLE_DIR, BUNDLED, sourcePath } from '../platform/paths.ts'
import { type PngRenderer, RenderError, type RenderInput } from './render.ts'

export type WorkerJob =
  | { op: 'render'; input: RenderInput }
  | { op: 'moderateImage'; image: Uint8Array }
  | { op: 'moderateVideoFrames'; frames: ReadonlyArray<Uint8Array | string> }
  | { op: 'warmUp' }
export type WorkerRequest = WorkerJob & { id: number }

export type WorkerAnswer =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { name: string; message: string } }

/** What the child needs to know, passed as JSON in its one argument (content-worker-main.ts). */
export type WorkerSettings = { moderation: ImageModerationConfig | null }

export type ContentWorkerOptions = {
  settings: WorkerSettings
  log: Logger
  /** The child exits after this long without a job (CONTENT_WORKER_IDLE_SECONDS). */
  idleMs: number
  /** A job that takes longer fails and the child is stopped (a hung renderer must not hold a request). */
  jobTimeoutMs?: number
  /**
   * The environment the child runs with (PATH, NODE_OPTIONS...): the server's own, handed over by the
   * composition root (src/server/compose.ts), since the child runs Node and tsx as the server does.
   */
  childEnv: Readonly<Record<string, string | undefined>>
}

export type ContentWorker = {
  render: PngRenderer
  /** The nudity model behind the same interface as the in-process one (moderation/image.ts). */
  imageModerator: ImageModerator | null
  /** The child's pid while it runs (benchmarks read its memory), else null. */
  pid(): number | null
  close(): Promise<void>
}

// The child runs what the server runs: the bundle's entry beside it, or the TypeScript sources through
// tsx (found from this package, not the cwd).
const ENTRY = BUNDLED
  ? join(BUNDLE_DIR, 'content-worker-main.mjs')
  : sourcePath('server', 'content', 'content-worker-main.ts')
const EXEC_ARGV = BUNDLED
  ? []
  : ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]

type Pending = {
  resolve: (value: unknown) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
  op: WorkerRequest['op']
}

/**
 * The error a job fails with, in the classes its callers test for: a picture that could not be judged is
 * a ModerationError (moderate.ts sends it to review); a render keeps RenderError (generate.ts shows its
 * message), anything else is a plain Error (a generic message).
 */
function jobError(op: WorkerRequest['op'], message: string, name = 'Error'): Error {
  if (op !== 'render') return new ModerationError(message)
  return name === 'RenderError' ? new RenderError(message) : new Error(message)
}

export function createContentWorker(options: ContentWorkerOptions): ContentWorker {
  const log = options.log.child({ component: 'content-worker' })
  const jobTimeoutMs = options.jobTimeoutMs ?? 120_000
  let child: ChildProcess | null = null
  let nextId = 1
  let closed = false
  let idleTimer: NodeJS.Timeout | null = null
  const pending = new Map<number, Pending>()

  const failAll = (message: string) => {
    for (const [id, job] of pending) {
      clearTimeout(job.timer)
      pending.delete(id)
      job.reject(jobError(job.op, message))
    }
  }

  const stopChild = (reason: string) => {
    const current = child
    if (!current) return
    child = null
    log.info('content worker stopping', { pid: current.pid, reason })
    if (current.connected) current.disconnect()
    // A child that does not leave on its own within a few seconds is made to.
    const kill = setTimeout(() => current.kill('SIGKILL'), 5000)
    kill.unref()
    current.once('exit', () => clearTimeout(kill))
  }

  const armIdle = () => {
    if (idleTimer) clearTimeout(idleTimer)
    idleTimer = null
    if (pending.size > 0 || !child) return
    idleTimer = setTimeout(() => stopChild('idle'), options.idleMs)
    idleTimer.unref()
  }

  const start = (): ChildProcess => {
    const started = fork(ENTRY, [JSON.stringify(options.settings)], {
      execArgv: EXEC_ARGV,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        // libvips (sharp) threads each take a glibc malloc arena; two arenas keep the worker about
        // 25 MB smaller with no measurable cost to rendering (the operator's own setting wins).
        MALLOC_ARENA_MAX: '2',
        ...options.childEnv,
      },
    })
    log.info('content worker started', { pid: started.pid })
    started.on('message', (message: WorkerAnswer) => {
      const job = pending.get(message.id)
      if (!job) return
      pending.delete(message.id)
      clearTimeout(job.timer)
      if (message.ok) job.resolve(message.result)
      else job.reject(jobError(job.op, message.error.message, message.error.name))
      armIdle()
    })
    started.on('exit', (code, signal) => {
      if (child === started) {
        child = null
        log.warn('content worker exited', { pid: started.pid, code, signal })
        failAll('The content worker stopped before it finished')
      }
    })
    started.on('error', (error) => log.error('content worker error', { error }))
    return started
  }

  const call = <T>(request: WorkerJob): Promise<T> => {
    if (closed) return Promise.reject(new Error('The content service is stopping'))
    if (idleTimer) clearTimeout(idleTimer)
    idleTimer = null
    child ??= start()
    const current = child
    const id = nextId++
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        // The job is hung: its child is stopped, failing whatever else it had.
        pending.delete(id)
        reject(
          jobError(
            request.op,
            request.op === 'render'
              ? 'Rendering took too long'
              : 'Checking the picture took too long',
          ),
        )
        if (child === current) {
          child = null
          current.kill('SIGKILL')
          failAll('The content worker was stopped')
        }
      }, jobTimeoutMs)
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer, op: request.op })
      current.send({ ...request, id } as WorkerRequest, (error) => {
        if (!error) return
        const job = pending.get(id)
        if (!job) return
        pending.delete(id)
        clearTimeout(job.timer)
        job.reject(jobError(request.op, error.message))
      })
    })
  }

  const render: PngRenderer = async (input) => {
    const png = await call<Uint8Array>({ op: 'render', input })
    // Structured clone hands a Uint8Array: the same bytes as a Buffer, without a copy.
    return Buffer.from(png.buffer, png.byteOffset, png.byteLength)
  }

  const moderation = options.settings.moderation
  const imageModerator: ImageModerator | null = moderation
    ? {
        thresholds: moderation.thresholds,
        moderateImage: (image) => call<ImageModerationResult>({ op: 'moderateImage', image }),
        moderateVideoFrames: (frames) =>
          call<VideoFramesModerationResult>({ op: 'moderateVideoFrames', frames }),
        warmUp: () => call<void>({ op: 'warmUp' }),
      }
    : null

  return {
    render,
    imageModerator,
    pid: () => child?.pid ?? null,
    close: async () => {
      closed = true
      if (idleTimer) clearTimeout(idleTimer)
      const current = child
      failAll('The content service is stopping')
      if (!current) return
      const exited = new Promise((resolve) => current.once('exit', resolve))
      stopChild('server stopping')
      await exited
    },
  }
}
