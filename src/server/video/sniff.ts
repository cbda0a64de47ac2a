// Judging an upload's type from its bytes, never from its name or Content-Type ("the type judged
// from the bytes ... polyglot files included"; spec §9: video extensions mp4, wav, mpg, avi, wmv).
import { open } from 'node:fs/promises'
import { type Problem, problem, type WORDS } from '../../contract/problems.ts'
import type { VIDEO_EXTENSIONS } from '../../domain/index.ts'

/** A kind of file that is not a video (its words are the catalogue's). */
type FileKind = keyof (typeof WORDS)['fileKind']

/** The video extensions the shop takes (spec §9), named once in the domain. */
export type VideoFormat = (typeof VIDEO_EXTENSIONS)[number]

/**
 * The ffmpeg demuxer a sniffed file is read with: always the one its bytes claim, never ffmpeg's own
 * guess (which could pick a playlist or a concat list that opens other files).
 */
export type Demuxer = 'mov' | 'mpeg' | 'mpegts' | 'mpegvideo' | 'avi' | 'asf' | 'wav'

export type SniffResult =
  | {
      ok: true
      format: VideoFormat
      demuxer: Demuxer
      mimeType: string
      extension: VideoFormat
      /** wav carries no picture: the caller accepts it only where a template pairs audio with a still. */
      audioOnly: boolean
    }
  | {
      ok: false
      /** 'unsupported': not one of the video formats; 'polyglot': a video that is also something else. */
      reason: 'unsupported' | 'polyglot'
      /** what the shopper is told (src/contract/problems.ts) */
      problem: Problem
    }

/** How many bytes of the start (and of the end) of a file the sniffer looks at. */
export const SNIFF_WINDOW_BYTES = 64 * 1024

const MIME: Record<VideoFormat, string> = {
  mp4: 'video/mp4',
  mpg: 'video/mpeg',
  avi: 'video/x-msvideo',
  wmv: 'video/x-ms-wmv',
  wav: 'audio/wav',
}

// ISO BMFF brands. Still images (HEIF/AVIF) and audio-only files share the container, so the brand decides.
// biome-ignore format: four-character codes read best packed
const VIDEO_BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9', 'mp41', 'mp42', 'mp71',
  'avc1', 'M4V ', 'M4VH', 'M4VP', 'qt  ', '3gp4', '3gp5', '3gp6', '3gp7', '3gs7', '3g2a', '3g2b',
  '3g2c', 'dash', 'MSNV', 'NDAS', 'f4v ', 'XAVC', 'mmp4', 'MQT ',
])
// biome-ignore format: four-character codes read best packed
const NON_VIDEO_BRANDS = new Set([
  'avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1',
  'M4A ', 'M4B ', 'M4P ', 'crx ', 'jp2 ', 'jpx ',
])

const ASF_GUID = [
  0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c,
]

function ascii(bytes: Uint8Array, start: number, length: number): string {
  if (bytes.length < start + length) return ''
  return String.fromCharCode(...bytes.subarray(start, start + length))
}

function startsWithBytes(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false
  return signature.every((value, index) => bytes[offset + index] === value)
}

function isoBmffFormat(head: Uint8Array): VideoFormat | null {
  if (ascii(head, 4, 4) !== 'ftyp') return null
  const boxSize =
    ((head[0] ?? 0) << 24) | ((head[1] ?? 0) << 16) | ((head[2] ?? 0) << 8) | (head[3] ?? 0)
  if (boxSize < 16 || boxSize > 4096) return null
  const major = ascii(head, 8, 4)
  if (NON_VIDEO_BRANDS.has(major)) return null
  const brands = [major]
  for (let offset = 16; offset + 4 <= Math.min(boxSize, head.length); offset += 4) {
    brands.push(ascii(head, offset, 4))
  }
  return brands.some((brand) => VIDEO_BRANDS.has(brand)) ? 'mp4' : null
}

function isMpegTransportStream(head: Uint8Array, packetSize: number, offset: number): boolean {
  // A lone 0x47 is the letter 'G' (think "GIF8"): demand the sync byte on several packets in a row.
  const packets = Math.min(4, Math.floor((head.length - offset) / packetSize))
  if (packets < 3) return false
  for (let index = 0; index < packets; index++) {
    if (head[offset + index * packetSize] !== 0x47) return false
  }
  return true
}

function videoFormatOf(head: Uint8Array): { format: VideoFormat; demuxer: Demuxer } | null {
  const iso = isoBmffFormat(head)
  if (iso) return { format: iso, demuxer: 'mov' }
  if (ascii(head, 0, 4) === 'RIFF') {
    const kind = ascii(head, 8, 4)
    if (kind === 'AVI ') return { format: 'avi', demuxer: 'avi' }
    if (kind === 'WAVE') return { format: 'wav', demuxer: 'wav' }
    return null
  }
  if (startsWithBytes(head, ASF_GUID)) return { format: 'wmv', demuxer: 'asf' }
  // MPEG-1/2 program stream (pack header) or elementary video stream (sequence header).
  if (startsWithBytes(head, [0x00, 0x00, 0x01, 0xba])) return { format: 'mpg', demuxer: 'mpeg' }
  if (startsWithBytes(head, [0x00, 0x00, 0x01, 0xb3])) {
    return { format: 'mpg', demuxer: 'mpegvideo' }
  }
  if (isMpegTransportStream(head, 188, 0) || isMpegTransportStream(head, 192, 4)) {
    return { format: 'mpg', demuxer: 'mpegts' }
  }
  return null
}

