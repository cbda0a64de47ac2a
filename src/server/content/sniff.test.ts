import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { sniffImage } from './sniff.ts'

const solid = () => sharp({ create: { width: 4, height: 4, channels: 3, background: '#abc' } })

describe('sniffImage', () => {
  it('knows jpeg, png and gif by their bytes', async () => {
    expect(sniffImage(await solid().jpeg().toBuffer())).toBe('jpeg')
    expect(sniffImage(await solid().png().toBuffer())).toBe('png')
    expect(sniffImage(await solid().gif().toBuffer())).toBe('gif')
  })

  it.each([
    ['SVG', '<svg xmlns="http://www.w3.org/2000/svg"></svg>'],
    ['XML-declared SVG', '<?xml version="1.0"?><svg/>'],
    ['HTML', '<!doctype html><html></html>'],
    ['text', 'GIF is not a GIF'],
    ['empty', ''],
  ])('refuses %s', (_label, text) => {
    expect(sniffImage(Buffer.from(text))).toBeNull()
  })

  it('refuses other image formats (webp, tiff) the spec does not list', async () => {
    expect(sniffImage(await solid().webp().toBuffer())).toBeNull()
    expect(sniffImage(await solid().tiff().toBuffer())).toBeNull()
  })
})
