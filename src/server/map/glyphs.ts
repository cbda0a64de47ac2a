// The map's labels drawn from a font the server already ships (@fontsource/noto-sans), in MapLibre's
// glyph format: per font stack, ranges of 256 code points, each glyph a signed distance field (SDF) of
// its outline at 24 px with a 3 px buffer, as a small protobuf. Made on first request from the
// outlines themselves (exact distances to the flattened contours, inside by the nonzero rule) and kept
// in memory: a range takes a few tens of milliseconds once, and a shop asks for a handful of ranges.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { inflateSync } from 'node:zlib'
import fontkit from '@pdf-lib/fontkit'

const require = createRequire(import.meta.url)

/** MapLibre's glyph metrics: 24 px a em, 3 px of distance field around each glyph. */
const SIZE = 24
const BUFFER = 3
/** The distance field's reach (px) and where its edge sits (0.25 → value 191), as MapLibre reads it. */
const RADIUS = 8
const CUTOFF = 0.25

type Style = 'regular' | 'medium' | 'italic'
const FILES: Record<Style, string> = {
  regular: '400-normal',
  medium: '600-normal',
  italic: '400-italic',
}

type Font = ReturnType<typeof fontkit.create>
type Command = { command: string; args: number[] }
type Point = [number, number]

/**
 * A WOFF file as the plain font inside it (each table inflated once): the font reader would inflate
 * the outlines' table again for every glyph it reads.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  const tables = woff.readUInt16BE(12)
  const entries = Array.from({ length: tables }, (_, i) => {
    const at = 44 + i * 20
    const offset = woff.readUInt32BE(at + 4)
    const compressed = woff.readUInt32BE(at + 8)
    const length = woff.readUInt32BE(at + 12)
    const raw = woff.subarray(offset, offset + compressed)
    return {
      tag: woff.subarray(at, at + 4),
      checksum: woff.readUInt32BE(at + 16),
      data: compressed < length ? inflateSync(raw) : raw,
    }
  })
  const headerLength = 12 + tables * 16
  const padded = (n: number) => (n + 3) & ~3
  const total = entries.reduce((sum, e) => sum + padded(e.data.length), headerLength)
  const out = Buffer.alloc(total)
  woff.copy(out, 0, 4, 8) // the flavor: the sfnt version
  const power = 2 ** Math.floor(Math.log2(tables))
  out.writeUInt16BE(tables, 4)
  out.writeUInt16BE(power * 16, 6)
  out.writeUInt16BE(Math.log2(power), 8)
  out.writeUInt16BE(tables * 16 - power * 16, 10)
  let offset = headerLength
  entries.forEach((entry, i) => {
    const at = 12 + i * 16
    entry.tag.copy(out, at)
    out.writeUInt32BE(entry.checksum, at + 4)
    out.writeUInt32BE(offset, at + 8)
    out.writeUInt32BE(entry.data.length, at + 12)
    entry.data.copy(out, offset)
    offset += padded(entry.data.length)
  })
  return out
}

const fonts = new Map<Style, Font[]>()
function fontsOf(style: Style): Font[] {
  let list = fonts.get(style)
  if (!list) {
    // latin first, then latin-ext (French œ, German ẞ, the rest of Europe's letters)
    list = ['latin', 'latin-ext'].map((subset) =>
      fontkit.create(
        woffToSfnt(
          readFileSync(
            require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${FILES[style]}.woff`),
          ),
        ),
      ),
    )
    fonts.set(style, list)
  }
  return list
}

/** The style a font stack asks for: its first font's weight or slant; Noto Sans draws every name. */
export function styleOf(fontstack: string): Style {
  const first = (fontstack.split(',')[0] ?? '').toLowerCase()
  if (first.includes('italic')) return 'italic'
  if (/medium|semi|bold|black|heavy/.test(first)) return 'medium'
  return 'regular'
}

