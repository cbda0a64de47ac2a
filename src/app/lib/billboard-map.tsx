import 'maplibre-gl/dist/maplibre-gl.css'
import './billboard-map.css'
import { Trans, useLingui } from '@lingui/react/macro'
import {
  addProtocol,
  type GeoJSONSource,
  type MapSourceDataEvent,
  type StyleSpecification,
  setWorkerUrl,
} from 'maplibre-gl'
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'
import { PMTiles, Protocol } from 'pmtiles'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import MapGl, { Layer, type MapRef, Marker, NavigationControl, Source } from 'react-map-gl/maplibre'
import type { Device } from '../../contract/catalogue'
import { map as mapApi } from '../../contract/map'
import type { LngLat } from '../../domain/geo'
import { callApi } from './api'
import { mapLocale } from './map-locale'
import { keepForOffline } from './map-offline'
import { billboardShapes } from './map-shapes'
import { atlasStyle, citiesOf, streetStyle } from './map-style'

// docs/development.md: maplibre 6 needs its worker URL set, or "Worker failed to load".
setWorkerUrl(workerUrl)
// The street extract is one PMTiles archive the shop serves by ranges (docs/maps.md)
const protocol = new Protocol()
addProtocol('pmtiles', protocol.tile)

// Until the style is known (and if nothing else can be drawn): the shop's background.
const PLAIN: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#efe9e1' } }],
}

/** What the map draws of a billboard: the shop's catalogue devices, the advertisers' inventory. */
export type MapBillboard = Pick<Device, 'deviceId' | 'location' | 'coordinates'> & {
  viewingAreaCoordinates?: Device['viewingAreaCoordinates']
  trafficDirection?: Device['trafficDirection']
  city?: string
}

export type BillboardMapProps<D extends MapBillboard = Device> = {
  devices: readonly D[]
  /** The billboard the map flies to. */
  selectedId: string | null
  /** Billboards drawn as chosen too, where several may be (an advertiser's campaign). */
  chosenIds?: readonly string[]
  onSelect: (device: D) => void
  unavailable: (device: D) => boolean
  /** Where the shopper is ("Near me"): the map centres there and marks it. */
  here?: LngLat | null
  /** A pin's own colour (a CSS colour: the console's fleet colours each by its state); the shop's
   * colours when absent */
  pinColor?: (device: D) => string | undefined
}

type Pin =
  | { kind: 'cluster'; id: number; count: number; lng: number; lat: number }
  | { kind: 'billboard'; deviceId: string }

