import { describe, expect, it } from 'vitest'
import { apply, invert, isConvex, squareToQuad } from './perspective.ts'

describe("the keepsake's perspective placement", () => {
  const quad = [
    { x: 100, y: 50 },
    { x: 500, y: 90 },
    { x: 480, y: 300 },
    { x: 120, y: 260 },
  ] as const

  it("puts the picture's corners on the screen's corners", () => {
    const m = squareToQuad(quad)
    const corners = [apply(m, 0, 0), apply(m, 1, 0), apply(m, 1, 1), apply(m, 0, 1)]
    corners.forEach((p, i) => {
      expect(p.x).toBeCloseTo(quad[i]?.x ?? Number.NaN, 6)
      expect(p.y).toBeCloseTo(quad[i]?.y ?? Number.NaN, 6)
    })
  })

  it('finds the point of the picture a pixel of the photo shows', () => {
    const m = squareToQuad(quad)
    const back = invert(m)
    const inside = apply(m, 0.25, 0.75)
    const p = apply(back, inside.x, inside.y)
    expect(p.x).toBeCloseTo(0.25, 6)
    expect(p.y).toBeCloseTo(0.75, 6)
  })

  it('maps a rectangle without perspective', () => {
    const m = squareToQuad([
      { x: 10, y: 20 },
      { x: 110, y: 20 },
      { x: 110, y: 70 },
      { x: 10, y: 70 },
    ])
    expect(apply(m, 0.5, 0.5)).toEqual({ x: 60, y: 45 })
  })

  it('refuses a screen folded on itself', () => {
    expect(isConvex(quad)).toBe(true)
    expect(isConvex([quad[0], quad[2], quad[1], quad[3]])).toBe(false)
  })
})
