import { describe, expect, it } from 'vitest'
import { englishOf } from '../../contract/index.ts'
import { demoCatalogue } from './demo-catalogue.ts'
import { checkCatalogue } from './format.ts'

// catalogue-format "The keepsake picture": a billboard's screenCorners, four {x, y} fractions of its
// photo, optional.

describe("a billboard's screen corners in the catalogue", () => {
  const withCorners = (corners: unknown) => {
    const catalogue = structuredClone(demoCatalogue(Date.UTC(2030, 0, 1))) as {
      devices: Record<string, unknown>[]
    }
    const device = catalogue.devices[1] as Record<string, unknown>
    if (corners === undefined) delete device.screenCorners
    else device.screenCorners = corners
    return checkCatalogue(catalogue)
  }
  const square = [
    { x: 0.2, y: 0.1 },
    { x: 0.8, y: 0.2 },
    { x: 0.8, y: 0.6 },
    { x: 0.2, y: 0.7 },
  ]

  it('are imported when given, and none when left out', () => {
    const given = withCorners(square)
    expect(given.success && given.catalogue.devices[1]?.screenCorners).toEqual(square)
    const none = withCorners(undefined)
    expect(none.success && none.catalogue.devices[1]?.screenCorners).toBeNull()
  })

  it('are refused outside the photo, or not four, at their JSON path', () => {
    for (const corners of [
      [{ x: 1.5, y: 0.1 }, ...square.slice(1)],
      square.slice(0, 3),
      [{ x: 0.2 }, ...square.slice(1)],
    ]) {
      const check = withCorners(corners)
      expect(check.success).toBe(false)
      const paths = check.success ? [] : check.problems.map(englishOf)
      expect(paths.some((p) => p.startsWith('$.devices[1].screenCorners'))).toBe(true)
    }
  })
})
