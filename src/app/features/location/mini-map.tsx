import { Trans, useLingui } from '@lingui/react/macro'
import { useMemo } from 'react'
import type { Device } from '../../../contract/catalogue'
import { Button } from '../../ui/button'

const W = 320
const H = 200
const PAD = 24

type Props = {
  devices: readonly Device[]
  selectedId: string | null
  unavailable: (device: Device) => boolean
  onExplore: () => void
}

/**
 * Lighthouse performance: a light overview of where the billboards stand, drawn as SVG
 * from their coordinates, so the location step paints without maplibre (820 KB). The interactive
 * map loads only when the shopper asks for it; the list beside it holds every choice.
 */
export function MiniMap({ devices, selectedId, unavailable, onExplore }: Props) {
  const { t } = useLingui()
  const rank = (device: Device) =>
    device.deviceId === selectedId ? 2 : unavailable(device) ? 0 : 1
  const { pins, cities } = useMemo(() => {
    const lngs = devices.map((d) => d.coordinates.lng)
    const lats = devices.map((d) => d.coordinates.lat)
    const minLng = Math.min(...lngs)
    const maxLng = Math.max(...lngs)
    const minLat = Math.min(...lats)
    const maxLat = Math.max(...lats)
    const spanLng = Math.max(maxLng - minLng, 0.01)
    const spanLat = Math.max(maxLat - minLat, 0.01)
    const x = (lng: number) => PAD + ((lng - minLng) / spanLng) * (W - 2 * PAD)
    const y = (lat: number) => H - PAD - ((lat - minLat) / spanLat) * (H - 2 * PAD)
    const pins = devices.map((d) => ({
      device: d,
      x: x(d.coordinates.lng),
      y: y(d.coordinates.lat),
    }))
    const byCity = new Map<string, { x: number; y: number; n: number }>()
    for (const pin of pins) {
      const city = byCity.get(pin.device.city) ?? { x: 0, y: 0, n: 0 }
      byCity.set(pin.device.city, { x: city.x + pin.x, y: city.y + pin.y, n: city.n + 1 })
    }
    const cities = [...byCity].map(([name, c]) => ({ name, x: c.x / c.n, y: c.y / c.n }))
    return { pins, cities }
  }, [devices])

  return (
    <div className="mini-map">
      <svg
        className="mini-map__svg"
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={t`Overview: ${devices.length} billboards in ${cities.map((c) => c.name).join(', ')}`}
        preserveAspectRatio="xMidYMid meet"
      >
        {/* billboards close together overlap: the open ones, then the chosen one, are drawn on top */}
        {[...pins]
          .sort((a, b) => rank(a.device) - rank(b.device))
          .map(({ device, x, y }) => (
            <circle
              key={device.deviceId}
              cx={x}
              cy={y}
              r={device.deviceId === selectedId ? 8 : 6}
              className={`mini-map__pin ${device.deviceId === selectedId ? 'mini-map__pin--selected' : ''} ${unavailable(device) ? 'mini-map__pin--off' : ''}`}
            />
          ))}
        {cities.map((city) => (
          <text
            key={city.name}
            x={Math.min(Math.max(city.x, 40), W - 40)}
            y={city.y > H / 2 ? city.y - 14 : city.y + 22}
            textAnchor="middle"
            className="mini-map__label"
          >
            {city.name}
          </text>
        ))}
      </svg>
      <Button kind="black" size="small" className="mini-map__explore" onClick={onExplore}>
        <Trans>Explore the map</Trans>
      </Button>
    </div>
  )
}
