import 'maplibre-gl/dist/maplibre-gl.css'
import { useLingui } from '@lingui/react/macro'
import { type StyleSpecification, setWorkerUrl } from 'maplibre-gl'
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'
import { useEffect, useMemo, useRef } from 'react'
import MapGl, { Layer, type MapRef, Marker, Source } from 'react-map-gl/maplibre'
import type { Device } from '../../contract/catalogue'
import { MAP_STYLE_URL } from '../lib/config'

// docs/development.md: maplibre 6 needs its worker URL set, or "Worker failed to load".
setWorkerUrl(workerUrl)

// With no configured style (no tiles offline): a plain background, the billboards drawn on it.
const OFFLINE_STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#efe9e1' } }],
}

/** What the map draws of a billboard: the shop's catalogue devices, the advertisers' inventory. */
export type MapBillboard = Pick<Device, 'deviceId' | 'location' | 'coordinates'> & {
  viewingAreaCoordinates?: Device['viewingAreaCoordinates']
}

export type BillboardMapProps<D extends MapBillboard = Device> = {
  devices: readonly D[]
  /** The billboard the map flies to. */
  selectedId: string | null
  /** Billboards drawn as chosen too, where several may be (an advertiser's campaign). */
  chosenIds?: readonly string[]
  onSelect: (device: D) => void
  unavailable: (device: D) => boolean
}

export default function BillboardMap<D extends MapBillboard = Device>({
  devices,
  selectedId,
  chosenIds = [],
  onSelect,
  unavailable,
}: BillboardMapProps<D>) {
  const { t } = useLingui()
  const ref = useRef<MapRef>(null)
  const bounds = useMemo(() => {
    const lngs = devices.map((d) => d.coordinates.lng)
    const lats = devices.map((d) => d.coordinates.lat)
    return [
      [Math.min(...lngs) - 0.01, Math.min(...lats) - 0.01],
      [Math.max(...lngs) + 0.01, Math.max(...lats) + 0.01],
    ] as [[number, number], [number, number]]
  }, [devices])

  const viewingAreas = useMemo(
    () => ({
      type: 'FeatureCollection' as const,
      features: devices.flatMap((d) => {
        const area = d.viewingAreaCoordinates ?? []
        if (area.length < 3) return []
        const selected = d.deviceId === selectedId || chosenIds.includes(d.deviceId)
        return [
          {
            type: 'Feature' as const,
            properties: { deviceId: d.deviceId, selected },
            geometry: {
              type: 'Polygon' as const,
              coordinates: [
                [...area.map((c) => [c.lng, c.lat]), [area[0]?.lng ?? 0, area[0]?.lat ?? 0]],
              ],
            },
          },
        ]
      }),
    }),
    [devices, selectedId, chosenIds],
  )

  useEffect(() => {
    const selected = devices.find((d) => d.deviceId === selectedId)
    if (selected && ref.current) {
      ref.current.flyTo({
        center: [selected.coordinates.lng, selected.coordinates.lat],
        zoom: 15,
        duration: 800,
      })
    }
  }, [selectedId, devices])

  return (
    <MapGl
      ref={ref}
      mapStyle={MAP_STYLE_URL ?? OFFLINE_STYLE}
      initialViewState={{ bounds, fitBoundsOptions: { padding: 40 } }}
      style={{ width: '100%', height: '100%' }}
      attributionControl={false}
      cooperativeGestures
    >
      <Source id="viewing-areas" type="geojson" data={viewingAreas}>
        <Layer
          id="viewing-areas-fill"
          type="fill"
          paint={{
            'fill-color': ['case', ['get', 'selected'], '#ff6b1a', '#e8488a'],
            'fill-opacity': 0.25,
          }}
        />
        <Layer
          id="viewing-areas-line"
          type="line"
          paint={{ 'line-color': '#c2410c', 'line-width': 1 }}
        />
      </Source>
      {devices.map((device) => {
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
    </MapGl>
  )
}
