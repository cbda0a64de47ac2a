// Nudity detection on photos and video frames (spec §5; "nudity detection with a model that
// ships inside an npm package and runs here without downloads"). nsfwjs's MobileNetV2 weights are
// bundled in the nsfwjs package itself; TensorFlow.js runs on its WebAssembly backend (its .wasm files
// ship in @tensorflow/tfjs-backend-wasm), about 50 ms per image on this machine, or on the pure
// JavaScript cpu backend (~1 s). Images are decoded with sharp, not tfjs-node (which cannot install here).
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type * as Tf from '@tensorflow/tfjs'
import type { ModelDefinition, NSFWJS } from 'nsfwjs/core'
import sharp from 'sharp'
import type { Env } from '../platform/env.ts'

export const NSFW_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const
export type NsfwClass = (typeof NSFW_CLASSES)[number]
/** Probability per class, summing to about 1. */
export type NsfwScores = Record<NsfwClass, number>

/** A picture is flagged when any of these scores reaches its threshold. */
export type NsfwThresholds = { porn: number; hentai: number; sexy: number }

// A flag sends the order to review rather than refusing it (UnderReview), so the defaults lean
// towards caution: a public billboard should not show even "sexy" content unseen.
export const DEFAULT_NSFW_THRESHOLDS: NsfwThresholds = { porn: 0.5, hentai: 0.5, sexy: 0.7 }

export type NsfwModelName = 'MobileNetV2' | 'MobileNetV2Mid' | 'InceptionV3'
export type TfBackend = 'wasm' | 'cpu'

export type ImageModerationConfig = {
  thresholds: NsfwThresholds
  model: NsfwModelName
  backend: TfBackend
  /** Frames sampled from a video for the check (used by whoever calls extractFrames). */
  videoFrames: number
}

export type ImageModerationResult = {
  flagged: boolean
  scores: NsfwScores
  /** e.g. ['Porn 0.93 ≥ 0.5']; empty when clean. */
  reasons: string[]
}

export type VideoFramesModerationResult = {
  flagged: boolean
  /** The highest score of each class over all frames. */
  scores: NsfwScores
  reasons: string[]
  /** Indexes (into the frames given) of the frames that were flagged. */
  flaggedFrames: number[]
  frames: ImageModerationResult[]
}

export type ImageModerator = {
  readonly thresholds: NsfwThresholds
  /** Scores one image (jpeg, png, gif, webp, avif, tiff; an animated gif on up to 8 of its frames). */
  moderateImage(image: Uint8Array): Promise<ImageModerationResult>
  /** Scores sampled frames of a video (PNG buffers from extractFrames, or paths of image files). */
  moderateVideoFrames(
    frames: ReadonlyArray<Uint8Array | string>,
  ): Promise<VideoFramesModerationResult>
  /** Loads the model now instead of on the first image (e.g. at server start). */
  warmUp(): Promise<void>
}

/** An image that cannot be judged: not decodable, or the model failed to load. */
export class ModerationError extends Error {
  override readonly name = 'ModerationError'
}

/** The moderation settings of platform/env.ts (MODERATION_*, parsed, their defaults applied). */
export type ModerationSettings = Pick<
  Env,
  | 'MODERATION_NSFW_THRESHOLD'
  | 'MODERATION_HENTAI_THRESHOLD'
  | 'MODERATION_SEXY_THRESHOLD'
  | 'MODERATION_NSFW_MODEL'
  | 'MODERATION_TF_BACKEND'
  | 'MODERATION_VIDEO_FRAMES'
>

/**
 * The image moderation configuration from the parsed settings: MODERATION_NSFW_THRESHOLD (Porn, and
 * Hentai unless MODERATION_HENTAI_THRESHOLD is set), MODERATION_SEXY_THRESHOLD, MODERATION_NSFW_MODEL,
 * MODERATION_TF_BACKEND, MODERATION_VIDEO_FRAMES (their defaults and checks are in platform/env.ts).
 */
export function imageModerationConfig(settings: ModerationSettings): ImageModerationConfig {
  return {
    thresholds: {
      porn: settings.MODERATION_NSFW_THRESHOLD,
      hentai: settings.MODERATION_HENTAI_THRESHOLD ?? settings.MODERATION_NSFW_THRESHOLD,
      sexy: settings.MODERATION_SEXY_THRESHOLD,
    },
    model: settings.MODERATION_NSFW_MODEL,
    backend: settings.MODERATION_TF_BACKEND,
    videoFrames: settings.MODERATION_VIDEO_FRAMES,
  }
}

