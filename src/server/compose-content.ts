import { resolve } from 'node:path'
import { createContentWorker } from './content/content-worker.ts'
import { renderTemplatePng } from './content/render.ts'
import { createS3Storage, s3Config } from './content/s3-storage.ts'
import { type ContentDeps, type ContentService, createContentService } from './content/service.ts'
import { type ContentStorage, createContentStorage, namingOutages } from './content/storage.ts'
import { createImageModerator, imageModerationConfig } from './moderation/index.ts'
import type { Database } from './platform/db/client.ts'
import type { Env } from './platform/env.ts'
import { type LeaseSettings, newInstanceId } from './platform/lease.ts'
import type { Logger } from './platform/log.ts'
import type { RateLimiter } from './platform/rate-limit.ts'
import { isInsideNodeModules, type VideoTools, videoTools } from './video/index.ts'

// The composition root's content part (compose.ts builds the rest): storage, the content worker,
// the nudity model and ffmpeg from the settings, and the content service on them.

/** Replacements for the content defaults (tests: video processors and generators). */
export type ContentOverrides = Partial<
  Pick<ContentDeps, 'processors' | 'generators' | 'jobHandlers' | 'moderate'>
> & {
  /** Wraps the storage built from the settings (tests: a disk that fills up). */
  storage?: (built: ContentStorage) => ContentStorage
  /** ffmpeg as composeVideo found it (null: photo shouts only); default: found here. */
  video?: VideoTools | null
}

/** A client's uploaded bytes per hour, counted on the shared limiter (every instance sees them). */
function uploadQuota(limiter: RateLimiter, env: Env) {
  const rule = {
    bucket: 'upload-bytes',
    limit: env.UPLOAD_BYTES_PER_CLIENT_HOUR,
    windowMs: 60 * 60 * 1000,
  }
  return async (clientKey: string, bytes: number) => ({
    ...(await limiter.take(rule, clientKey, bytes)),
    limit: rule.limit,
  })
}

/** A new instance id, and LEASE_SECONDS. */
export function leaseSettings(env: Env): LeaseSettings {
  return { owner: newInstanceId(), leaseMs: Math.round(env.LEASE_SECONDS * 1000) }
}

/**
 * ffmpeg from the settings (FFMPEG_PATH, FFPROBE_PATH, PATH, VIDEO_X264_PRESET), or null: this server
 * then makes photo shouts only. Throws when the settings name a wrong one, and in production
 * (APP_ENV=prod) when there is none or it is an npm package's static build (decision 026): a shop sells
 * video shouts, and ffmpeg parses strangers' uploads. startServer (main.ts) calls it before anything
 * is opened, so a refused start leaves nothing open.
 */
export function composeVideo(
  env: Env,
  log: Logger,
  overrides: ContentOverrides = {},
): VideoTools | null {
  let tools: VideoTools
  try {
    tools = videoTools(env)
  } catch (error) {
    // Set but wrong is a configuration error; absent only means this server makes photo shouts.
    if (env.FFMPEG_PATH || env.FFPROBE_PATH) throw error
    if (env.APP_ENV === 'prod') {
      throw new Error(
        `A production shop (APP_ENV=prod) makes video shouts with ffmpeg. ${(error as Error).message}`,
      )
    }
    // said unless a test's own processors and generators stand in for ffmpeg
    if (!overrides.processors || !overrides.generators) {
      log
        .child({ component: 'content' })
        .warn('video shouts unavailable', { reason: (error as Error).message })
    }
    return null
  }
  const bundled = [tools.ffmpeg, tools.ffprobe].filter(isInsideNodeModules)
  if (env.APP_ENV === 'prod' && bundled.length > 0) {
    throw new Error(
      `${bundled.join(' and ')}: a production shop (APP_ENV=prod) never runs an ffmpeg from node_modules (an npm package's static build, which no system update reaches, would parse strangers' uploads). Install the system package (apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH to a maintained build.`,
    )
  }
  return tools
}

/**
 * The content service and what it runs on, from the settings: storage (S3_* or DATA_DIR), the content
 * worker (CONTENT_WORKER*), the nudity model (MODERATION_*), ffmpeg (composeVideo, unless given).
 */
export function composeContent(
  env: Env,
  platform: {
    database: Database
    log: Logger
    childEnv: Readonly<Record<string, string | undefined>>
    /** Default: a new instance id (a second content service on the same database is another owner). */
    lease?: LeaseSettings
    /** The shared limiter counting each client's uploaded bytes; none: uploads are not counted. */
    limiter?: RateLimiter
  },
  overrides: ContentOverrides = {},
): { service: ContentService; storage: ContentStorage; workerPid(): number | null } {
  const log = platform.log.child({ component: 'content' })
  const dataDir = resolve(env.DATA_DIR)
  const bucket = s3Config(env)
  const { storage: wrapStorage, video: found, ...contentOverrides } = overrides
  const built = bucket ? createS3Storage(dataDir, bucket) : createContentStorage(dataDir)
  // (a test's wrapper inside: the faults it makes are named as a real one's would be)
  const storage = namingOutages(wrapStorage ? wrapStorage(built) : built)
  if (bucket)
    log.info('content stored in a bucket', { bucket: bucket.bucket, endpoint: bucket.endpoint })

  // Defaults: videos through ffmpeg, moderation by the bundled model.
  const usesDefaults = !overrides.moderate || !overrides.processors || !overrides.generators
  const moderation = usesDefaults ? imageModerationConfig(env) : null
  const video = found !== undefined ? found : composeVideo(env, platform.log, overrides)
  // Rendering and the nudity model run in the content worker (content-worker.ts) unless told otherwise.
  // The model is not warmed up at start: it is loaded on the first picture to judge (about 1 s once),
  // so a server that only sells slots stays small (memory under 400 MB).
  const worker =
    env.CONTENT_WORKER === 'process'
      ? createContentWorker({
          settings: { moderation },
          log,
          idleMs: env.CONTENT_WORKER_IDLE_SECONDS * 1000,
          childEnv: platform.childEnv,
        })
      : null
  const service = createContentService({
    database: platform.database,
    log: platform.log,
    storage,
    dataDir,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    render: worker?.render ?? renderTemplatePng,
    imageModerator: worker
      ? worker.imageModerator
      : moderation
        ? createImageModerator(moderation)
        : null,
    video,
    videoFrames: env.MODERATION_VIDEO_FRAMES,
    lease: platform.lease ?? leaseSettings(env),
    jobsPerClient: env.CONTENT_JOBS_PER_CLIENT,
    unorderedTtlMs: env.UNORDERED_CONTENT_TTL_HOURS * 60 * 60 * 1000,
    ...(platform.limiter ? { uploadQuota: uploadQuota(platform.limiter, env) } : {}),
    ...(worker ? { onClose: () => worker.close() } : {}),
    ...contentOverrides,
  })
  return { service, storage, workerPid: () => worker?.pid() ?? null }
}
