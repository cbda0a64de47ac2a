import { gzipSync } from 'node:zlib'
import { MAP_GLYPHS_PREFIX, MAP_TILES_PATH, map as mapApi } from '../../contract/map.ts'
import { problem } from '../platform/http/errors.ts'
import { acceptsGzip } from '../platform/http/json.ts'
import { sendFileRange } from '../platform/http/range.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { err, ok } from '../platform/result.ts'
import type { MapArchive } from './archive.ts'
import { glyphRange, rangeStart } from './glyphs.ts'

// api-v1 "Map": where the map's parts are, the PMTiles archive served with Range requests, and the
// labels' glyphs made from the shop's own font.

export function mapRoutes(router: ApiRouter, archive: MapArchive | null) {
  // addresses on this origin: the app makes them absolute for MapLibre's worker
  router.handle(mapApi.settings, async ({ c }) => {
    // a new archive shows on the next visit, not after a day
    c.header('Cache-Control', 'no-cache')
    const file = archive ? await archive.file().catch(() => null) : null
    return ok({
      tiles: file ? MAP_TILES_PATH : null,
      glyphs: `${MAP_GLYPHS_PREFIX}{fontstack}/{range}.pbf`,
    })
  })

  router.handle(mapApi.tiles, async ({ c }) => {
    const file = archive ? await archive.file() : null
    if (!file) return err(problem('file_not_found'))
    const headers: Record<string, string> = {
      'Content-Type': 'application/vnd.pmtiles',
      'Accept-Ranges': 'bytes',
      ETag: file.etag,
      // an archive is replaced in place: browsers check again, and the ETag says it is the same one
      'Cache-Control': 'public, max-age=0, must-revalidate',
    }
    return ok(await sendFileRange(c, headers, file.size, (range) => file.open(range)))
  })

  // a range of glyphs is mostly the distance fields' smooth ramps: gzip takes about two thirds off
  const gzipped = new Map<string, Uint8Array<ArrayBuffer>>()
  router.handle(mapApi.glyphs, async ({ c, params }) => {
    const start = rangeStart(String(params.range))
    if (start === null) return err(problem('file_not_found'))
    const fontstack = String(params.fontstack)
    const headers = {
      'Content-Type': 'application/x-protobuf',
      // the same font for the life of a release
      'Cache-Control': 'public, max-age=86400',
      Vary: 'Accept-Encoding',
    }
    const glyphs = glyphRange(fontstack, start)
    if (!acceptsGzip(c.req.header('accept-encoding'))) return ok(c.body(glyphs, 200, headers))
    const key = `${fontstack}|${start}`
    let packed = gzipped.get(key)
    if (!packed) {
      packed = new Uint8Array(gzipSync(glyphs))
      if (gzipped.size < 64) gzipped.set(key, packed)
    }
    return ok(c.body(packed, 200, { ...headers, 'Content-Encoding': 'gzip' }))
  })
}