type TfModules = {
  tf: typeof Tf
  setWasmPaths: typeof import('@tensorflow/tfjs-backend-wasm')['setWasmPaths']
  NSFWJS: typeof NSFWJS
}
let tfModules: Promise<TfModules> | null = null

// TensorFlow.js, its wasm backend and nsfwjs take about 100 MB of memory once loaded: they are loaded
// on the first image to judge, not at server start (server memory under 400 MB).
function loadTf(): Promise<TfModules> {
  tfModules ??= (async () => {
    const [tf, wasm, nsfwjs] = await Promise.all([
      import('@tensorflow/tfjs'),
      import('@tensorflow/tfjs-backend-wasm'),
      import('nsfwjs/core'),
    ])
    return { tf, setWasmPaths: wasm.setWasmPaths, NSFWJS: nsfwjs.NSFWJS }
  })()
  tfModules.catch(() => {
    tfModules = null
  })
  return tfModules
}

let backendReady: Promise<void> | null = null

/** Picks the TensorFlow.js backend once per process; wasm falls back to cpu if it cannot start. */
function prepareBackend(backend: TfBackend): Promise<void> {
  backendReady ??= (async () => {
    const { tf, setWasmPaths } = await loadTf()
    // Quiet tfjs's debug checks and its advice to install tfjs-node (which cannot install here).
    tf.enableProdMode()
    if (backend === 'wasm') {
      // Point the wasm backend at its own .wasm files inside node_modules: no CDN, no network.
      const require = createRequire(import.meta.url)
      const wasmDir = path.join(
        path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')),
        'dist',
      )
      setWasmPaths(`${wasmDir}${path.sep}`)
      if (await tf.setBackend('wasm').catch(() => false)) {
        await tf.ready()
        return
      }
    }
    await tf.setBackend('cpu')
    await tf.ready()
  })()
  return backendReady
}

const definitions: Record<NsfwModelName, () => Promise<ModelDefinition>> = {
  MobileNetV2: async () => (await import('nsfwjs/models/mobilenet_v2')).MobileNetV2Model,
  MobileNetV2Mid: async () => (await import('nsfwjs/models/mobilenet_v2_mid')).MobileNetV2MidModel,
  InceptionV3: async () => (await import('nsfwjs/models/inception_v3')).InceptionV3Model,
}

const models = new Map<NsfwModelName, Promise<NSFWJS>>()

/**
 * Loads a bundled nsfwjs model from the weights inside the nsfwjs package, through an in-memory IO
 * handler (nsfwjs's own loader would do the same but logs an advert for hosting the model elsewhere).
 */
function loadModel(name: NsfwModelName, backend: TfBackend): Promise<NSFWJS> {
  let loading = models.get(name)
  if (!loading) {
    loading = (async () => {
      await prepareBackend(backend)
      const { NSFWJS } = await loadTf()
      const definition = await definitions[name]()
      const modelJson = (await definition.modelJson()).default
      const shards = await Promise.all(
        definition.weightBundles.map(async (bundle) => (await bundle()).default),
      )
      const weightData = Buffer.concat(shards.map((base64) => Buffer.from(base64, 'base64')))
      const weightSpecs = (modelJson.weightsManifest ?? []).flatMap((group) => group.weights)
      const artifacts: Tf.io.ModelArtifacts = {
        modelTopology: modelJson.modelTopology,
        format: modelJson.format,
        generatedBy: modelJson.generatedBy,
        convertedBy: modelJson.convertedBy,
        weightSpecs,
        weightData: weightData.buffer.slice(
          weightData.byteOffset,
          weightData.byteOffset + weightData.byteLength,
        ),
      }
      const handler: Tf.io.IOHandler = { load: async () => artifacts }
      const model = new NSFWJS(handler, { size: 224, ...definition.options })
      await model.load()
      return model
    })()
    // A failed load is not cached: the next image tries again.
    loading.catch(() => models.delete(name))
    models.set(name, loading)
  }
  return loading
}

const MAX_GIF_FRAMES = 8

