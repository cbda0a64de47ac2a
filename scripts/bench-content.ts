// Prints how long photo content takes on this machine (issue 5, "Tests and figures": render p50 under
// 150 ms for a 1400x400 photo template): rendering the demo catalogue's photo template at 1400x400 with
// a phone-sized photo, and processing (sniff, decode, rotate, strip, re-encode) a 12-megapixel upload.
// Run: npm run bench:content [-- --runs 50]
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { imageProcessor } from '../src/server/content/image.ts'
import { parseOrThrow, renderTemplatePng } from '../src/server/content/render.ts'
import { createContentStorage } from '../src/server/content/storage.ts'
import { demoCatalogue } from '../src/server/db/demo-catalogue.ts'

const runsArg = process.argv.indexOf('--runs')
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 50

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return sorted[Math.max(0, index)] ?? Number.NaN
}

function report(name: string, samples: number[], targetP50Ms: number | null): void {
  const sorted = [...samples].sort((a, b) => a - b)
  const p50 = percentile(sorted, 50)
  const p95 = percentile(sorted, 95)
  const verdict =
    targetP50Ms === null
      ? ''
      : p50 < targetP50Ms
        ? ` (target p50 < ${targetP50Ms} ms: meets)`
        : ` (target p50 < ${targetP50Ms} ms: MISSES)`
  console.log(
    `${name}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${samples.length} runs${verdict}`,
  )
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await fn()
  return performance.now() - started
}

// A photo like a phone's: 4000 x 3000 with detail (noise), so the JPEG is of a realistic size.
async function phonePhoto(): Promise<Buffer> {
  const width = 4000
  const height = 3000
  const noise = await sharp({
    create: { width, height, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer()
  return sharp(noise).withMetadata({ orientation: 6 }).jpeg({ quality: 85 }).toBuffer()
}

const catalogue = demoCatalogue(Date.now())
const hearts = catalogue.templates?.find((template) => template.id === 'hearts')
if (!hearts) throw new Error('The demo catalogue has no "hearts" template')
const template = parseOrThrow(hearts.html)
const values = {
  buyerName: 'Zoé',
  recipientName: 'Maman',
  multilineMessage: 'Bonne fête, maman!\nAlles Gute zum Muttertag — Straße 5',
}

const dir = await mkdtemp(path.join(tmpdir(), 'shouts-bench-content-'))
try {
  const storage = createContentStorage(dir)
  const original = await phonePhoto()
  console.log(
    `upload: ${(original.length / 1024 / 1024).toFixed(1)} MB JPEG, 4000x3000, EXIF orientation 6`,
  )

  const uploadSamples: number[] = []
  let stored = ''
  for (let run = 0; run < Math.min(runs, 20); run++) {
    const inputPath = storage.tempPath()
    await writeFile(inputPath, original)
    uploadSamples.push(
      await time(async () => {
        const format = imageProcessor.sniff(original.subarray(0, 64 * 1024))
        const file = await imageProcessor.process({ inputPath, format: format ?? '', storage })
        stored = file.fileName
      }),
    )
    await storage.remove(inputPath)
  }
  report('process a 12-megapixel photo upload', uploadSamples, null)

  const photo = await storage.read(stored)
  // Without a cache key the photo is scaled to the billboard on every render: a shopper's first
  // generation with a new photo. With one, the scaled copy is reused: the same shopper editing the text.
  const render = (photoCacheKey?: string) =>
    renderTemplatePng({
      template,
      values,
      width: 1400,
      height: 400,
      photo,
      ...(photoCacheKey ? { photoCacheKey } : {}),
    })
  const first = await time(() => render())
  console.log(`first render (fonts parsed): ${first.toFixed(1)} ms`)
  const renderSamples: number[] = []
  for (let run = 0; run < runs; run++) renderSamples.push(await time(() => render()))
  report('render the 1400x400 "hearts" photo template, new photo', renderSamples, 150)
  const againSamples: number[] = []
  for (let run = 0; run < runs; run++) againSamples.push(await time(() => render(stored)))
  report('render it again with the same photo (scaled copy cached)', againSamples, 150)
} finally {
  await rm(dir, { recursive: true, force: true })
}
