import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { parseOrThrow, photoBox, renderTemplatePng, renderTemplateSvg } from './render.ts'

const values = {
  buyerName: 'Zoé',
  recipientName: 'Jürgen',
  multilineMessage: 'Bonne fête!\nAlles Gute, Straße',
}

describe('renderTemplatePng', () => {
  it('renders at exactly the requested size, with the photo', async () => {
    const photo = await sharp({
      create: { width: 800, height: 600, channels: 3, background: '#2255aa' },
    })
      .jpeg()
      .toBuffer()
    const template = parseOrThrow(
      '<div style="width: 100%; height: 100%; background-color: #ffffff"><img src="{{photoUrl}}" style="width: 300px; height: 300px; object-fit: cover"/><span style="font-size: 40px">{{multilineMessage}}</span></div>',
    )
    const png = await renderTemplatePng({ template, values, width: 1400, height: 400, photo })
    const meta = await sharp(png).metadata()
    expect(meta.format).toBe('png')
    expect([meta.width, meta.height]).toEqual([1400, 400])
    // The photo is drawn: the pixel at the image's centre is the photo's blue, not the white background.
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
    const offset = (150 * info.width + 150) * info.channels
    const pixel = [data[offset] ?? 0, data[offset + 1] ?? 0, data[offset + 2] ?? 0]
    // JPEG rounding moves a channel by a step or two.
    const expected = [0x22, 0x55, 0xaa]
    for (const [index, channel] of pixel.entries()) {
      expect(Math.abs(channel - (expected[index] ?? 0))).toBeLessThan(4)
    }
  })

  it('draws a hostile message as plain characters', async () => {
    const message = '<img src=x onerror=alert(1)>'
    const template = parseOrThrow('<div style="font-size: 30px">{{multilineMessage}}</div>')
    const svg = await renderTemplateSvg(
      {
        template,
        values: { ...values, multilineMessage: message },
        width: 900,
        height: 100,
        photo: null,
      },
      { embedFont: false },
    )
    // With fonts not embedded satori writes each character, escaped, inside a <text> element: read back,
    // they spell the message, and no markup came out of it.
    const drawn = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)]
      .map((match) => match[1] ?? '')
      .join('')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&')
    expect(drawn.replaceAll(' ', '')).toBe(message.replaceAll(' ', ''))
    expect(svg).not.toContain('<img')
  })

  it.each(['Noto Sans', 'Dancing Script'])(
    'has a glyph in %s for every French and German letter',
    async (family) => {
      const template = parseOrThrow(
        `<div style="font-size: 30px; font-family: '${family}'">{{multilineMessage}}</div>`,
      )
      const glyph = async (char: string) => {
        const svg = await renderTemplateSvg({
          template,
          values: { ...values, multilineMessage: char },
          width: 100,
          height: 50,
          photo: null,
        })
        return /<path[^>]* d="([^"]+)"/.exec(svg)?.[1] ?? ''
      }
      // A character no bundled font has is drawn as the empty box (.notdef); every letter must differ.
      const missing = await glyph('\ue000')
      expect(missing).not.toBe('')
      const letters = [...'ÀÂÆÇÉÈÊËÎÏÔŒÙÛÜŸàâæçéèêëîïôœùûüÿÄÖäößẞ€«»']
      const boxes: string[] = []
      for (const letter of letters) if ((await glyph(letter)) === missing) boxes.push(letter)
      expect(boxes).toEqual([])
    },
  )

  it('draws emoji as pictures instead of empty boxes', async () => {
    const template = parseOrThrow('<div style="font-size: 30px">{{multilineMessage}}</div>')
    for (const emoji of ['❤️', '😀', '🎉', '🌹', '👍🏽', '👩‍👧', '🇫🇷', '💐']) {
      const svg = await renderTemplateSvg({
        template,
        values: { ...values, multilineMessage: `Love ${emoji}` },
        width: 300,
        height: 50,
        photo: null,
      })
      // satori places an emoji as an <image> of its Twemoji SVG.
      expect(svg, emoji).toMatch(/<image [^>]*href="data:image\/svg\+xml;base64,/)
    }
  })

  it.each([
    // An img with only a height takes its width from the photo: 4:3 at 400 px high is 533 wide.
    [
      '<div><img src="{{photoUrl}}" style="height:100%;object-fit:cover"/><div>{{buyerName}}</div></div>',
      533,
      400,
    ],
    ['<img src="{{photoUrl}}" style="width:100%;height:100%;object-fit:cover"/>', 1400, 400],
    [
      '<div style="width:700px;height:300px;background-image:url({{photoUrl}})">{{buyerName}}</div>',
      700,
      300,
    ],
  ])('finds the box the photo is drawn in: %s', async (html, width, height) => {
    const input = { template: parseOrThrow(html), values, width: 1400, height: 400, photo: null }
    expect(await photoBox(input, { width: 4000, height: 3000 })).toEqual({ width, height })
  })

  it('refuses a photo template without a photo', async () => {
    const template = parseOrThrow('<img src="{{photoUrl}}"/>')
    await expect(
      renderTemplatePng({ template, values, width: 100, height: 100, photo: null }),
    ).rejects.toThrow('template_needs_photo')
  })
})
