// Rendering a template to the PNG a billboard shows: parsed template -> satori (layout, text to glyph
// paths, SVG) -> resvg (raster) at exactly the device's contentWidth x contentHeight (Rendering).
import type { ReactNode } from 'react'
import type { Font } from 'satori'
import sharp from 'sharp'
import { type Problem, problem } from '../../contract/problems.ts'
import { issueMessage, problemOfIssueMessage } from '../../domain/problems.ts'
import {
  type ParsedTemplate,
  type PlaceholderValues,
  parseTemplateHtml,
} from '../catalogue/template-html.ts'
import { emojiDataUri, fontStack, loadFonts } from './fonts.ts'
import { imageWork } from './limit.ts'
import { toSatoriTree } from './template-tree.ts'
import { fittedSizePx, hasFittedText, type Layout, withFittedSize } from './text-fit.ts'

export type RenderInput = {
  template: ParsedTemplate
  values: PlaceholderValues
  width: number
  height: number
  /** The processed upload's bytes when the template shows a photo. */
  photo: Buffer | null
  /**
   * A stable name of the photo (its stored file name): the scaled copy is then kept for the next render
   * of the same photo at the same size (a shopper who edits the message re-renders with the same photo).
   */
  photoCacheKey?: string
}

// satori (with yoga's wasm) and resvg are loaded on the first render, not at server start: a server
// that only sells slots never pays their memory (server memory under 400 MB).
let satoriModule: Promise<typeof import('satori')['default']> | null = null
const loadSatori = () => {
  satoriModule ??= import('satori').then((m) => m.default)
  return satoriModule
}
let resvgModule: Promise<typeof import('@resvg/resvg-js')> | null = null
const loadResvg = () => {
  resvgModule ??= import('@resvg/resvg-js')
  return resvgModule
}

/**
 * A template that cannot be rendered (not valid, a photo missing, a size out of bounds): its problem,
 * carried across the content worker's thread as its message (a schema issue's form, domain/problems).
 */
export class RenderError extends Error {
  override name = 'RenderError'
  readonly problem: Problem
  constructor(reason: Problem | string) {
    const problem =
      typeof reason === 'string'
        ? ((problemOfIssueMessage(reason) as Problem | null) ?? { code: 'render_failed' })
        : reason
    super(issueMessage(problem.code, problem.params))
    this.problem = problem
  }
}

/** Why a generation could not render: the template's problem, or render_failed. */
export const renderFailure = (error: unknown): Problem =>
  error instanceof RenderError ? error.problem : { code: 'render_failed' }

// The photo is embedded into the SVG as a data URI: scaling it first to the box the template draws it
// in keeps the SVG small (a 12-megapixel phone photo would otherwise be base64-encoded and decoded on
// every render) and sharp (never scaled below the box: 'outside' covers it, as object-fit: cover does).
async function photoDataUri(photo: Buffer, box: Box): Promise<string> {
  const fitted = await sharp(photo, { limitInputPixels: 100_000_000 })
    .resize({ width: box.width, height: box.height, fit: 'outside', withoutEnlargement: true })
    .jpeg({ quality: 90 })
    .toBuffer()
  return `data:image/jpeg;base64,${fitted.toString('base64')}`
}

type Box = { width: number; height: number }

const SCALED_PHOTO_CACHE_SIZE = 32
const scaledPhotos = new Map<string, string>()

async function cachedPhotoDataUri(photo: Buffer, box: Box, cacheKey?: string) {
  if (!cacheKey) return photoDataUri(photo, box)
  const key = `${cacheKey}:${box.width}x${box.height}`
  const cached = scaledPhotos.get(key)
  if (cached) {
    // Most recently used last: the Map's order is the eviction order.
    scaledPhotos.delete(key)
    scaledPhotos.set(key, cached)
    return cached
  }
  const uri = await photoDataUri(photo, box)
  scaledPhotos.set(key, uri)
  if (scaledPhotos.size > SCALED_PHOTO_CACHE_SIZE) {
    const oldest = scaledPhotos.keys().next().value
    if (oldest !== undefined) scaledPhotos.delete(oldest)
  }
  return uri
}

/**
 * The largest box the template draws the photo in, found by laying the template out (satori, no
 * raster) with a stand-in of the photo's own size: an img with only a height takes its width from the
 * photo's proportions. The billboard's size when the layout cannot tell.
 */
