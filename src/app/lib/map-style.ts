import { type Flavor, layers, namedFlavor } from '@protomaps/basemaps'
import type { GeoJSONSourceSpecification, StyleSpecification } from 'maplibre-gl'
import { feature, mesh } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import atlasUrl from 'world-atlas/countries-50m.json?url'
import type { MapSettings } from '../../contract/map'

// The map's two looks (docs/maps.md). With the operator's PMTiles extract: Protomaps' basemap
// (streets, water, parks, place names) in the shop's colours. Without one: Natural Earth's land,
// water and borders (world-atlas, a file of this build) and the catalogue's cities named. Both label
// with the glyphs the shop's server makes from its own font.

/** The shop's colours (src/app/styles/app.css) on Protomaps' light flavour. */
const SHOP: Partial<Flavor> = {
  background: '#efe9e1',
  earth: '#f6f1ea',
  water: '#a9cfe0',
  park_a: '#d9ead0',
  park_b: '#cfe4c4',
  wood_a: '#d4e6c8',
  wood_b: '#c8dfba',
  buildings: '#e7dfd5',
  pedestrian: '#f3ece4',
  major: '#ffffff',
  highway: '#ffd8bd',
  highway_casing_early: '#f1b48d',
  highway_casing_late: '#f1b48d',
  railway: '#b9b0a6',
  boundaries: '#9a8f86',
  city_label: '#1d1d1f',
  city_label_halo: '#ffffff',
  subplace_label: '#5f5f5f',
  roads_label_major: '#333333',
  roads_label_minor: '#5f5f5f',
}

/** The fonts the labels ask for; the server draws each from Noto Sans. */
const FONTS = { regular: 'Noto Sans Regular', bold: 'Noto Sans Medium', italic: 'Noto Sans Italic' }

const absolute = (path: string) =>
  new URL(path, window.location.href).href.replace(/%7B/g, '{').replace(/%7D/g, '}')

/** Protomaps' basemap over the archive the shop serves (pmtiles:// is registered by the map). */
export function streetStyle(
  settings: MapSettings & { tiles: string },
  lang: string,
): StyleSpecification {
  const flavor: Flavor = { ...namedFlavor('light'), ...SHOP, ...FONTS }
  return {
    version: 8,
    glyphs: absolute(settings.glyphs),
    sources: {
      protomaps: {
        type: 'vector',
        url: `pmtiles://${absolute(settings.tiles)}`,
        attribution: '© OpenStreetMap',
      },
    },
    // Points of interest draw icons from a sprite sheet the shop does not ship: left out
    layers: layers('protomaps', flavor, { lang }).filter((layer) => layer.id !== 'pois'),
  }
}

export type City = { name: string; lng: number; lat: number }

/** The cities of the billboards given, each once, at the middle of its billboards. */
export function citiesOf(
  devices: readonly { city: string; coordinates: { lat: number; lng: number } }[],
): City[] {
  const byName = new Map<string, { lng: number; lat: number; n: number }>()
  for (const d of devices) {
    const at = byName.get(d.city) ?? { lng: 0, lat: 0, n: 0 }
    byName.set(d.city, {
      lng: at.lng + d.coordinates.lng,
      lat: at.lat + d.coordinates.lat,
      n: at.n + 1,
    })
  }
  return [...byName].map(([name, at]) => ({ name, lng: at.lng / at.n, lat: at.lat / at.n }))
}

type Countries = Topology<{ countries: GeometryCollection }>

let atlas: Promise<Countries> | null = null
/** Natural Earth's countries (1:50m), fetched once from this build's files. */
function loadAtlas(): Promise<Countries> {
  atlas ??= fetch(atlasUrl).then((answer) => {
    if (!answer.ok) throw new Error(`world atlas: ${answer.status}`)
    return answer.json() as Promise<Countries>
  })
  atlas.catch(() => {
    atlas = null
  })
  return atlas
}

/** The atlas file's address (the offline cache keeps it with the map's tiles). */
export const ATLAS_URL = atlasUrl

/** Land, water, borders and the catalogue's cities: a real map without a street extract. */
export async function atlasStyle(
  settings: MapSettings,
  cities: readonly City[],
): Promise<StyleSpecification> {
  const topology = await loadAtlas()
  const land = feature(topology, topology.objects.countries)
  const borders = mesh(topology, topology.objects.countries, (a, b) => a !== b)
  const cityPoints: GeoJSONSourceSpecification = {
    type: 'geojson',
    data: {
      type: 'FeatureCollection',
      features: cities.map((city) => ({
        type: 'Feature',
        properties: { name: city.name },
        geometry: { type: 'Point', coordinates: [city.lng, city.lat] },
      })),
    },
  }
  return {
    version: 8,
    glyphs: absolute(settings.glyphs),
    sources: {
      land: { type: 'geojson', data: land, attribution: 'Natural Earth' },
      borders: { type: 'geojson', data: borders },
      cities: cityPoints,
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': SHOP.water ?? '#a9cfe0' } },
      {
        id: 'land',
        type: 'fill',
        source: 'land',
        paint: { 'fill-color': SHOP.earth ?? '#f6f1ea' },
      },
      {
        id: 'borders',
        type: 'line',
        source: 'borders',
        paint: {
          'line-color': SHOP.boundaries ?? '#9a8f86',
          'line-width': 1,
          'line-dasharray': [3, 2],
        },
      },
      {
        id: 'city-names',
        type: 'symbol',
        source: 'cities',
        layout: {
          'text-field': ['get', 'name'],
          'text-font': [FONTS.bold],
          'text-size': 15,
          'text-anchor': 'top',
          'text-offset': [0, 0.6],
          'text-allow-overlap': true,
        },
        paint: { 'text-color': '#1d1d1f', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
      },
    ],
  }
}
