import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEnv } from '../platform/env.ts'
import { videoTools } from '../video/ffmpeg.ts'
import { extractFrames } from '../video/frames.ts'
import { makeTestVideo } from '../video/test-videos.ts'
import {
  createImageModerator,
  DEFAULT_NSFW_THRESHOLDS,
  imageModerationConfig,
  ModerationError,
  NSFW_CLASSES,
} from './image.ts'

const tools = videoTools(parseEnv(process.env))
// The settings as the server reads them: through the one schema (platform/env.ts).
const configOf = (env: Record<string, string>) => imageModerationConfig(parseEnv(env))

// One moderator for the file: the model loads once (lazily, on warmUp here).
const moderator = createImageModerator()
let dir = ''

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'shouts-moderation-'))
  await moderator.warmUp()
}, 60_000)

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A horizontal colour gradient, as a JPEG. */
async function gradient(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3
      pixels[at] = Math.round((255 * x) / width)
      pixels[at + 1] = Math.round((255 * y) / height)
      pixels[at + 2] = 160
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer()
}

/** A billboard-like text card (a transparent PNG with words). */
async function textCard(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="400">
    <rect x="40" y="40" width="1320" height="320" rx="30" fill="#1d3557"/>
    <text x="700" y="230" font-size="96" text-anchor="middle" fill="#f1faee" font-family="sans-serif">Happy birthday Sam!</text>
  </svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

describe('moderateImage', () => {
  it('passes a generated gradient clean, with a probability for each class', async () => {
    const result = await moderator.moderateImage(await gradient(640, 480))
    expect(result.flagged).toBe(false)
    expect(result.reasons).toEqual([])
    expect(Object.keys(result.scores).sort()).toEqual([...NSFW_CLASSES])
    const total = Object.values(result.scores).reduce((sum, value) => sum + value, 0)
    expect(total).toBeGreaterThan(0.98)
    expect(total).toBeLessThan(1.02)
  })

  it('passes a rendered text card clean', async () => {
    const result = await moderator.moderateImage(await textCard())
    expect(result.flagged).toBe(false)
    expect(result.scores.Porn).toBeLessThan(DEFAULT_NSFW_THRESHOLDS.porn)
  })

  it('flags by the configured thresholds', async () => {
    const image = await gradient(300, 300)
    const { scores } = await moderator.moderateImage(image)
    // A threshold just under this image's Sexy score flags it; just over does not.
    const strict = createImageModerator({ thresholds: { sexy: scores.Sexy * 0.99 } })
    const lenient = createImageModerator({
      thresholds: { sexy: Math.min(1, scores.Sexy * 1.01 + 1e-6) },
    })
    const flagged = await strict.moderateImage(image)
    expect(flagged.flagged).toBe(true)
    expect(flagged.reasons).toEqual([`Sexy ${scores.Sexy.toFixed(2)} ≥ ${scores.Sexy * 0.99}`])
    expect((await lenient.moderateImage(image)).flagged).toBe(false)
  })

  it('refuses bytes that are not an image', async () => {
    await expect(moderator.moderateImage(Buffer.from('not an image at all'))).rejects.toThrow(
      new ModerationError('The image could not be read.'),
    )
  })

  it('looks at every frame of a short animated GIF and keeps the worst score', async () => {
    const pictures = [await gradient(96, 64), await textCard(), await gradient(64, 96)]
    const gif = await sharp(pictures, { join: { animated: true } })
      .gif()
      .toBuffer()
    expect((await sharp(gif).metadata()).pages).toBe(3)
    const result = await moderator.moderateImage(gif)
    expect(result.flagged).toBe(false)
    const perFrame = await Promise.all(
      [0, 1, 2].map(
        async (page) =>
          (await moderator.moderateImage(await sharp(gif, { page }).png().toBuffer())).scores,
      ),
    )
    for (const name of NSFW_CLASSES) {
      expect(result.scores[name]).toBeCloseTo(
        Math.max(...perFrame.map((scores) => scores[name])),
        3,
      )
    }
  })
})

describe('moderateVideoFrames', () => {
  it('passes frames sampled from a generated video, given as buffers or paths', async () => {
    const video = await makeTestVideo(tools, path.join(dir, 'clip.mp4'), {
      seconds: 2,
      width: 320,
      height: 240,
    })
    const frames = await extractFrames(tools, video, 3)
    const result = await moderator.moderateVideoFrames(frames)
    expect(result.flagged).toBe(false)
    expect(result.frames).toHaveLength(3)
    expect(result.flaggedFrames).toEqual([])
    // The summary holds the worst score of each class.
    expect(result.scores.Porn).toBe(Math.max(...result.frames.map((frame) => frame.scores.Porn)))

    const framePath = path.join(dir, 'frame.png')
    await writeFile(framePath, frames[0] ?? Buffer.alloc(0))
    const fromPath = await moderator.moderateVideoFrames([framePath])
    expect(fromPath.frames[0]?.scores).toEqual(result.frames[0]?.scores)
    // two ffmpeg runs and four passes of the model: more than the default 5 s beside another suite
  }, 30_000)

  it('names the flagged frames', async () => {
    const frames = [await gradient(200, 200), await textCard()]
    const strict = createImageModerator({ thresholds: { porn: 0, hentai: 1, sexy: 1 } })
    const result = await strict.moderateVideoFrames(frames)
    expect(result.flagged).toBe(true)
    expect(result.flaggedFrames).toEqual([0, 1])
    expect(result.reasons[0]).toMatch(/^frame 0: Porn /)
  })
})

describe('imageModerationConfig', () => {
  it('uses the moderator defaults when nothing is set', () => {
    expect(configOf({})).toEqual({
      thresholds: DEFAULT_NSFW_THRESHOLDS,
      model: 'MobileNetV2',
      backend: 'wasm',
      videoFrames: 6,
    })
  })

  it('reads every setting', () => {
    expect(
      configOf({
        MODERATION_NSFW_THRESHOLD: '0.8',
        MODERATION_SEXY_THRESHOLD: ' 0.9 ',
        MODERATION_NSFW_MODEL: 'InceptionV3',
        MODERATION_TF_BACKEND: 'cpu',
        MODERATION_VIDEO_FRAMES: '10',
      }),
    ).toEqual({
      thresholds: { porn: 0.8, hentai: 0.8, sexy: 0.9 },
      model: 'InceptionV3',
      backend: 'cpu',
      videoFrames: 10,
    })
    expect(configOf({ MODERATION_HENTAI_THRESHOLD: '0.3' }).thresholds.hentai).toBe(0.3)
  })

  it('refuses bad values, naming them', () => {
    expect(() =>
      configOf({
        MODERATION_NSFW_THRESHOLD: '1.5',
        MODERATION_TF_BACKEND: 'gpu',
      }),
    ).toThrow(/MODERATION_NSFW_THRESHOLD: must be between 0 and 1[\s\S]*MODERATION_TF_BACKEND/)
    expect(() => configOf({ MODERATION_SEXY_THRESHOLD: 'high' })).toThrow(
      /MODERATION_SEXY_THRESHOLD/,
    )
  })
})
