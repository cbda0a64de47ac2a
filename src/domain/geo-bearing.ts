import { EARTH_RADIUS_M, type LngLat, rad } from './geo'

// The map draws the side a billboard faces and fetches the tiles around it: points a distance away
// on a bearing. Apart from geo.ts, whose distances the first screen's list uses, so that this stays
// in the map's code.

const deg = (radians: number) => (radians * 180) / Math.PI

/** The point `meters` away from `from` on the compass bearing given (0 north, 90 east). */
export function pointAt(from: LngLat, bearingDegrees: number, meters: number): LngLat {
  const d = meters / EARTH_RADIUS_M
  const b = rad(bearingDegrees)
  const lat1 = rad(from.lat)
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b))
  const lng2 =
    rad(from.lng) +
    Math.atan2(
      Math.sin(b) * Math.sin(d) * Math.cos(lat1),
      Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
    )
  return { lat: deg(lat2), lng: ((deg(lng2) + 540) % 360) - 180 }
}
