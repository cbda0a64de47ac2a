import type { Device, TrafficDirection } from '../../contract/catalogue'
import { pointAt } from '../../domain/geo-bearing'

// What the map draws of the billboards besides their pins: each one's viewing area (the chosen
// ones stronger), the side the chosen one faces, and the points the clustered pins come from.

/** spec §3: the compass bearing the traffic a billboard faces is heading. */
const HEADING: Record<TrafficDirection, number> = {
  North: 0,
  'North East': 45,
  East: 90,
  'South East': 135,
  South: 180,
  'South West': 225,
  West: 270,
  'North West': 315,
}

/** How far the "facing" wedge reaches, and how wide it opens either side of its axis. */
const WEDGE_M = 90
const WEDGE_HALF_DEGREES = 28

type Shape = Pick<Device, 'deviceId' | 'coordinates'> & {
  viewingAreaCoordinates?: Device['viewingAreaCoordinates']
  trafficDirection?: TrafficDirection
}

type Collection = GeoJSON.FeatureCollection<GeoJSON.Geometry, Record<string, unknown>>

export function billboardShapes(devices: readonly Shape[], chosenIds: readonly string[]) {
  const chosen = new Set(chosenIds)
  const viewingAreas: Collection = {
    type: 'FeatureCollection',
    features: devices.flatMap((d) => {
      const area = d.viewingAreaCoordinates ?? []
      if (area.length < 3) return []
      const ring = [...area, area[0] as (typeof area)[number]].map((c) => [c.lng, c.lat])
      return [
        {
          type: 'Feature' as const,
          properties: { deviceId: d.deviceId, selected: chosen.has(d.deviceId) },
          geometry: { type: 'Polygon' as const, coordinates: [ring] },
        },
      ]
    }),
  }
  // The screen faces the traffic coming at it: the wedge opens against the traffic's heading.
  const facing: Collection = {
    type: 'FeatureCollection',
    features: devices.flatMap((d) => {
      if (!chosen.has(d.deviceId) || !d.trafficDirection) return []
      const axis = (HEADING[d.trafficDirection] + 180) % 360
      const arc = [-1, -0.5, 0, 0.5, 1].map((k) =>
        pointAt(d.coordinates, axis + k * WEDGE_HALF_DEGREES, WEDGE_M),
      )
      const ring = [d.coordinates, ...arc, d.coordinates].map((c) => [c.lng, c.lat])
      return [
        {
          type: 'Feature' as const,
          properties: { deviceId: d.deviceId },
          geometry: { type: 'Polygon' as const, coordinates: [ring] },
        },
      ]
    }),
  }
  const points: Collection = {
    type: 'FeatureCollection',
    features: devices.map((d) => ({
      type: 'Feature' as const,
      properties: { deviceId: d.deviceId },
      geometry: { type: 'Point' as const, coordinates: [d.coordinates.lng, d.coordinates.lat] },
    })),
  }
  return { viewingAreas, facing, points }
}
