import type { ParsedTemplate, TemplateNode } from '../catalogue/template-html.ts'

// Text set to fill its box (docs/catalogue-format.md "Text that fills its box"): a template writes
// `font-size: fit` (or `fit 1.5`, a weight: that text is one and a half times the size of a `fit 1`
// one) where a shopper's words go, and the renderer chooses the largest size at which the whole
// design still lies inside the billboard's picture, never under a readable minimum. So a short
// "Happy birthday" reads from across the street on a 1400×400 banner, and a long message still fits.

const FIT = /^fit(?:\s+(\d+(?:\.\d+)?))?$/

/** The weight of a `font-size: fit [weight]` value, or null for any other font size. */
export function fitWeight(fontSize: string | undefined): number | null {
  const match = fontSize === undefined ? null : FIT.exec(fontSize.trim())
  if (!match) return null
  const weight = match[1] === undefined ? 1 : Number(match[1])
  return weight > 0 && weight <= 10 ? weight : null
}

/** True when a template has text set to fit its box. */
export function hasFittedText(template: ParsedTemplate): boolean {
  const visit = (node: TemplateNode): boolean =>
    node.kind === 'element' &&
    (fitWeight(node.style.fontSize) !== null || node.children.some(visit))
  return template.nodes.some(visit)
}

/**
 * The template with every `fit` size set to `px` times its weight. A fitted box keeps its content's
 * height (no flex shrinking); to measure, it also takes its content's width (a word wider than the
 * picture then shows as a box outside it, which a stretched box would hide).
 */
export function withFittedSize(
  template: ParsedTemplate,
  px: number,
  measuring = false,
): ParsedTemplate {
  const set = (node: TemplateNode): TemplateNode => {
    if (node.kind === 'text') return node
    const weight = fitWeight(node.style.fontSize)
    const style =
      weight === null
        ? node.style
        : {
            ...node.style,
            fontSize: `${Math.round(px * weight)}px`,
            flexShrink: '0',
            ...(measuring ? { alignSelf: 'flex-start' } : {}),
          }
    return { ...node, style, children: node.children.map(set) }
  }
  return { ...template, nodes: template.nodes.map(set) }
}

/** The smallest size a `fit 1` text is set at on a picture: about 6 % of its shorter side. */
export const readableMinimumPx = (width: number, height: number) =>
  Math.max(12, Math.round(Math.min(width, height) * 0.06))

/** The largest a `fit 1` text is tried at: 40 % of the picture's shorter side. */
const largestPx = (width: number, height: number) => Math.round(Math.min(width, height) * 0.4)

export type Layout = { left: number; top: number; width: number; height: number }

/**
 * The size (px, for weight 1) at which the design fills the picture: the largest, found by halving
 * the range five times, whose layout keeps every box inside the picture (`layout` lays the design out
 * at a size and answers its boxes); the readable minimum when even that does not fit.
 */
export async function fittedSizePx(
  size: { width: number; height: number },
  layout: (px: number) => Promise<Layout[]>,
): Promise<number> {
  const inside = (boxes: Layout[]) =>
    boxes.every(
      (b) =>
        b.left >= -0.5 &&
        b.top >= -0.5 &&
        b.left + b.width <= size.width + 0.5 &&
        b.top + b.height <= size.height + 0.5,
    )
  let low = readableMinimumPx(size.width, size.height)
  let high = largestPx(size.width, size.height)
  if (high <= low || !inside(await layout(low))) return low
  if (inside(await layout(high))) return high
  // five halvings: within 3 % of the picture's shorter side, at seven layouts at most
  for (let step = 0; step < 5 && high - low > 1; step++) {
    const middle = Math.floor((low + high) / 2)
    if (inside(await layout(middle))) low = middle
    else high = middle
  }
  return low
}