/** A range's first code point from its name ("256-511.pbf"), or null when it is not one. */
export function rangeStart(name: string): number | null {
  const match = /^(\d{1,5})-(\d{1,5})\.pbf$/.exec(name)
  if (!match) return null
  const start = Number(match[1])
  const end = Number(match[2])
  return start % 256 === 0 && end === start + 255 && end <= 0xffff ? start : null
}

/** The contours of an outline as polylines (curves cut into short straight pieces), in font units. */
function contoursOf(commands: readonly Command[]): Point[][] {
  const contours: Point[][] = []
  let current: Point[] = []
  let at: Point = [0, 0]
  const curve = (steps: number, pointAt: (t: number) => Point) => {
    for (let i = 1; i <= steps; i++) current.push(pointAt(i / steps))
  }
  for (const { command, args } of commands) {
    const a = args
    if (command === 'moveTo') {
      if (current.length > 1) contours.push(current)
      current = [[a[0] ?? 0, a[1] ?? 0]]
    } else if (command === 'lineTo') {
      current.push([a[0] ?? 0, a[1] ?? 0])
    } else if (command === 'quadraticCurveTo') {
      const [x0, y0] = at
      const [cx, cy, x, y] = a as [number, number, number, number]
      curve(4, (t) => {
        const u = 1 - t
        return [u * u * x0 + 2 * u * t * cx + t * t * x, u * u * y0 + 2 * u * t * cy + t * t * y]
      })
    } else if (command === 'bezierCurveTo') {
      const [x0, y0] = at
      const [c1x, c1y, c2x, c2y, x, y] = a as [number, number, number, number, number, number]
      curve(6, (t) => {
        const u = 1 - t
        return [
          u * u * u * x0 + 3 * u * u * t * c1x + 3 * u * t * t * c2x + t * t * t * x,
          u * u * u * y0 + 3 * u * u * t * c1y + 3 * u * t * t * c2y + t * t * t * y,
        ]
      })
    } else if (command === 'closePath') {
      if (current.length > 1) contours.push(current)
      current = []
    }
    const last = current[current.length - 1]
    if (last) at = last
  }
  if (current.length > 1) contours.push(current)
  return contours
}

type Glyph = {
  id: number
  bitmap: Uint8Array
  width: number
  height: number
  left: number
  top: number
  advance: number
}

function drawGlyph(font: Font, codePoint: number): Glyph {
  const glyph = font.glyphForCodePoint(codePoint)
  const scale = SIZE / font.unitsPerEm
  const advance = Math.round(glyph.advanceWidth * scale)
  const commands = (glyph.path as unknown as { commands: Command[] }).commands
  const contours = contoursOf(commands)
  const box = glyph.path.bbox
  if (contours.length === 0 || !Number.isFinite(box.minX)) {
    return {
      id: codePoint,
      bitmap: new Uint8Array(),
      width: 0,
      height: 0,
      left: 0,
      top: 0,
      advance,
    }
  }
  const left = Math.floor(box.minX * scale)
  const right = Math.ceil(box.maxX * scale)
  const bottom = Math.floor(box.minY * scale)
  const top = Math.ceil(box.maxY * scale)
  const width = right - left
  const height = top - bottom
  const w = width + 2 * BUFFER
  const h = height + 2 * BUFFER
  const bitmap = new Uint8Array(w * h)
  // the contours' segments in pixels, y upwards from the baseline, as one flat array (x0 y0 x1 y1)
  const count = contours.reduce((n, ring) => n + ring.length, 0)
  const segments = new Float64Array(count * 4)
  let n = 0
  for (const ring of contours) {
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i] as Point
      const b = ring[(i + 1) % ring.length] as Point
      segments[n++] = a[0] * scale
      segments[n++] = a[1] * scale
      segments[n++] = b[0] * scale
      segments[n++] = b[1] * scale
    }
  }
  const crossings: { x: number; up: number }[] = []
  for (let row = 0; row < h; row++) {
    const py = top + BUFFER - row - 0.5
    // nonzero winding: where each segment crosses this row, and which way
    crossings.length = 0
    for (let s = 0; s < segments.length; s += 4) {
      const ay = segments[s + 1] as number
      const by = segments[s + 3] as number
      if (ay <= py !== by <= py) {
        const ax = segments[s] as number
        const bx = segments[s + 2] as number
        crossings.push({ x: ax + ((py - ay) / (by - ay)) * (bx - ax), up: by > ay ? 1 : -1 })
      }
    }
    for (let col = 0; col < w; col++) {
      const px = left - BUFFER + col + 0.5
      let nearest = Number.POSITIVE_INFINITY
      for (let s = 0; s < segments.length; s += 4) {
        const ax = segments[s] as number
        const ay = segments[s + 1] as number
        const dx = (segments[s + 2] as number) - ax
        const dy = (segments[s + 3] as number) - ay
        const length2 = dx * dx + dy * dy
        let t = length2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / length2
        t = Math.min(1, Math.max(0, t))
        const x = ax + t * dx - px
        const y = ay + t * dy - py
        const d2 = x * x + y * y
        if (d2 < nearest) nearest = d2
      }
      let winding = 0
      for (const crossing of crossings) if (crossing.x > px) winding += crossing.up
      const distance = Math.sqrt(nearest) * (winding !== 0 ? -1 : 1)
      const value = Math.round(255 - 255 * (distance / RADIUS + CUTOFF))
      bitmap[row * w + col] = Math.min(255, Math.max(0, value))
    }
  }
  // top: from the label's middle line, as MapLibre places glyphs (an em's ascent above the baseline)
  const ascent = Math.round(font.ascent * scale)
  return { id: codePoint, bitmap, width, height, left, top: top - ascent, advance }
}

