import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { demoCatalogue } from '../catalogue/demo-catalogue.ts'
import { parseTemplateHtml, type TemplateNode } from '../catalogue/template-html.ts'
import { withTextFitted } from './render.ts'
import { fittedSizePx, fitWeight, readableMinimumPx } from './text-fit.ts'

describe('text set to fill its box', () => {
  it('reads `fit` and its weight, and nothing else, as a fitted size', () => {
    expect(fitWeight('fit')).toBe(1)
    expect(fitWeight(' fit 1.5 ')).toBe(1.5)
    expect(fitWeight('40px')).toBeNull()
    expect(fitWeight('fit 0')).toBeNull()
    expect(fitWeight('fit big')).toBeNull()
    expect(fitWeight(undefined)).toBeNull()
  })

  it('takes the largest size whose layout stays in the picture, never under the minimum', async () => {
    const size = { width: 1400, height: 400 }
    // a text box that reaches the picture's bottom at `limit` px
    const layout = (limit: number) => async (px: number) => [
      { left: 0, top: 0, width: 100, height: (px * 400) / limit },
    ]
    for (const limit of [100, 60, 150]) {
      const px = await fittedSizePx(size, layout(limit))
      // within five halvings of the range (24 to 160 px): 5 px
      expect(px).toBeLessThanOrEqual(limit)
      expect(px).toBeGreaterThanOrEqual(limit - 5)
    }
    // nothing fits: the readable minimum (6 % of 400)
    expect(
      await fittedSizePx(size, async () => [{ left: 0, top: -5, width: 1, height: 500 }]),
    ).toBe(readableMinimumPx(1400, 400))
    expect(readableMinimumPx(1400, 400)).toBe(24)
    expect(readableMinimumPx(1920, 1080)).toBe(65)
  })
})

// Each demo photo template at its billboards' size (1400×400 banners, 1920×1080 screens): a short
// message is set large, a long one smaller, both at least the readable minimum.
const templates = (demoCatalogue(Date.UTC(2030, 4, 7)).templates ?? []).filter((t) =>
  t.types.includes('photo'),
)
const SHORT = 'Happy birthday!'
const LONG =
  'Happy birthday to the best mum in the whole world!\nWe love you so much, and we are so proud of everything you do for us every single day.'

const fontSizes = (nodes: TemplateNode[]): number[] =>
  nodes.flatMap((node) =>
    node.kind === 'text'
      ? []
      : [
          ...(node.style.fontSize?.endsWith('px') ? [Number.parseFloat(node.style.fontSize)] : []),
          ...fontSizes(node.children),
        ],
  )

describe('the demo templates fill their billboards', () => {
  it.each(templates.map((t) => [t.id, t] as const))(
    '%s sets its words to fill the picture',
    async (_id, template) => {
      const parsed = parseTemplateHtml(template.html)
      if (!parsed.ok) throw new Error(parsed.errors.join('\n'))
      const photo = await sharp({
        create: { width: 800, height: 600, channels: 3, background: '#888' },
      })
        .jpeg()
        .toBuffer()
      const sizes = async (multilineMessage: string) =>
        fontSizes(
          (
            await withTextFitted(
              {
                template: parsed.template,
                values: { buyerName: 'Léa', recipientName: 'Maman', multilineMessage },
                width: template.widthPx,
                height: template.heightPx,
                photo,
              },
              { width: 800, height: 600 },
            )
          ).nodes,
        )
      const minimum = readableMinimumPx(template.widthPx, template.heightPx)
      const short = await sizes(SHORT)
      const long = await sizes(LONG)
      expect(short.length).toBe(3)
      expect(Math.min(...short)).toBeGreaterThanOrEqual(minimum * 0.75)
      expect(Math.min(...long)).toBeGreaterThanOrEqual(minimum * 0.75)
      // a short message reads from across the street: its size is over a fifth of the picture's height
      expect(Math.max(...short)).toBeGreaterThan(template.heightPx / 5)
      expect(Math.max(...long)).toBeLessThan(Math.max(...short))
    },
    60_000,
  )
})
