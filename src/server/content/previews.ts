// Template previews: the template list shows each design before the shopper has a photo or texts
// (spec §2, Select Template). A catalogue may point previewImageUrl at a picture of its own; this renders
// one from the template itself, with sample texts and a sample photo, so a preview never drifts from
// what the billboard will show. Served at GET {base}/previews/{templateId}.png; a video template's example
// clip (the same drawing over a sample moving background) at GET {base}/previews/{templateId}.mp4.
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import type { TemplateRow } from '../catalogue/reads.ts'
import { runTool, type VideoTools } from '../video/ffmpeg.ts'
import { fileArg } from '../video/probe.ts'
import { composite } from '../video/transcode.ts'
import { parsedTemplate } from './generate.ts'
import type { PngRenderer } from './render.ts'

export const PREVIEW_VALUES = {
  buyerName: 'Alex',
  recipientName: 'Sam',
  multilineMessage: 'Happy birthday!\nWith love',
}

let samplePhoto: Promise<Buffer> | null = null

/** A neutral stand-in photo (a sky gradient and a sun), drawn here so nothing is fetched or shipped. */
function sample(): Promise<Buffer> {
  samplePhoto ??= sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">' +
        '<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1">' +
        '<stop offset="0" stop-color="#4fc3f7"/><stop offset="1" stop-color="#fff3e0"/></linearGradient></defs>' +
        '<rect width="800" height="600" fill="url(#s)"/>' +
        '<circle cx="560" cy="220" r="90" fill="#ffca28"/>' +
        '<path d="M0 600 L0 430 Q200 330 400 430 T800 410 L800 600 Z" fill="#66bb6a"/></svg>',
    ),
  )
    .jpeg({ quality: 85 })
    .toBuffer()
  return samplePhoto
}

/** The template at its own size with the sample texts (and the sample photo when it shows one). */
async function drawSample(template: TemplateRow, render: PngRenderer): Promise<Buffer> {
  const parsed = parsedTemplate(template)
  return render({
    template: parsed,
    values: PREVIEW_VALUES,
    width: template.widthPx,
    height: template.heightPx,
    photo: parsed.usesPhoto ? await sample() : null,
    photoCacheKey: 'preview-sample-photo',
  })
}

const cache = new Map<string, { version: string; png: Buffer }>()

/** The preview PNG of a template at its own size; re-rendered when the template's html or size change. */
export async function templatePreview(template: TemplateRow, render: PngRenderer): Promise<Buffer> {
  const version = createHash('sha256')
    .update(`${template.widthPx}x${template.heightPx}\n${template.html}`)
    .digest('base64url')
  const cached = cache.get(template.id)
  if (cached?.version === version) return cached.png
  const png = await drawSample(template, render)
  cache.set(template.id, { version, png })
  return png
}

/** How long a template's sample clip runs (its own videoMaxLengthSeconds when shorter). */
export const PREVIEW_VIDEO_SECONDS = 4

const videoRenders = new Map<string, Promise<string>>()

/**
 * The example clip of a video template (catalogue examplePreviewVideoUrl): the template drawn with the
 * sample texts over a moving colour gradient made by ffmpeg, composited exactly as a shopper's clip is.
 * Made once per template version and kept in `folder` (DATA_DIR/content/previews), so a restart does
 * not make it again. Resolves with the file's path.
 */
export function templatePreviewVideo(
  template: TemplateRow,
  folder: string,
  tools: VideoTools,
  render: PngRenderer,
): Promise<string> {
  const version = createHash('sha256')
    .update(`${template.widthPx}x${template.heightPx}\n${template.videoMaxLengthSeconds}\n`)
    .update(template.html)
    .digest('base64url')
    .slice(0, 16)
  const file = join(folder, `${template.id.replace(/[^\w-]/g, '_')}-${version}.mp4`)
  let making = videoRenders.get(file)
  if (!making) {
    making = makePreviewVideo(template, folder, file, tools, render)
    // A failure is not kept: the next request tries again.
    making.catch(() => videoRenders.delete(file))
    videoRenders.set(file, making)
  }
  return making
}

async function makePreviewVideo(
  template: TemplateRow,
  folder: string,
  file: string,
  tools: VideoTools,
  render: PngRenderer,
): Promise<string> {
  if (existsSync(file)) return file
  await mkdir(folder, { recursive: true })
  const seconds = Math.min(PREVIEW_VIDEO_SECONDS, template.videoMaxLengthSeconds ?? Infinity)
  const work = join(folder, `.${randomBytes(8).toString('hex')}`)
  const overlay = `${work}.png`
  const background = `${work}-bg.mp4`
  const output = `${work}-out.mp4`
  try {
    await writeFile(overlay, await drawSample(template, render))
    // A small moving gradient stands in for the shopper's clip; composite() scales it to the billboard.
    // biome-ignore format: ffmpeg arguments read best as flag/value pairs
    await runTool(tools.ffmpeg, [
      '-hide_banner', '-nostdin', '-v', 'error', '-y',
      '-f', 'lavfi', '-i', `gradients=s=320x180:d=${seconds}:r=25:speed=0.03:c0=#c2185b:c1=#ffca28:c2=#4fc3f7:nb_colors=3`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-an', '-f', 'mp4', fileArg(background),
    ], { timeoutMs: 60_000, what: 'Making the sample clip' })
    await composite(tools, {
      videoPath: background,
      overlayPngPath: overlay,
      width: template.widthPx,
      height: template.heightPx,
      output,
      maxLengthSeconds: seconds,
    })
    await rename(output, file)
    return file
  } finally {
    await Promise.all([overlay, background, output].map((p) => rm(p, { force: true })))
  }
}
