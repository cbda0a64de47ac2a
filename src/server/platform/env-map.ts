import * as v from 'valibot'

// MAP_TILES, the map's street detail (docs/maps.md): a PMTiles archive the server serves itself at
// /api/v1/map/tiles.pmtiles with Range requests (src/server/map/archive.ts). A file (a path under
// DATA_DIR, or absolute), an object of the S3 bucket (s3:<key>, which needs S3_BUCKET: the start
// stops without it), or an http(s) URL. Unset: the map draws Natural Earth's countries and the
// catalogue's cities.
export const MapTilesSchema = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1),
    v.check(
      (value) => !/^[a-z][\w+.-]*:\/\//i.test(value) || /^https?:\/\/[^/]+\/./i.test(value),
      'MAP_TILES must be a file path, s3:<key> or an http(s) URL of the archive',
    ),
  ),
)