// --- a protobuf writer for the three messages of the format (glyphs > fontstack > glyph)
class Writer {
  private bytes: number[] = []
  varint(value: number): this {
    let v = value >>> 0
    while (v > 0x7f) {
      this.bytes.push((v & 0x7f) | 0x80)
      v >>>= 7
    }
    this.bytes.push(v)
    return this
  }
  uint(field: number, value: number): this {
    return this.varint(field << 3).varint(value)
  }
  sint(field: number, value: number): this {
    return this.uint(field, (value << 1) ^ (value >> 31))
  }
  bytesField(field: number, data: Uint8Array | readonly number[]): this {
    this.varint((field << 3) | 2).varint(data.length)
    for (const byte of data) this.bytes.push(byte)
    return this
  }
  text(field: number, value: string): this {
    return this.bytesField(field, new TextEncoder().encode(value))
  }
  finish(): Uint8Array<ArrayBuffer> {
    return Uint8Array.from(this.bytes)
  }
}

function encode(
  fontstack: string,
  range: string,
  glyphs: readonly Glyph[],
): Uint8Array<ArrayBuffer> {
  const stack = new Writer().text(1, fontstack).text(2, range)
  for (const g of glyphs) {
    const glyph = new Writer().uint(1, g.id)
    if (g.bitmap.length > 0) glyph.bytesField(2, g.bitmap)
    glyph.uint(3, g.width).uint(4, g.height).sint(5, g.left).sint(6, g.top).uint(7, g.advance)
    stack.bytesField(3, glyph.finish())
  }
  return new Writer().bytesField(1, stack.finish()).finish()
}

const made = new Map<string, Uint8Array<ArrayBuffer>>()

/** The glyphs of 256 code points from `start`, for a font stack; those the font lacks are left out. */
export function glyphRange(fontstack: string, start: number): Uint8Array<ArrayBuffer> {
  const style = styleOf(fontstack)
  const key = `${style}:${start}`
  let answer = made.get(key)
  if (!answer) {
    const list = fontsOf(style)
    const glyphs: Glyph[] = []
    for (let codePoint = start; codePoint < start + 256; codePoint++) {
      const font = list.find((f) => f.hasGlyphForCodePoint(codePoint))
      // control characters have no outline and no advance: nothing to draw
      if (font && codePoint >= 0x20) glyphs.push(drawGlyph(font, codePoint))
    }
    answer = encode(fontstack, `${start}-${start + 255}`, glyphs)
    made.set(key, answer)
  }
  return answer
}
