import { Trans, useLingui } from '@lingui/react/macro'
import { type ComponentType, type LazyExoticComponent, lazy, Suspense, useState } from 'react'
import type { BillboardHealth, BillboardStateName } from '../../contract/billboards'
import type { BillboardMapProps, MapBillboard } from '../lib/billboard-map'
import { ErrorBoundary } from '../ui/error-boundary'

type Pinned = MapBillboard & { state: BillboardStateName }

// The shop's map (its style and tiles as configured there), a chunk of its own: loaded when the
// fleet shows it, never with the console's other pages.
const BillboardMap = lazy(() => import('../lib/billboard-map')) as LazyExoticComponent<
  ComponentType<BillboardMapProps<Pinned>>
>

/** Each state's colour, the state badges' own (billboards.css). */
export const STATE_COLORS: Record<BillboardStateName, string> = {
  playing: 'var(--c-green)',
  stale: 'var(--c-orange)',
  offline: 'var(--c-error)',
  never: 'var(--c-darkgrey)',
}

/**
 * The billboards the fleet list shows, on the map, each pin coloured by its state; a pin opens its
 * billboard's page. One city at a time (billboards cities apart would be one blot on a world map).
 * The list below is the way for keyboards and screen readers: the pins are a pointer's shortcut.
 */
export function FleetMap({
  billboards,
  onOpen,
}: {
  billboards: readonly BillboardHealth[]
  onOpen: (deviceId: string) => void
}) {
  const { t } = useLingui()
  const [city, setCity] = useState<string | null>(null)
  const placed = billboards.flatMap((b): Pinned[] =>
    b.coordinates
      ? [
          {
            deviceId: b.deviceId,
            location: b.location,
            city: b.city,
            coordinates: b.coordinates,
            state: b.state,
          },
        ]
      : [],
  )
  const cities = [...new Set(placed.map((b) => b.city ?? ''))]
  const shown = city !== null && cities.includes(city) ? city : (cities[0] ?? null)
  const onMap = placed.filter((b) => b.city === shown)
  if (onMap.length === 0) return null
  return (
    <section className="ops-fleet__map-box" aria-label={t`Map of the fleet`}>
      {cities.length > 1 ? (
        <label className="ops-select">
          <span>
            <Trans>City on the map</Trans>
          </span>
          <select value={shown ?? ''} onChange={(e) => setCity(e.target.value)}>
            {cities.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <p className="ops-fleet__legend">
        <Trans>
          Pins by state: <span className="ops-fleet__key ops-fleet__key--playing">playing</span>,{' '}
          <span className="ops-fleet__key ops-fleet__key--stale">late</span>,{' '}
          <span className="ops-fleet__key ops-fleet__key--offline">offline</span>,{' '}
          <span className="ops-fleet__key ops-fleet__key--never">never connected</span>.
        </Trans>
      </p>
      <div className="ops-fleet__map" data-testid="fleet-map">
        <ErrorBoundary
          fallback={
            <p className="map-fallback">
              <Trans>
                The map cannot be shown on this device: the list below has every billboard.
              </Trans>
            </p>
          }
        >
          <Suspense fallback={<div className="skeleton map-skeleton" />}>
            <BillboardMap
              // a new city, or another set of billboards, is a new view fitted to them
              key={`${shown}:${onMap.map((b) => b.deviceId).join(',')}`}
              devices={onMap}
              selectedId={null}
              onSelect={(b) => onOpen(b.deviceId)}
              unavailable={() => false}
              pinColor={(b) => STATE_COLORS[b.state]}
            />
          </Suspense>
        </ErrorBoundary>
      </div>
    </section>
  )
}
