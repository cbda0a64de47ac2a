import { promisify } from 'node:util'
import { constants, crc32, deflateRaw } from 'node:zlib'

// A large answer that differs from the last one only in a short head (a billboard's schedule: the
// server's time and the house card, then the same 900 KB of plays) is gzipped piece by piece: the
// large piece once, the head on each answer. Each piece is deflated on its own and ends on a byte
// boundary (a sync flush), so the pieces laid end to end, then a final empty block, are one deflate
// stream; the gzip trailer's CRC of the whole is combined from the pieces' CRCs (zlib's
// crc32_combine), so the large piece is neither compressed nor read again. A short piece is stored
// as it is (deflate's stored blocks): compressing 300 bytes would cost more than sending them. The
// answer is a single ordinary gzip member any client inflates.

/** A piece deflated once: raw deflate ending on a byte boundary, with its CRC-32 and length. */
export type DeflatedPiece = { deflated: Buffer; crc: number; length: number }

const deflateRawAsync = promisify(deflateRaw)

/** The text compressed, on libuv's thread pool. */
export async function deflatePiece(text: string): Promise<DeflatedPiece> {
  const bytes = Buffer.from(text)
  return {
    deflated: await deflateRawAsync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }),
    crc: crc32(bytes),
    length: bytes.length,
  }
}

/** Deflate's largest stored block. */
const STORED_MAX = 0xffff

/** The text as it is, in stored blocks (not final, starting on a byte boundary). */
export function storedPiece(text: string): DeflatedPiece {
  const bytes = Buffer.from(text)
  const blocks: Buffer[] = []
  for (let at = 0; at < bytes.length || blocks.length === 0; at += STORED_MAX) {
    const data = bytes.subarray(at, at + STORED_MAX)
    const head = Buffer.alloc(5)
    head.writeUInt16LE(data.length, 1)
    head.writeUInt16LE(~data.length & 0xffff, 3)
    blocks.push(head, data)
  }
  return { deflated: Buffer.concat(blocks), crc: crc32(bytes), length: bytes.length }
}

const POLY = 0xedb88320 // CRC-32's polynomial, reflected

/** a·b modulo the polynomial (bit 31 is x^0). */
function multModP(a: number, b: number): number {
  let product = 0
  let factor = b
  for (let m = 0x80000000; m !== 0; m >>>= 1) {
    if (a & m) product ^= factor
    factor = factor & 1 ? (factor >>> 1) ^ POLY : factor >>> 1
  }
  return product >>> 0
}

/** x^(2^k) modulo the polynomial, k = 0..31. */
const X2N: number[] = []
for (let p = 0x40000000, k = 0; k < 32; k++) {
  X2N.push(p)
  p = multModP(p, p)
}

/** x^(8n) modulo the polynomial: what a CRC is multiplied by for n more bytes. */
function x8nModP(n: number): number {
  let xp = 0x80000000
  for (let k = 3, rest = n; rest > 0; rest = Math.floor(rest / 2), k++) {
    if (rest % 2) xp = multModP(X2N[k % 32] as number, xp)
  }
  return xp
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(x8nModP(lengthB), crcA) ^ crcB) >>> 0
}

/** Header of a gzip member: deflate, no name or time, "unknown" operating system. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** A final, empty fixed-Huffman block: the end of the deflate stream. */
const FINAL_BLOCK = Buffer.from([3, 0])

/** One gzip member of the pieces' texts, in order. */
export function gzipPieces(pieces: readonly DeflatedPiece[]): Buffer<ArrayBuffer> {
  let crc = 0
  let length = 0
  for (const piece of pieces) {
    crc = crc32Combine(crc, piece.crc, piece.length)
    length += piece.length
  }
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc, 0)
  trailer.writeUInt32LE(length % 2 ** 32, 4)
  return Buffer.concat([HEADER, ...pieces.map((p) => p.deflated), FINAL_BLOCK, trailer])
}
