import sharp, { type Sharp } from 'sharp'
import { apply, invert, isConvex, type Point, squareToQuad } from './perspective.ts'

// The keepsake's picture, 1200×630 (the size link previews show): the shout drawn into the
// billboard's photo where its screen is (catalogue-format "screenCorners"), in perspective; without
// corners, or without a photo to read, the shout in a clean frame. A JPEG with no metadata at all
// (sharp writes none unless asked): nothing of the order travels in it.

export const KEEPSAKE_WIDTH = 1200
export const KEEPSAKE_HEIGHT = 630
/** A photo larger than this is not read (a catalogue's photo is a few megapixels). */
const MAX_INPUT_PIXELS = 50_000_000

type Corners = readonly [Point, Point, Point, Point]

export async function composeKeepsake(input: {
  /** The shout as the billboard shows it (the rendered content, or a clip's first frame). */
  content: Buffer
  /** The billboard's photo, or null when the catalogue's address could not be read. */
  photo: Buffer | null
  /** The screen's corners in the photo, fractions of its size, clockwise from the top left. */
  corners: readonly Point[] | null
}): Promise<Buffer> {
  const corners = input.corners
  if (input.photo && corners?.length === 4 && isConvex(corners)) {
    const placed = await intoPhoto(input.content, input.photo, corners as Corners).catch(() => null)
    if (placed) return placed
  }
  return framed(input.content)
}

const jpeg = (image: Sharp) => image.jpeg({ quality: 85, mozjpeg: true }).toBuffer()

async function intoPhoto(content: Buffer, photo: Buffer, corners: Corners): Promise<Buffer> {
  const W = KEEPSAKE_WIDTH
  const H = KEEPSAKE_HEIGHT
  const source = await sharp(photo, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const { width: sw, height: sh } = source.info
  // the photo covers the picture, centred (sharp's `cover`): where its screen lands
  const scale = Math.max(W / sw, H / sh)
  const ox = (W - sw * scale) / 2
  const oy = (H - sh * scale) / 2
  const quad = corners.map((c) => ({ x: c.x * sw * scale + ox, y: c.y * sh * scale + oy })) as [
    Point,
    Point,
    Point,
    Point,
  ]
  const out = await sharp(source.data, { raw: { width: sw, height: sh, channels: 3 } })
    .resize(W, H, { fit: 'cover', position: 'centre' })
    .raw()
    .toBuffer()

  // the shout at about the size it is drawn (bilinear sampling then blurs nothing and skips nothing)
  const edge = (a: Point, b: Point) => Math.hypot(b.x - a.x, b.y - a.y)
  const cw = Math.max(2, Math.round(Math.max(edge(quad[0], quad[1]), edge(quad[3], quad[2]))))
  const ch = Math.max(2, Math.round(Math.max(edge(quad[0], quad[3]), edge(quad[1], quad[2]))))
  const shout = await sharp(content, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(cw, ch, { fit: 'fill' })
    .flatten({ background: '#000000' })
    .removeAlpha()
    .raw()
    .toBuffer()

  const back = invert(squareToQuad(quad))
  const x0 = Math.max(0, Math.floor(Math.min(...quad.map((p) => p.x))))
  const x1 = Math.min(W - 1, Math.ceil(Math.max(...quad.map((p) => p.x))))
  const y0 = Math.max(0, Math.floor(Math.min(...quad.map((p) => p.y))))
  const y1 = Math.min(H - 1, Math.ceil(Math.max(...quad.map((p) => p.y))))
  const at = (x: number, y: number, k: number) => shout[(y * cw + x) * 3 + k] as number
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const { x: u, y: v } = apply(back, x + 0.5, y + 0.5)
      if (!(u >= 0 && u <= 1 && v >= 0 && v <= 1)) continue
      const fx = Math.min(cw - 1, Math.max(0, u * cw - 0.5))
      const fy = Math.min(ch - 1, Math.max(0, v * ch - 0.5))
      const ix = Math.min(cw - 2, Math.floor(fx))
      const iy = Math.min(ch - 2, Math.floor(fy))
      const tx = fx - ix
      const ty = fy - iy
      const o = (y * W + x) * 3
      for (let k = 0; k < 3; k++) {
        const top = at(ix, iy, k) * (1 - tx) + at(ix + 1, iy, k) * tx
        const bottom = at(ix, iy + 1, k) * (1 - tx) + at(ix + 1, iy + 1, k) * tx
        out[o + k] = Math.round(top * (1 - ty) + bottom * ty)
      }
    }
  }
  return jpeg(sharp(out, { raw: { width: W, height: H, channels: 3 } }))
}

/** The shout in a dark bezel on a soft background: a billboard without a photo to place it in. */
async function framed(content: Buffer): Promise<Buffer> {
  const W = KEEPSAKE_WIDTH
  const H = KEEPSAKE_HEIGHT
  const bezel = 18
  const shout = await sharp(content, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(W - 160, H - 140, { fit: 'inside' })
    .flatten({ background: '#000000' })
    .png()
    .toBuffer({ resolveWithObject: true })
  const { width, height } = shout.info
  const left = Math.round((W - width) / 2)
  const top = Math.round((H - height) / 2)
  const background = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">` +
      '<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">' +
      '<stop offset="0" stop-color="#3a2e5c"/><stop offset="1" stop-color="#12101c"/>' +
      '</linearGradient></defs>' +
      `<rect width="${W}" height="${H}" fill="url(#g)"/>` +
      `<rect x="${left - bezel + 6}" y="${top - bezel + 14}" width="${width + 2 * bezel}" ` +
      `height="${height + 2 * bezel}" rx="14" fill="#000" opacity="0.35"/>` +
      `<rect x="${left - bezel}" y="${top - bezel}" width="${width + 2 * bezel}" ` +
      `height="${height + 2 * bezel}" rx="14" fill="#1c1c22" stroke="#4a4a55" stroke-width="2"/>` +
      '</svg>',
  )
  return jpeg(sharp(background).composite([{ input: shout.data, left, top }]))
}

/**
 * The billboard's photo from the catalogue's address: a data: URI, or an http(s) address fetched
 * (a path is taken from the shop's own origin). Null when it cannot be had: the picture is framed.
 */
export async function readPhoto(imageUrl: string, origin: string): Promise<Buffer | null> {
  const data = /^data:image\/[\w.+-]+(;base64)?,(.*)$/s.exec(imageUrl)
  if (data) {
    const body = data[2] ?? ''
    return data[1] ? Buffer.from(body, 'base64') : Buffer.from(decodeURIComponent(body))
  }
  let url: URL
  try {
    url = new URL(imageUrl, `${origin}/`)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000), redirect: 'follow' })
    const length = Number(res.headers.get('content-length') ?? 0)
    if (!res.ok || length > 20_000_000) return null
    const bytes = Buffer.from(await res.arrayBuffer())
    return bytes.length > 20_000_000 ? null : bytes
  } catch {
    return null
  }
}
