// The demo catalogue a new shop starts with (src/server/catalogue/demo-catalogue.ts) must render: every
// template parses under the catalogue html rules and draws at its own size.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { demoCatalogue } from '../catalogue/demo-catalogue.ts'
import { parseTemplateHtml } from '../catalogue/template-html.ts'
import { renderTemplatePng } from './render.ts'

const templates = demoCatalogue(Date.UTC(2030, 4, 7)).templates ?? []

describe('demo catalogue templates', () => {
  it('has templates', () => {
    expect(templates.length).toBeGreaterThan(0)
  })

  it.each(templates.map((template) => [template.id, template] as const))(
    '%s renders at its size',
    async (_id, template) => {
      const parsed = parseTemplateHtml(template.html)
      if (!parsed.ok) throw new Error(parsed.errors.join('\n'))
      const photo = parsed.template.usesPhoto
        ? await sharp({ create: { width: 300, height: 200, channels: 3, background: '#888' } })
            .jpeg()
            .toBuffer()
        : null
      const png = await renderTemplatePng({
        template: parsed.template,
        values: {
          buyerName: 'Zoé',
          recipientName: 'Jürgen',
          multilineMessage: 'Bonne fête!\nAlles Gute',
        },
        width: template.widthPx,
        height: template.heightPx,
        photo,
      })
      const meta = await sharp(png).metadata()
      expect([meta.width, meta.height]).toEqual([template.widthPx, template.heightPx])
      if (template.types.includes('video')) {
        // an overlay on the shopper's clip: the clip shows above the caption band, the band is drawn
        const { data, info } = await sharp(png)
          .ensureAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true })
        const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3]
        expect(alphaAt(4, 4)).toBe(0)
        expect(alphaAt(info.width - 4, info.height - 4)).toBeGreaterThan(0)
      }
    },
    // the words are fitted to the picture first (text-fit.ts): a few layouts before the render
    30_000,
  )
})
