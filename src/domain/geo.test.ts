import { describe, expect, it } from 'vitest'
import { byDistance, distanceMeters, roundedDistance } from './geo'
import { pointAt } from './geo-bearing'

const OPERA = { lat: 48.8708, lng: 2.3317 }
const ETOILE = { lat: 48.8723, lng: 2.3039 }

describe('distances for "Near me"', () => {
  it('measures the Opéra to the Étoile as about two kilometres', () => {
    expect(distanceMeters(OPERA, ETOILE)).toBeGreaterThan(2000)
    expect(distanceMeters(OPERA, ETOILE)).toBeLessThan(2080)
    expect(distanceMeters(OPERA, OPERA)).toBe(0)
  })

  it('sorts places nearest first, keeping the order of those equally far', () => {
    const list = [
      { id: 'far', coordinates: ETOILE },
      { id: 'here-a', coordinates: OPERA },
      { id: 'here-b', coordinates: OPERA },
    ]
    expect(byDistance(list, OPERA).map((x) => x.item.id)).toEqual(['here-a', 'here-b', 'far'])
  })

  it('rounds as a person reads a distance', () => {
    expect(roundedDistance(347)).toEqual({ value: 350, unit: 'meter' })
    expect(roundedDistance(3)).toEqual({ value: 10, unit: 'meter' })
    expect(roundedDistance(1234)).toEqual({ value: 1.2, unit: 'kilometer' })
    expect(roundedDistance(24_400)).toEqual({ value: 24, unit: 'kilometer' })
  })

  it('finds the point a distance away on a bearing', () => {
    const north = pointAt(OPERA, 0, 1000)
    expect(north.lng).toBeCloseTo(OPERA.lng, 6)
    expect(distanceMeters(OPERA, north)).toBeCloseTo(1000, 0)
    expect(pointAt(OPERA, 90, 500).lng).toBeGreaterThan(OPERA.lng)
  })
})
