// The type of an upload is judged from its first bytes, never from its name or Content-Type (api-v1:
// "The type is judged from the bytes, not the name"). Each upload processor brings its own signatures;
// this file holds the images' (spec §9: jpg, jpeg, gif, png).

export type ImageFormat = 'jpeg' | 'png' | 'gif'

/** How many leading bytes a sniffer gets. */
export const SNIFF_BYTES = 64 * 1024

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return (
    bytes.length >= signature.length && signature.every((value, index) => bytes[index] === value)
  )
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG = [0xff, 0xd8, 0xff]
const GIF87A = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]
const GIF89A = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]

/** The image format of a file's first bytes, or null (SVG and HTML are text: never an image here). */
export function sniffImage(head: Uint8Array): ImageFormat | null {
  if (startsWith(head, PNG)) return 'png'
  if (startsWith(head, JPEG)) return 'jpeg'
  if (startsWith(head, GIF87A) || startsWith(head, GIF89A)) return 'gif'
  return null
}