/** Other formats a file may also be; any of them beside a video signature makes it a polyglot. */
/** The other kinds of file a video's bytes also are (keys of the catalogue's WORDS.fileKind). */
function otherFormatsIn(head: Uint8Array, tail: Uint8Array): FileKind[] {
  const found: FileKind[] = []
  if (startsWithBytes(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) found.push('png')
  if (startsWithBytes(head, [0xff, 0xd8, 0xff])) found.push('jpeg')
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') found.push('gif')
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') found.push('webp')
  if (
    startsWithBytes(head, [0x49, 0x49, 0x2a, 0x00]) ||
    startsWithBytes(head, [0x4d, 0x4d, 0x00, 0x2a])
  ) {
    found.push('tiff')
  }
  // PDF readers accept the header anywhere in the first 1024 bytes; ZIP readers start from the end.
  if (latin1Lower(head.subarray(0, 1024)).includes('%pdf-')) found.push('pdf')
  if (startsWithBytes(head, [0x50, 0x4b, 0x03, 0x04]) || hasZipEndRecord(tail)) found.push('zip')
  if (MARKUP.test(latin1Lower(head)) || MARKUP.test(latin1Lower(tail))) found.push('markup')
  return found
}

// Markup a browser or viewer would run if the file were ever served or opened as a document. Each
// marker needs a following delimiter so random compressed bytes practically never match.
const MARKUP =
  /<(?:script|html|body|iframe|svg|object|embed|img)[\s/>]|<!doctype\s|<\?php\s|javascript:/

function latin1Lower(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .toLowerCase()
}

function hasZipEndRecord(tail: Uint8Array): boolean {
  // End of central directory: PK\x05\x06, at most 65535 + 22 bytes before the end.
  for (let index = tail.length - 22; index >= 0; index--) {
    if (
      tail[index] === 0x50 &&
      tail[index + 1] === 0x4b &&
      tail[index + 2] === 0x05 &&
      tail[index + 3] === 0x06
    ) {
      return true
    }
  }
  return false
}

/**
 * Judges a video upload from its bytes. Pass the whole file, or its first SNIFF_WINDOW_BYTES as `bytes`
 * and its last SNIFF_WINDOW_BYTES as `tail` (see sniffVideoFile). A file is refused as a polyglot when it
 * carries a video signature and also reads as an image, a PDF, a ZIP archive or contains HTML/script:
 * such files are how stored content gets executed elsewhere (GIFAR-style attacks), and no honest camera
 * or editor produces them.
 */
export function sniffVideo(bytes: Uint8Array, tail?: Uint8Array): SniffResult {
  const head = bytes.subarray(0, SNIFF_WINDOW_BYTES)
  const end = tail ?? bytes.subarray(Math.max(0, bytes.length - SNIFF_WINDOW_BYTES))
  const found = videoFormatOf(head)
  const others = otherFormatsIn(head, end)
  const [other] = others
  if (!found) {
    return {
      ok: false,
      reason: 'unsupported',
      problem: other ? problem('video_other_file', { other }) : problem('video_wrong_type'),
    }
  }
  const { format, demuxer } = found
  if (other) {
    // the first other kind found names it: one is enough to refuse
    return {
      ok: false,
      reason: 'polyglot',
      problem: problem('upload_not_only_video', { format, other }),
    }
  }
  return {
    ok: true,
    format,
    demuxer,
    mimeType: MIME[format],
    extension: format,
    audioOnly: format === 'wav',
  }
}

/** sniffVideo on a file on disk, reading only its first and last SNIFF_WINDOW_BYTES. */
export async function sniffVideoFile(filePath: string): Promise<SniffResult> {
  const handle = await open(filePath, 'r')
  try {
    const { size } = await handle.stat()
    const headLength = Math.min(size, SNIFF_WINDOW_BYTES)
    const head = Buffer.alloc(headLength)
    await handle.read(head, 0, headLength, 0)
    const tailLength = Math.min(size, SNIFF_WINDOW_BYTES)
    const tail = Buffer.alloc(tailLength)
    await handle.read(tail, 0, tailLength, size - tailLength)
    return sniffVideo(head, tail)
  } finally {
    await handle.close()
  }
}

// ffprobe's format_name for each sniffed format: a file whose container ffprobe reads differently from
// what its first bytes claim is refused too.
const FFPROBE_FORMATS: Record<VideoFormat, readonly string[]> = {
  mp4: ['mov', 'mp4'],
  mpg: ['mpeg', 'mpegts', 'mpegvideo'],
  avi: ['avi'],
  wmv: ['asf'],
  wav: ['wav'],
}

/** True when ffprobe's format_name (e.g. 'mov,mp4,m4a,3gp,3g2,mj2') agrees with the sniffed format. */
export function containerMatches(format: VideoFormat, ffprobeFormatName: string): boolean {
  const names = ffprobeFormatName.split(',')
  return FFPROBE_FORMATS[format].some((name) => names.includes(name))
}