export async function photoBox(input: RenderInput, photoSize: Box): Promise<Box> {
  const standIn = standInOf(photoSize)
  const tree = toSatoriTree(input.template, input.values, { photoDataUri: standIn }, input, {
    fontStack,
  })
  let box: Box = { width: 0, height: 0 }
  const satori = await loadSatori()
  await satori(tree as unknown as ReactNode, {
    width: input.width,
    height: input.height,
    fonts: await loadFonts(),
    onNodeDetected: (node) => {
      const style = (node.props as { style?: { backgroundImage?: unknown } }).style
      const shows =
        node.props.src === standIn || String(style?.backgroundImage ?? '').includes(standIn)
      if (shows)
        box = { width: Math.max(box.width, node.width), height: Math.max(box.height, node.height) }
    },
  })
  if (box.width < 1 || box.height < 1) return { width: input.width, height: input.height }
  return {
    width: Math.min(input.width, Math.ceil(box.width)),
    height: Math.min(input.height, Math.ceil(box.height)),
  }
}

/** An empty picture of a photo's size: lays a design out as the photo would, without its bytes. */
function standInOf(photoSize: Box): string {
  const stand = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${photoSize.width}" height="${photoSize.height}"></svg>`,
  ).toString('base64')
  return `data:image/svg+xml;base64,${stand}`
}

/**
 * The template with its `font-size: fit` text set to the largest size at which the design stays
 * inside the billboard's picture (text-fit.ts), laid out with a stand-in of the photo.
 */
export async function withTextFitted(input: RenderInput, photoSize: Box): Promise<ParsedTemplate> {
  if (!hasFittedText(input.template)) return input.template
  const standIn = standInOf(photoSize)
  const satori = await loadSatori()
  const fonts = await loadFonts()
  const layout = async (px: number) => {
    const boxes: Layout[] = []
    const template = withFittedSize(input.template, px, true)
    const tree = toSatoriTree(template, input.values, { photoDataUri: standIn }, input, {
      fontStack,
    })
    await satori(tree as unknown as ReactNode, {
      width: input.width,
      height: input.height,
      fonts,
      embedFont: false,
      onNodeDetected: (node) => {
        boxes.push({ left: node.left, top: node.top, width: node.width, height: node.height })
      },
    })
    return boxes
  }
  return withFittedSize(input.template, await fittedSizePx(input, layout))
}

// satori asks for what the bundled fonts lack: emoji come from Twemoji; other scripts (CJK, Arabic...)
// have no bundled font and show as empty boxes.
async function loadAdditionalAsset(
  languageCode: string,
  segment: string,
): Promise<string | Font[]> {
  if (languageCode !== 'emoji') return []
  return (await emojiDataUri(segment)) ?? []
}

export function checkRenderSize(width: number, height: number): void {
  for (const [name, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(value) || value < 1 || value > 8192) {
      throw new RenderError(problem('render_size_invalid', { side: name, value }))
    }
  }
}

/** Renders to an SVG string (text drawn as glyph outlines unless embedFont is false). */
export async function renderTemplateSvg(
  input: RenderInput,
  options: { embedFont?: boolean } = {},
): Promise<string> {
  checkRenderSize(input.width, input.height)
  if (input.template.usesPhoto && !input.photo) {
    throw new RenderError({ code: 'template_needs_photo' })
  }
  const meta = input.template.usesPhoto && input.photo ? await sharp(input.photo).metadata() : null
  const photoSize = { width: meta?.width ?? input.width, height: meta?.height ?? input.height }
  const fitted = { ...input, template: await withTextFitted(input, photoSize) }
  let photo: string | null = null
  if (fitted.template.usesPhoto && input.photo) {
    const box = await photoBox(fitted, photoSize)
    photo = await cachedPhotoDataUri(input.photo, box, input.photoCacheKey)
  }
  const tree = toSatoriTree(fitted.template, input.values, { photoDataUri: photo }, input, {
    fontStack,
  })
  const satori = await loadSatori()
  return satori(tree as unknown as ReactNode, {
    width: input.width,
    height: input.height,
    fonts: await loadFonts(),
    embedFont: options.embedFont ?? true,
    loadAdditionalAsset,
  })
}

/** Renders a template to PNG bytes: in this process (renderTemplatePng) or in the content worker. */
export type PngRenderer = (input: RenderInput) => Promise<Buffer>

/** Renders to a PNG of exactly width x height. */
export function renderTemplatePng(input: RenderInput): Promise<Buffer> {
  return imageWork(() => renderPng(input))
}

async function renderPng(input: RenderInput): Promise<Buffer> {
  const svg = await renderTemplateSvg(input)
  // Rasterised on libuv's thread pool, so the server keeps answering other requests meanwhile.
  const { renderAsync } = await loadResvg()
  const image = await renderAsync(svg, {
    fitTo: { mode: 'original' },
    font: { loadSystemFonts: false },
  })
  return image.asPng()
}
/** parseTemplateHtml that throws a RenderError listing the problems (for stored templates). */
export function parseOrThrow(html: string): ParsedTemplate {
  const parsed = parseTemplateHtml(html)
  if (!parsed.ok) {
    throw new RenderError(problem('template_invalid', { detail: parsed.errors.join('; ') }))
  }
  return parsed.template
}