/** Decodes an image with sharp into model-ready RGB pixels (upright, alpha on white, squashed square). */
async function toPixels(image: Uint8Array | Buffer, size: number, page?: number) {
  const { data, info } = await sharp(image, { page, limitInputPixels: 100_000_000 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize(size, size, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

function scoresOf(
  predictions: ReadonlyArray<{ className: string; probability: number }>,
): NsfwScores {
  const scores: NsfwScores = { Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0 }
  for (const { className, probability } of predictions) {
    if ((NSFW_CLASSES as readonly string[]).includes(className))
      scores[className as NsfwClass] = probability
  }
  return scores
}

function judge(scores: NsfwScores, thresholds: NsfwThresholds): ImageModerationResult {
  const checks: Array<[NsfwClass, number]> = [
    ['Porn', thresholds.porn],
    ['Hentai', thresholds.hentai],
    ['Sexy', thresholds.sexy],
  ]
  const reasons = checks
    .filter(([name, threshold]) => scores[name] >= threshold)
    .map(([name, threshold]) => `${name} ${scores[name].toFixed(2)} ≥ ${threshold}`)
  return { flagged: reasons.length > 0, scores, reasons }
}

function maxScores(all: NsfwScores[]): NsfwScores {
  const max: NsfwScores = { Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0 }
  for (const scores of all)
    for (const name of NSFW_CLASSES) max[name] = Math.max(max[name], scores[name])
  return max
}

export type CreateImageModeratorOptions = {
  thresholds?: Partial<NsfwThresholds>
  model?: NsfwModelName
  backend?: TfBackend
}

/**
 * An image moderator with the given thresholds (see imageModerationConfig). The model is loaded
 * once per process, on the first image or on warmUp(), and shared by every moderator.
 */
export function createImageModerator(options: CreateImageModeratorOptions = {}): ImageModerator {
  const thresholds: NsfwThresholds = { ...DEFAULT_NSFW_THRESHOLDS, ...options.thresholds }
  for (const [name, value] of Object.entries(thresholds)) {
    if (!(value >= 0 && value <= 1))
      throw new Error(`The ${name} threshold must be between 0 and 1, not ${value}.`)
  }
  const modelName = options.model ?? 'MobileNetV2'
  const backend = options.backend ?? 'wasm'
  const size = modelName === 'InceptionV3' ? 299 : 224

  const model = async () => {
    try {
      return await loadModel(modelName, backend)
    } catch (error) {
      throw new ModerationError(`The nudity model could not be loaded: ${(error as Error).message}`)
    }
  }

  const classifyPixels = async (pixels: {
    data: Buffer
    width: number
    height: number
  }): Promise<NsfwScores> => {
    const nsfw = await model()
    const { tf } = await loadTf()
    const input = tf.tensor3d(
      new Uint8Array(pixels.data),
      [pixels.height, pixels.width, 3],
      'int32',
    )
    try {
      return scoresOf(await nsfw.classify(input))
    } finally {
      input.dispose()
    }
  }

  const scoreImage = async (image: Uint8Array): Promise<NsfwScores> => {
    let pages: number
    try {
      pages = (await sharp(image, { limitInputPixels: 100_000_000 }).metadata()).pages ?? 1
    } catch {
      throw new ModerationError('The image could not be read.')
    }
    // An animated GIF can hide a frame: look at up to 8 spread over it and keep the worst.
    const count = Math.min(pages, MAX_GIF_FRAMES)
    const indexes =
      count > 1
        ? Array.from({ length: count }, (_, i) => Math.floor((i * pages) / count))
        : [undefined]
    const all: NsfwScores[] = []
    for (const page of indexes) {
      let pixels: Awaited<ReturnType<typeof toPixels>>
      try {
        pixels = await toPixels(image, size, page)
      } catch {
        throw new ModerationError('The image could not be read.')
      }
      all.push(await classifyPixels(pixels))
    }
    return all.length === 1 && all[0] ? all[0] : maxScores(all)
  }

  const moderateImage = async (image: Uint8Array) => judge(await scoreImage(image), thresholds)

  return {
    thresholds,
    moderateImage,
    async moderateVideoFrames(frames) {
      if (frames.length === 0) throw new ModerationError('There are no video frames to look at.')
      const results: ImageModerationResult[] = []
      for (const frame of frames) {
        const bytes = typeof frame === 'string' ? await readFile(frame) : frame
        results.push(await moderateImage(bytes))
      }
      const scores = maxScores(results.map((result) => result.scores))
      const flaggedFrames = results.flatMap((result, index) => (result.flagged ? [index] : []))
      return {
        flagged: flaggedFrames.length > 0,
        scores,
        reasons: flaggedFrames.flatMap((index) =>
          (results[index]?.reasons ?? []).map((r) => `frame ${index}: ${r}`),
        ),
        flaggedFrames,
        frames: results,
      }
    },
    async warmUp() {
      await model()
    },
  }
}
