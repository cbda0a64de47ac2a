// The projective map of a picture onto a quadrilateral (the billboard's screen as the photo sees it),
// and its inverse, to draw the picture into the photo pixel by pixel (image.ts). Heckbert,
// "Fundamentals of Texture Mapping and Image Warping" (1989), the unit square to a quadrilateral.

export type Point = { x: number; y: number }
/** Row-major 3×3, the last entry 1: x' = (a·u + b·v + c) / (g·u + h·v + 1), y' likewise with d, e, f. */
export type Homography = readonly [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
]

/** The map of the unit square (0,0) (1,0) (1,1) (0,1) onto the four corners, in that order. */
export function squareToQuad([p0, p1, p2, p3]: readonly [Point, Point, Point, Point]): Homography {
  const sx = p0.x - p1.x + p2.x - p3.x
  const sy = p0.y - p1.y + p2.y - p3.y
  if (Math.abs(sx) < 1e-9 && Math.abs(sy) < 1e-9) {
    // a parallelogram: affine
    return [p1.x - p0.x, p2.x - p1.x, p0.x, p1.y - p0.y, p2.y - p1.y, p0.y, 0, 0, 1]
  }
  const dx1 = p1.x - p2.x
  const dx2 = p3.x - p2.x
  const dy1 = p1.y - p2.y
  const dy2 = p3.y - p2.y
  const det = dx1 * dy2 - dx2 * dy1
  const g = (sx * dy2 - dx2 * sy) / det
  const h = (dx1 * sy - sx * dy1) / det
  return [
    p1.x - p0.x + g * p1.x,
    p3.x - p0.x + h * p3.x,
    p0.x,
    p1.y - p0.y + g * p1.y,
    p3.y - p0.y + h * p3.y,
    p0.y,
    g,
    h,
    1,
  ]
}

/** The inverse map (the adjugate, scaled so its last entry is 1). */
export function invert(m: Homography): Homography {
  const [a, b, c, d, e, f, g, h, i] = m
  const A = e * i - f * h
  const B = c * h - b * i
  const C = b * f - c * e
  const D = f * g - d * i
  const E = a * i - c * g
  const F = c * d - a * f
  const G = d * h - e * g
  const H = b * g - a * h
  const I = a * e - b * d
  return [A / I, B / I, C / I, D / I, E / I, F / I, G / I, H / I, 1]
}

export function apply(m: Homography, x: number, y: number): Point {
  const w = m[6] * x + m[7] * y + m[8]
  return { x: (m[0] * x + m[1] * y + m[2]) / w, y: (m[3] * x + m[4] * y + m[5]) / w }
}

/** Whether the four corners make a convex quadrilateral turning one way (a screen a camera can see). */
export function isConvex(corners: readonly Point[]): boolean {
  let sign = 0
  for (let i = 0; i < corners.length; i++) {
    const a = corners[i] as Point
    const b = corners[(i + 1) % corners.length] as Point
    const c = corners[(i + 2) % corners.length] as Point
    const cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
    if (Math.abs(cross) < 1e-12) return false
    if (sign === 0) sign = Math.sign(cross)
    else if (Math.sign(cross) !== sign) return false
  }
  return true
}
