import * as v from 'valibot'
import { API_BASE, endpoint } from './endpoint'

// The map the shop draws (docs/maps.md): its street detail from a PMTiles archive the server serves
// with Range requests, and the glyphs of its labels, made by the server from a font it ships. The
// browser loads nothing of the map from another origin.

export const MapSettingsSchema = v.object({
  /** The archive's address (pmtiles:// in front of it for MapLibre), or null: no street detail. */
  tiles: v.nullable(v.string()),
  /** MapLibre's glyphs template ({fontstack}, {range}). */
  glyphs: v.string(),
})
export type MapSettings = v.InferOutput<typeof MapSettingsSchema>

/** The archive's address under the API (the service worker keeps its ranges for offline use). */
export const MAP_TILES_PATH = `${API_BASE}/map/tiles.pmtiles`
/** The glyphs' addresses: `/api/v1/map/glyphs/{fontstack}/{range}.pbf`. */
export const MAP_GLYPHS_PREFIX = `${API_BASE}/map/glyphs/`

export const map = {
  settings: endpoint({
    name: 'getMapSettings',
    method: 'GET',
    path: '/map',
    summary: 'Where the map finds its street detail (null without an archive) and its glyphs',
    response: MapSettingsSchema,
  }),
  tiles: endpoint({
    name: 'getMapTiles',
    method: 'GET',
    path: '/map/tiles.pmtiles',
    summary:
      'The PMTiles archive of the MAP_TILES setting (a file, an object of the bucket or a URL), with single-range Range support (206, 416); HEAD too',
    headers: [{ name: 'Range', required: false, description: 'one bytes= range' }],
    file: ['application/vnd.pmtiles'],
    errors: ['file_not_found', 'storage_unavailable'],
    statuses: { 416: 'Range past the end' },
  }),
  glyphs: endpoint({
    name: 'getMapGlyphs',
    method: 'GET',
    path: '/map/glyphs/{fontstack}/{range}',
    summary:
      "{start}-{end}.pbf: 256 glyphs of the map's labels as signed distance fields (MapLibre's glyph format), drawn from Noto Sans for any font stack",
    file: ['application/x-protobuf'],
    errors: ['file_not_found'],
  }),
} as const
