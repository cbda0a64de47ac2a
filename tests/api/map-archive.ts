import { writeFileSync } from 'node:fs'
import { zxyToTileId } from 'pmtiles'

// A small, valid PMTiles archive (version 3) written by the tests themselves: Mapbox Vector Tiles
// encoded here in the Protomaps basemap's layers (roads, places), so the map draws streets and names
// from it without a download. Every tile is uncompressed, the directories too.

type Lnglat = [number, number]
export type ArchiveFeature =
  | { layer: 'roads'; kind: string; name: string; line: Lnglat[] }
  | { layer: 'places'; kind: string; name: string; point: Lnglat; minZoom?: number }
  | { layer: 'water' | 'earth' | 'landuse'; kind: string; polygon: Lnglat[] }

const EXTENT = 4096

class Pbf {
  bytes: number[] = []
  varint(value: number) {
    let v = value
    while (v > 0x7f) {
      this.bytes.push((v % 128) | 0x80)
      v = Math.floor(v / 128)
    }
    this.bytes.push(v)
    return this
  }
  tag(field: number, wire: number) {
    return this.varint(field * 8 + wire)
  }
  uint(field: number, value: number) {
    return this.tag(field, 0).varint(value)
  }
  message(field: number, inner: Pbf | Uint8Array | number[]) {
    const data = inner instanceof Pbf ? inner.bytes : Array.from(inner)
    this.tag(field, 2).varint(data.length)
    for (const b of data) this.bytes.push(b)
    return this
  }
  text(field: number, value: string) {
    return this.message(field, new TextEncoder().encode(value))
  }
  packed(field: number, values: number[]) {
    const inner = new Pbf()
    for (const v of values) inner.varint(v)
    return this.message(field, inner)
  }
}

const zigzag = (n: number) => (n << 1) ^ (n >> 31)

/** A point's position in a tile's extent. */
function tilePoint([lng, lat]: Lnglat, z: number, x: number, y: number): [number, number] {
  const n = 2 ** z
  const worldX = ((lng + 180) / 360) * n
  const rad = (lat * Math.PI) / 180
  const worldY = ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n
  return [Math.round((worldX - x) * EXTENT), Math.round((worldY - y) * EXTENT)]
}

/** A line with 32 vertices between each two of its points. */
function densify(line: readonly Lnglat[]): Lnglat[] {
  const out: Lnglat[] = []
  line.forEach((point, i) => {
    const next = line[i + 1]
    if (!next) {
      out.push(point)
      return
    }
    for (let k = 0; k < 32; k++) {
      out.push([
        point[0] + ((next[0] - point[0]) * k) / 32,
        point[1] + ((next[1] - point[1]) * k) / 32,
      ])
    }
  })
  return out
}

/** The tile holding a point at a zoom. */
export function tileOf([lng, lat]: Lnglat, z: number): [number, number] {
  const [px, py] = tilePoint([lng, lat], z, 0, 0)
  return [Math.floor(px / EXTENT), Math.floor(py / EXTENT)]
}

function geometry(points: [number, number][], type: 1 | 2 | 3): number[] {
  const out: number[] = []
  let cx = 0
  let cy = 0
  const move = (p: [number, number]) => {
    out.push(zigzag(p[0] - cx), zigzag(p[1] - cy))
    cx = p[0]
    cy = p[1]
  }
  const first = points[0] as [number, number]
  out.push((1 & 7) | (1 << 3))
  move(first)
  if (type === 1) return out
  const rest = type === 3 ? points.slice(1, -1) : points.slice(1)
  out.push((2 & 7) | (rest.length << 3))
  for (const p of rest) move(p)
  if (type === 3) out.push(7 | (1 << 3))
  return out
}

/** One vector tile of the features given, in the layers they name. */
export function vectorTile(features: readonly ArchiveFeature[], z: number, x: number, y: number) {
  const tile = new Pbf()
  const byLayer = new Map<string, ArchiveFeature[]>()
  for (const f of features) byLayer.set(f.layer, [...(byLayer.get(f.layer) ?? []), f])
  for (const [name, list] of byLayer) {
    const layer = new Pbf().uint(15, 2).text(1, name)
    const keys: string[] = []
    const values: string[] = []
    const index = (array: string[], value: string) => {
      if (!array.includes(value)) array.push(value)
      return array.indexOf(value)
    }
    const encoded: Pbf[] = []
    for (const f of list) {
      const props: Record<string, string> = { kind: f.kind }
      if ('name' in f) props.name = f.name
      const tags = Object.entries(props).flatMap(([k, v]) => [index(keys, k), index(values, v)])
      const [type, points] =
        'line' in f
          ? ([2, f.line] as const)
          : 'point' in f
            ? ([1, [f.point]] as const)
            : ([3, f.polygon] as const)
      // a street as an extract has it: a vertex every few metres, not two ends far outside the tile
      const dense = 'line' in f ? densify(f.line) : points
      const local = dense.map((p) => tilePoint(p, z, x, y))
      encoded.push(new Pbf().packed(2, tags).uint(3, type).packed(4, geometry(local, type)))
    }
    for (const f of encoded) layer.message(2, f)
    for (const k of keys) layer.text(3, k)
    for (const v of values) layer.message(4, new Pbf().text(1, v))
    layer.uint(5, EXTENT)
    tile.message(3, layer)
  }
  return Uint8Array.from(tile.bytes)
}

