// Prints p50/p95 for moderating one photo and for making a 10-second 720p video ready (issue 5, "Tests
// and figures": photo moderation under 400 ms, the 10-second video ready in under 15 s).
// Run: npm run bench:moderation [-- --runs 5]
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import {
  createImageModerator,
  imageModerationConfigFromEnv,
} from '../src/server/moderation/index.ts'
import { composite, processVideoUpload, transcode } from '../src/server/video/index.ts'
import { makeTestVideo } from '../src/server/video/test-videos.ts'

const runsArg = process.argv.indexOf('--runs')
const videoRuns = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5
const photoRuns = 40

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return sorted[Math.max(0, index)] ?? Number.NaN
}

function report(name: string, samples: number[], unit: 'ms' | 's', target: number): void {
  const sorted = [...samples].sort((a, b) => a - b)
  const scale = unit === 's' ? 1000 : 1
  const format = (ms: number) => (ms / scale).toFixed(unit === 's' ? 2 : 0)
  const p50 = percentile(sorted, 50)
  const p95 = percentile(sorted, 95)
  const verdict = p95 / scale < target ? 'meets' : 'MISSES'
  console.log(
    `${name.padEnd(52)} n=${String(samples.length).padStart(2)}  p50 ${format(p50)} ${unit}  p95 ${format(p95)} ${unit}  (target < ${target} ${unit}: ${verdict})`,
  )
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

/** A photo-sized JPEG with gradients and grain, so decoding costs what a real photo costs. */
async function photo(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3)
  let seed = 7
  for (let i = 0; i < pixels.length; i += 3) {
    const x = (i / 3) % width
    const y = Math.floor(i / 3 / width)
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    const grain = (seed % 40) - 20
    pixels[i] = Math.max(0, Math.min(255, Math.round((200 * x) / width) + grain))
    pixels[i + 1] = Math.max(0, Math.min(255, Math.round((180 * y) / height) + grain))
    pixels[i + 2] = Math.max(0, Math.min(255, 120 + grain))
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer()
}

const dir = await mkdtemp(path.join(tmpdir(), 'shouts-bench-'))
try {
  // Figures from a busy machine are not the product's: say how busy it was.
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')
  console.log(`machine: ${cpus().length} cores, load average ${load()}`)
  const config = imageModerationConfigFromEnv()
  const moderator = createImageModerator(config)
  console.log(
    `moderation: ${config.model} on the ${config.backend} backend, thresholds ${JSON.stringify(config.thresholds)}`,
  )

  const loadMs = await time(() => moderator.warmUp())
  console.log(`model load (once per process): ${loadMs.toFixed(0)} ms`)

  const image = await photo(1600, 1200)
  await moderator.moderateImage(image) // first inference compiles kernels
  const photoTimes: number[] = []
  for (let i = 0; i < photoRuns; i++)
    photoTimes.push(await time(() => moderator.moderateImage(image)))
  report('moderate one photo (1600x1200 JPEG)', photoTimes, 'ms', 400)

  const input = path.join(dir, 'ten-seconds-720p.mp4')
  // Grain on every frame makes the picture as hard to encode as phone footage (a clean test pattern
  // would flatter the figures).
  await makeTestVideo(input, {
    seconds: 10,
    width: 1280,
    height: 720,
    fps: 30,
    audio: true,
    // At about the bitrate a phone records 720p with (8 Mb/s).
    extraArgs: [
      '-vf',
      'noise=alls=12:allf=t+u',
      '-b:v',
      '8M',
      '-maxrate',
      '10M',
      '-bufsize',
      '16M',
    ],
  })
  const { size } = await stat(input)
  console.log(
    `video input: 10 s, 1280x720, 30 fps, with sound and grain, ${(size / 1e6).toFixed(1)} MB`,
  )
  const overlay = path.join(dir, 'overlay.png')
  await sharp({
    create: { width: 1400, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      {
        input: Buffer.from(
          '<svg width="1400" height="400"><rect width="500" height="400" fill="#1d3557"/></svg>',
        ),
        left: 0,
        top: 0,
      },
    ])
    .png()
    .toFile(overlay)

  const transcodeTimes: number[] = []
  const readyTimes: number[] = []
  const compositeTimes: number[] = []
  for (let run = 0; run < videoRuns; run++) {
    const output = path.join(dir, `out-${run}.mp4`)
    transcodeTimes.push(await time(() => transcode({ input, output, maxLengthSeconds: 8 })))
    const ready = path.join(dir, `ready-${run}.mp4`)
    readyTimes.push(
      await time(async () => {
        const processed = await processVideoUpload({
          input,
          output: ready,
          maxLengthSeconds: 10,
          frameCount: config.videoFrames,
        })
        await moderator.moderateVideoFrames(processed.frames)
      }),
    )
    compositeTimes.push(
      await time(() =>
        composite({
          videoPath: ready,
          overlayPngPath: overlay,
          width: 1400,
          height: 400,
          output: path.join(dir, `composite-${run}.mp4`),
          maxLengthSeconds: 10,
        }),
      ),
    )
  }
  report('transcode 10 s 720p30 to H.264, trimmed to 8 s', transcodeTimes, 's', 15)
  report(
    `video ready: sniff+probe+transcode+${config.videoFrames} frames moderated`,
    readyTimes,
    's',
    15,
  )
  report('composite 10 s clip under a 1400x400 overlay', compositeTimes, 's', 15)
  console.log(`load average at the end: ${load()}`)
} finally {
  await rm(dir, { recursive: true, force: true })
}
