import type { PMTiles } from 'pmtiles'
import { pointAt } from '../../domain/geo-bearing'

// The venue often has no signal: once the map has been seen, the tiles around the event's
// billboards are fetched while the browser is idle, and the service worker keeps each range it
// serves (sw/map-archive.ts), so the map draws there offline. Bounded: within RADIUS_M of each
// billboard, zooms up to MAX_ZOOM, at most BUDGET_BYTES; never on a data saver or 2G.

const RADIUS_M = 1200
const MIN_ZOOM = 11
const MAX_ZOOM = 16
const BUDGET_BYTES = 5 * 1024 * 1024
/** Done for this archive and these billboards: not again before a week. */
const AGAIN_AFTER_MS = 7 * 24 * 3600 * 1000

type Connection = { saveData?: boolean; effectiveType?: string }

/** Whether fetching ahead is welcome on this connection. */
export function mayFetchAhead(connection: Connection | undefined): boolean {
  if (!connection) return true
  if (connection.saveData) return false
  return !['slow-2g', '2g'].includes(connection.effectiveType ?? '')
}

const tileX = (lng: number, z: number) => Math.floor(((lng + 180) / 360) * 2 ** z)
const tileY = (lat: number, z: number) => {
  const r = (lat * Math.PI) / 180
  return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z)
}

/** The tiles within RADIUS_M of each point, from the lowest zoom up (what a visit needs first). */
export function tilesAround(
  points: readonly { lat: number; lng: number }[],
  zooms: { min: number; max: number },
): [number, number, number][] {
  const seen = new Set<string>()
  const out: [number, number, number][] = []
  for (let z = zooms.min; z <= zooms.max; z++) {
    for (const p of points) {
      const sw = pointAt(pointAt(p, 180, RADIUS_M), 270, RADIUS_M)
      const ne = pointAt(pointAt(p, 0, RADIUS_M), 90, RADIUS_M)
      for (let x = tileX(sw.lng, z); x <= tileX(ne.lng, z); x++) {
        for (let y = tileY(ne.lat, z); y <= tileY(sw.lat, z); y++) {
          const key = `${z}/${x}/${y}`
          if (!seen.has(key)) {
            seen.add(key)
            out.push([z, x, y])
          }
        }
      }
    }
  }
  return out
}

const idle = () =>
  new Promise<void>((resolve) => {
    if ('requestIdleCallback' in window)
      window.requestIdleCallback(() => resolve(), { timeout: 2000 })
    else setTimeout(resolve, 50)
  })

/** Fetches the tiles around the billboards once (per archive and billboards), when idle. */
export async function keepForOffline(
  archive: PMTiles,
  points: readonly { lat: number; lng: number }[],
): Promise<void> {
  const connection = (navigator as Navigator & { connection?: Connection }).connection
  if (!mayFetchAhead(connection) || !('serviceWorker' in navigator) || points.length === 0) return
  const header = await archive.getHeader()
  const key = `shouts:map-offline:${header.etag ?? ''}:${points.map((p) => `${p.lat},${p.lng}`).join(';')}`
  const done = Number(localStorage.getItem(key) ?? 0)
  if (Date.now() - done < AGAIN_AFTER_MS) return
  const zooms = {
    min: Math.max(MIN_ZOOM, header.minZoom),
    max: Math.min(MAX_ZOOM, header.maxZoom),
  }
  let bytes = 0
  for (const [z, x, y] of tilesAround(points, zooms)) {
    await idle()
    const tile = await archive.getZxy(z, x, y).catch(() => undefined)
    bytes += tile?.data.byteLength ?? 0
    if (bytes > BUDGET_BYTES) break
  }
  localStorage.setItem(key, String(Date.now()))
}
