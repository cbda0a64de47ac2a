// Distances on the map: "Near me" sorts the billboards by how far they are, and the map draws the
// side a billboard faces. A sphere of the Earth's mean radius: metres off at most 0.5 %, which a
// "350 m" beside a billboard does not show.

export type LngLat = { lat: number; lng: number }

export const EARTH_RADIUS_M = 6_371_008.8
export const rad = (degrees: number) => (degrees * Math.PI) / 180

/** The great-circle distance between two points, in metres (haversine). */
export function distanceMeters(a: LngLat, b: LngLat): number {
  const dLat = rad(b.lat - a.lat)
  const dLng = rad(b.lng - a.lng)
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)))
}

/**
 * The items nearest first, each with its distance from `here`; items equally far keep their order
 * (a stable sort), so the list does not shuffle billboards standing side by side.
 */
export function byDistance<T extends { coordinates: LngLat }>(
  items: readonly T[],
  here: LngLat,
): { item: T; meters: number }[] {
  return items
    .map((item) => ({ item, meters: distanceMeters(here, item.coordinates) }))
    .sort((a, b) => a.meters - b.meters)
}

/**
 * A distance as a person reads it beside a place: metres rounded to 10 under a kilometre ("350 m"),
 * then kilometres with one decimal under 10 ("1.2 km"), whole beyond ("24 km").
 */
export function roundedDistance(meters: number): { value: number; unit: 'meter' | 'kilometer' } {
  if (meters < 995) return { value: Math.max(10, Math.round(meters / 10) * 10), unit: 'meter' }
  const km = meters / 1000
  return { value: km < 9.95 ? Math.round(km * 10) / 10 : Math.round(km), unit: 'kilometer' }
}
