import type { PMTiles } from 'pmtiles'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { keepForOffline, mayFetchAhead, tilesAround } from './map-offline'

// What the shop keeps for the venue, where there is often no signal: the map tiles around the
// event's billboards, a bounded set, fetched ahead only when the connection welcomes it.

const opera = { lat: 48.8708, lng: 2.3317 }
const republique = { lat: 48.8675, lng: 2.3637 }
const alexanderplatz = { lat: 52.5215, lng: 13.4133 }
const ZOOMS = { min: 11, max: 16 }

const tileOf = (p: { lat: number; lng: number }, z: number): [number, number, number] => {
  const r = (p.lat * Math.PI) / 180
  return [
    z,
    Math.floor(((p.lng + 180) / 360) * 2 ** z),
    Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z),
  ]
}

describe('the tiles kept around the billboards', () => {
  it('cover each billboard at every zoom of the range, lowest zoom first, each tile once', () => {
    const tiles = tilesAround([opera, republique, alexanderplatz], ZOOMS)
    const keys = tiles.map((t) => t.join('/'))
    expect(new Set(keys).size).toBe(keys.length)
    expect(tiles.map(([z]) => z)).toEqual([...tiles.map(([z]) => z)].sort((a, b) => a - b))
    for (let z = ZOOMS.min; z <= ZOOMS.max; z++) {
      for (const p of [opera, republique, alexanderplatz]) {
        expect(keys).toContain(tileOf(p, z).join('/'))
      }
    }
    expect(new Set(tiles.map(([z]) => z))).toEqual(new Set([11, 12, 13, 14, 15, 16]))
  })

  it('reach about a kilometre around a billboard, not the street after next', () => {
    const keys = new Set(tilesAround([opera], ZOOMS).map((t) => t.join('/')))
    // the Opéra's neighbourhood at street zoom: 1 km north and east of it
    expect(keys).toContain(tileOf({ lat: opera.lat + 0.009, lng: opera.lng }, 16).join('/'))
    expect(keys).toContain(tileOf({ lat: opera.lat, lng: opera.lng + 0.0136 }, 16).join('/'))
    // the Champs-Élysées, 2 km west, is not kept at street zoom; nor is Berlin at any zoom
    expect(keys).not.toContain(tileOf({ lat: 48.8723, lng: 2.3039 }, 16).join('/'))
    for (let z = ZOOMS.min; z <= ZOOMS.max; z++) {
      expect(keys).not.toContain(tileOf(alexanderplatz, z).join('/'))
    }
  })

  it('stay a small set: under a hundred tiles for one billboard over six zooms', () => {
    const one = tilesAround([opera], ZOOMS)
    expect(one.length).toBeLessThan(100)
    // at street zoom a 2.4 km square is at most 8 tiles a side
    expect(one.filter(([z]) => z === 16).length).toBeLessThanOrEqual(64)
    // two billboards a few streets apart share most of theirs
    const both = tilesAround([opera, republique], ZOOMS)
    expect(both.length).toBeLessThan(2 * one.length)
  })
})

describe('fetching ahead', () => {
  it('is welcome on an ordinary connection, never with a data saver or on 2G', () => {
    expect(mayFetchAhead(undefined)).toBe(true)
    expect(mayFetchAhead({ effectiveType: '4g' })).toBe(true)
    expect(mayFetchAhead({ effectiveType: '3g' })).toBe(true)
    expect(mayFetchAhead({ effectiveType: '4g', saveData: true })).toBe(false)
    expect(mayFetchAhead({ effectiveType: '2g' })).toBe(false)
    expect(mayFetchAhead({ effectiveType: 'slow-2g' })).toBe(false)
  })
})

describe('keeping the venue for offline', () => {
  const MB = 1024 * 1024
  let stored: Map<string, string>
  let idleCalls: number
  let connection: { saveData?: boolean; effectiveType?: string } | undefined

  /** An archive of zooms 0 to 15 whose every tile weighs `tileBytes`; the tiles asked for, in order. */
  const archive = (tileBytes: number) => {
    const asked: string[] = []
    const reader = {
      getHeader: async () => ({ etag: 'v1', minZoom: 0, maxZoom: 15 }),
      getZxy: async (z: number, x: number, y: number) => {
        asked.push(`${z}/${x}/${y}`)
        return { data: new ArrayBuffer(tileBytes) }
      },
    }
    return { reader: reader as unknown as PMTiles, asked }
  }

  beforeEach(() => {
    stored = new Map()
    idleCalls = 0
    connection = { effectiveType: '4g' }
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 29, 9) })
    vi.stubGlobal('window', {
      requestIdleCallback: (callback: () => void) => {
        idleCalls++
        callback()
      },
    })
    vi.stubGlobal('navigator', {
      serviceWorker: {},
      get connection() {
        return connection
      },
    })
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => stored.set(key, value),
    })
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it("fetches the billboards' tiles up to the archive's last zoom, each when the browser is idle", async () => {
    const { reader, asked } = archive(1024)
    await keepForOffline(reader, [opera])
    expect(asked).toEqual(tilesAround([opera], { min: 11, max: 15 }).map((t) => t.join('/')))
    expect(idleCalls).toBe(asked.length)
  })

  it('stops past about 5 MB', async () => {
    const { reader, asked } = archive(MB)
    await keepForOffline(reader, [opera, republique, alexanderplatz])
    // the sixth megabyte is the last fetched
    expect(asked).toHaveLength(6)
  })

  it('fetches nothing with a data saver or on 2G', async () => {
    for (const c of [{ saveData: true }, { effectiveType: '2g' }, { effectiveType: 'slow-2g' }]) {
      connection = c
      const { reader, asked } = archive(1024)
      await keepForOffline(reader, [opera])
      expect(asked, JSON.stringify(c)).toEqual([])
    }
  })

  it('does it once a week for the same archive and billboards', async () => {
    const first = archive(1024)
    await keepForOffline(first.reader, [opera])
    expect(first.asked.length).toBeGreaterThan(0)
    const again = archive(1024)
    await keepForOffline(again.reader, [opera])
    expect(again.asked).toEqual([])
    // other billboards are theirs to fetch
    const other = archive(1024)
    await keepForOffline(other.reader, [alexanderplatz])
    expect(other.asked.length).toBeGreaterThan(0)
    // a week later, again
    vi.setSystemTime(Date.now() + 7 * 24 * 3600 * 1000 + 1)
    const later = archive(1024)
    await keepForOffline(later.reader, [opera])
    expect(later.asked.length).toBeGreaterThan(0)
  })
})
