import { crc32, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { crc32Combine, deflatePiece, gzipPieces, storedPiece } from './gzip-pieces.ts'

describe('an answer gzipped piece by piece', () => {
  it('combines CRCs as if the bytes were read in one go', () => {
    const a = Buffer.from('{"generatedAtEpochMs":1795831231208,"items":')
    const b = Buffer.from(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, é: 'ü' }))))
    expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])))
    expect(crc32Combine(0, crc32(b), b.length)).toBe(crc32(b))
    expect(crc32Combine(crc32(a), crc32(''), 0)).toBe(crc32(a))
  })

  it('inflates to the pieces laid end to end, compressed or stored, with any text in them', async () => {
    const items = JSON.stringify(
      Array.from({ length: 3000 }, (_, i) => ({
        startEpochMs: 1_795_000_000_000 + i,
        name: `Zoë ${i}`,
      })),
    )
    const big = await deflatePiece(items)
    for (const head of ['{"at":1,"items":', '{"at":22,"house":"☕ café","items":']) {
      const gz = gzipPieces([storedPiece(head), big, await deflatePiece('}')])
      expect(gunzipSync(gz).toString()).toBe(`${head}${items}}`)
    }
    // a stored piece longer than one stored block, and empty pieces
    const long = 'é'.repeat(70_000)
    expect(gunzipSync(gzipPieces([storedPiece(long), big])).toString()).toBe(`${long}${items}`)
    expect(gunzipSync(gzipPieces([storedPiece(''), await deflatePiece('')])).toString()).toBe('')
  })
})