/** A PMTiles v3 archive of the tiles given (z/x/y → bytes). */
export function pmtilesArchive(
  tiles: { z: number; x: number; y: number; data: Uint8Array }[],
  bounds: { minLng: number; minLat: number; maxLng: number; maxLat: number },
): Uint8Array {
  const entries = tiles
    .map((t) => ({ ...t, id: zxyToTileId(t.z, t.x, t.y) }))
    .sort((a, b) => a.id - b.id)
  let offset = 0
  const placed = entries.map((e) => {
    const at = offset
    offset += e.data.length
    return { ...e, offset: at }
  })
  const dir = new Pbf()
  dir.varint(placed.length)
  let last = 0
  for (const e of placed) {
    dir.varint(e.id - last)
    last = e.id
  }
  for (const _ of placed) dir.varint(1)
  for (const e of placed) dir.varint(e.data.length)
  placed.forEach((e, i) => {
    dir.varint(i > 0 ? 0 : e.offset + 1)
  })
  const root = Uint8Array.from(dir.bytes)
  const metadata = new TextEncoder().encode(
    JSON.stringify({
      vector_layers: ['roads', 'places', 'water', 'earth', 'landuse'].map((id) => ({
        id,
        fields: {},
      })),
    }),
  )
  const HEADER = 127
  const rootOffset = HEADER
  const metadataOffset = rootOffset + root.length
  const dataOffset = metadataOffset + metadata.length
  const total = dataOffset + offset
  const out = new Uint8Array(total)
  const view = new DataView(out.buffer)
  out.set(new TextEncoder().encode('PMTiles'), 0)
  view.setUint8(7, 3)
  const u64 = (at: number, value: number) => {
    view.setUint32(at, value % 2 ** 32, true)
    view.setUint32(at + 4, Math.floor(value / 2 ** 32), true)
  }
  u64(8, rootOffset)
  u64(16, root.length)
  u64(24, metadataOffset)
  u64(32, metadata.length)
  u64(40, dataOffset) // no leaf directories
  u64(48, 0)
  u64(56, dataOffset)
  u64(64, offset)
  u64(72, placed.length)
  u64(80, placed.length)
  u64(88, placed.length)
  view.setUint8(96, 1) // clustered
  view.setUint8(97, 1) // internal compression: none
  view.setUint8(98, 1) // tile compression: none
  view.setUint8(99, 1) // vector tiles
  const zooms = placed.map((e) => e.z)
  view.setUint8(100, Math.min(...zooms))
  view.setUint8(101, Math.max(...zooms))
  const e7 = (n: number) => Math.round(n * 1e7)
  view.setInt32(102, e7(bounds.minLng), true)
  view.setInt32(106, e7(bounds.minLat), true)
  view.setInt32(110, e7(bounds.maxLng), true)
  view.setInt32(114, e7(bounds.maxLat), true)
  view.setUint8(118, Math.max(...zooms))
  view.setInt32(119, e7((bounds.minLng + bounds.maxLng) / 2), true)
  view.setInt32(123, e7((bounds.minLat + bounds.maxLat) / 2), true)
  out.set(root, rootOffset)
  out.set(metadata, metadataOffset)
  let at = dataOffset
  for (const e of placed) {
    out.set(e.data, at)
    at += e.data.length
  }
  return out
}

/**
 * The archive of a few streets and names around a point (every zoom from `minZoom` to `maxZoom`, the
 * tile holding the point), written to `file`.
 */
export function writeStreetArchive(
  file: string,
  around: Lnglat,
  features: readonly ArchiveFeature[],
  zooms: { min: number; max: number } = { min: 10, max: 15 },
): Uint8Array {
  const tiles: { z: number; x: number; y: number; data: Uint8Array }[] = []
  for (let z = zooms.min; z <= zooms.max; z++) {
    const [x, y] = tileOf(around, z)
    tiles.push({ z, x, y, data: vectorTile(features, z, x, y) })
  }
  const d = 0.05
  const archive = pmtilesArchive(tiles, {
    minLng: around[0] - d,
    minLat: around[1] - d,
    maxLng: around[0] + d,
    maxLat: around[1] + d,
  })
  writeFileSync(file, archive)
  return archive
}