export default function BillboardMap<D extends MapBillboard = Device>({
  devices,
  selectedId,
  chosenIds = [],
  onSelect,
  unavailable,
  here = null,
  pinColor,
}: BillboardMapProps<D>) {
  const { t, i18n } = useLingui()
  const ref = useRef<MapRef>(null)
  const [look, setLook] = useState<{ style: StyleSpecification; archive: PMTiles | null } | null>(
    null,
  )
  const [pins, setPins] = useState<readonly Pin[]>([])
  const bounds = useMemo(() => {
    const lngs = devices.map((d) => d.coordinates.lng)
    const lats = devices.map((d) => d.coordinates.lat)
    return [
      [Math.min(...lngs) - 0.01, Math.min(...lats) - 0.01],
      [Math.max(...lngs) + 0.01, Math.max(...lats) + 0.01],
    ] as [[number, number], [number, number]]
  }, [devices])
  const byId = useMemo(() => new Map(devices.map((d) => [d.deviceId, d])), [devices])
  const cities = useMemo(
    () =>
      citiesOf(
        devices.flatMap((d) => (d.city ? [{ city: d.city, coordinates: d.coordinates }] : [])),
      ),
    [devices],
  )

  // The look: the operator's street extract when the shop has one, else Natural Earth's countries.
  const lang = i18n.locale
  useEffect(() => {
    let live = true
    const fallback = { tiles: null, glyphs: '/api/v1/map/glyphs/{fontstack}/{range}.pbf' }
    void callApi(mapApi.settings, {})
      .catch(() => fallback)
      .then(async (settings) => {
        if (settings.tiles) {
          const archive = new PMTiles(new URL(settings.tiles, window.location.href).href)
          protocol.add(archive)
          return { style: streetStyle({ ...settings, tiles: settings.tiles }, lang), archive }
        }
        return { style: await atlasStyle(settings, cities), archive: null }
      })
      .catch(() => ({ style: PLAIN, archive: null }))
      .then((next) => {
        if (live) setLook(next)
      })
    return () => {
      live = false
    }
  }, [lang, cities])

  const shapes = useMemo(
    () => billboardShapes(devices, [...chosenIds, ...(selectedId ? [selectedId] : [])]),
    [devices, selectedId, chosenIds],
  )

  // The pins drawn as buttons: a cluster of nearby billboards, or one billboard, as the clustered
  // source has them at this zoom (it splits them as the map zooms in).
  const refreshPins = useCallback(() => {
    const map = ref.current?.getMap()
    if (!map?.getSource('billboards')) return
    const seen = new Set<string>()
    const next: Pin[] = []
    for (const f of map.querySourceFeatures('billboards')) {
      const props = f.properties as Record<string, unknown>
      const [lng = 0, lat = 0] = f.geometry.type === 'Point' ? f.geometry.coordinates : []
      const pin: Pin = props.cluster
        ? {
            kind: 'cluster',
            id: Number(props.cluster_id),
            count: Number(props.point_count),
            lng,
            lat,
          }
        : { kind: 'billboard', deviceId: String(props.deviceId) }
      const key = pin.kind === 'cluster' ? `cluster:${pin.id}` : pin.deviceId
      if (seen.has(key)) continue
      seen.add(key)
      next.push(pin)
    }
    setPins((before) => (JSON.stringify(before) === JSON.stringify(next) ? before : next))
  }, [])

  useEffect(() => {
    const selected = devices.find((d) => d.deviceId === selectedId)
    if (selected && ref.current) {
      ref.current.flyTo({
        center: [selected.coordinates.lng, selected.coordinates.lat],
        zoom: 16,
        duration: 800,
      })
    }
  }, [selectedId, devices])

  useEffect(() => {
    if (here && ref.current)
      ref.current.flyTo({ center: [here.lng, here.lat], zoom: 14, duration: 800 })
  }, [here])

  const zoomInto = (pin: Extract<Pin, { kind: 'cluster' }>) => {
    const map = ref.current?.getMap()
    const source = map?.getSource<GeoJSONSource>('billboards')
    if (!map || !source) return
    void source.getClusterExpansionZoom(pin.id).then((zoom) => {
      map.easeTo({ center: [pin.lng, pin.lat], zoom: zoom + 0.5, duration: 500 })
    })
  }

  const locale = useMemo(() => mapLocale(i18n), [i18n])
  // where the map opens (read once: later choices fly there): around the shopper when "Near me" opened
  // it, else around the billboard chosen (a QR code, a return), else every billboard
  const [opening] = useState(
    () => here ?? devices.find((d) => d.deviceId === selectedId)?.coordinates ?? null,
  )
  if (!look) return <div className="skeleton map-skeleton" />

  return (
    <div className="billboard-map">
      <MapGl
        ref={ref}
        mapStyle={look.style}
        initialViewState={
          opening
            ? { longitude: opening.lng, latitude: opening.lat, zoom: here ? 14 : 16 }
            : { bounds, fitBoundsOptions: { padding: 40 } }
        }
        style={{ width: '100%', height: '100%' }}
        attributionControl={{ compact: true }}
        locale={locale}
        cooperativeGestures
        onLoad={(e) => {
          // what the map draws, for a test (or a person at the console) to ask
          Object.assign(e.target.getContainer(), { maplibreMap: e.target })
          refreshPins()
          if (look.archive) {
            void keepForOffline(
              look.archive,
              devices.map((d) => d.coordinates),
            ).catch(() => undefined)
          }
        }}
        onMoveEnd={refreshPins}
        onSourceData={(e: MapSourceDataEvent) => {
          if (e.sourceId === 'billboards' && e.isSourceLoaded) refreshPins()
        }}
      >
        <NavigationControl showCompass={false} />
        <Source id="viewing-areas" type="geojson" data={shapes.viewingAreas}>
          <Layer
            id="viewing-areas-fill"
            type="fill"
            paint={{
              'fill-color': ['case', ['get', 'selected'], '#ff6b1a', '#e8488a'],
              'fill-opacity': ['case', ['get', 'selected'], 0.35, 0.18],
            }}
          />
          <Layer
            id="viewing-areas-line"
            type="line"
            paint={{ 'line-color': '#c2410c', 'line-width': 1 }}
          />
        </Source>
        <Source id="facing" type="geojson" data={shapes.facing}>
          <Layer
            id="facing-fill"
            type="fill"
            paint={{ 'fill-color': '#c2410c', 'fill-opacity': 0.3 }}
          />
        </Source>
        <Source
          id="billboards"
          type="geojson"
          data={shapes.points}
          cluster
          clusterRadius={44}
          clusterMaxZoom={15}
        >
          {/* not drawn: the pins are buttons (below); the layer makes the source load */}
          <Layer
            id="billboard-points"
            type="circle"
            paint={{ 'circle-radius': 0, 'circle-opacity': 0 }}
          />
        </Source>
        {pins.map((pin) => {
          if (pin.kind === 'cluster') {
            return (
              <Marker key={`cluster:${pin.id}`} longitude={pin.lng} latitude={pin.lat}>
                <button
                  type="button"
                  className="map-cluster"
                  tabIndex={-1}
                  aria-hidden="true"
                  title={t`${pin.count} billboards here: zoom in`}
                  onClick={() => zoomInto(pin)}
                >
                  {pin.count}
                </button>
              </Marker>
            )
          }
          const device = byId.get(pin.deviceId)
          if (!device) return null
          const chosen = device.deviceId === selectedId || chosenIds.includes(device.deviceId)
          return (
            <Marker
              key={device.deviceId}
              longitude={device.coordinates.lng}
              latitude={device.coordinates.lat}
              anchor="bottom"
            >
              <button
                type="button"
                className={`map-pin ${chosen ? 'map-pin--selected' : ''} ${unavailable(device) ? 'map-pin--off' : ''}`}
                aria-label={t`Billboard: ${device.location}`}
                aria-pressed={chosen}
                // a pointer shortcut to the list below, which has the same choices for keyboards and
                // screen readers: out of the tab order and the accessibility tree, so pins of billboards
                // standing close together are not counted as crowded touch targets
                tabIndex={-1}
                aria-hidden="true"
                disabled={unavailable(device)}
                style={pinColor?.(device) ? { color: pinColor(device) } : undefined}
                onClick={() => onSelect(device)}
              >
                <svg viewBox="0 0 24 32" width="28" height="36" aria-hidden="true">
                  <path
                    d="M12 0C5.4 0 0 5.4 0 12c0 9 12 20 12 20s12-11 12-20C24 5.4 18.6 0 12 0z"
                    fill="currentColor"
                  />
                  <rect x="6" y="7" width="12" height="8" rx="1" fill="#fff" />
                </svg>
              </button>
            </Marker>
          )
        })}
        {here ? (
          <Marker longitude={here.lng} latitude={here.lat}>
            <span className="map-here" aria-hidden="true" />
          </Marker>
        ) : null}
      </MapGl>
      {look.archive ? null : (
        <p className="map-note">
          <Trans>Street detail appears once the shop adds a map extract.</Trans>
        </p>
      )}
    </div>
  )
}
