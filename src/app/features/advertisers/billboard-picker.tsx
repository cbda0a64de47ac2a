import { Trans, useLingui } from '@lingui/react/macro'
import { type ComponentType, type LazyExoticComponent, lazy, Suspense, useState } from 'react'
import type { InventoryLine } from '../../../contract/advertisers'
import type { BillboardMapProps } from '../../lib/billboard-map'
import { ErrorBoundary } from '../../ui/error-boundary'
import { count, money } from './format'

// The shop's map (its style and tiles as configured there), a chunk of its own: loaded when this
// page shows it, never by the shop's first screen.
const BillboardMap = lazy(() => import('../../lib/billboard-map')) as LazyExoticComponent<
  ComponentType<BillboardMapProps<InventoryLine>>
>

type Props = {
  lines: readonly InventoryLine[] | null
  chosen: readonly string[]
  /** The campaign's currency once known: billboards sold in another are shown, not pickable. */
  currency: string | null
  onToggle: (deviceId: string, on: boolean) => void
  error: string | null
}

/**
 * The billboards sold to advertisers, on a map and in a list that stay in step: a pin picks or
 * drops its billboard as the list's box does. The list is the way for keyboards and screen readers
 * (the pins are a pointer's shortcut to it, as on the shop's map), with what a play reaches and
 * costs, and what is still free.
 */
export function BillboardPicker({ lines, chosen, currency, onToggle, error }: Props) {
  const { t, i18n } = useLingui()
  // the map shows one city at a time (billboards cities apart would be one blot on a world map): the
  // one chosen here, else that of the first billboard picked, else the list's first
  const [city, setCity] = useState<string | null>(null)
  const cities = [...new Set((lines ?? []).map((l) => l.city))]
  const firstChosen = lines?.find((l) => chosen.includes(l.deviceId))
  const shown = city ?? firstChosen?.city ?? cities[0] ?? null
  const onMap = (lines ?? []).filter((l) => l.city === shown)
  const offCurrency = (line: InventoryLine) => currency !== null && line.currency !== currency
  return (
    <fieldset
      className={`field ${error ? 'field--error' : ''}`}
      aria-describedby={error ? 'billboards-error' : undefined}
    >
      <legend className="field__label">
        <Trans>Billboards</Trans>
      </legend>
      {lines === null ? <div className="skeleton" style={{ height: 120 }} /> : null}
      {lines?.length === 0 ? (
        <p className="field__hint">
          <Trans>No billboard is sold to advertisers at these dates.</Trans>
        </p>
      ) : null}
      {cities.length > 1 ? (
        <label className="adv__map-city">
          <Trans>City on the map</Trans>{' '}
          <select value={shown ?? ''} onChange={(e) => setCity(e.target.value)}>
            {cities.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {onMap.length > 0 ? (
        <section className="adv__map" aria-label={t`Map of the billboards`}>
          <ErrorBoundary
            fallback={
              <p className="map-fallback">
                <Trans>The map cannot be shown on this device. Choose from the list.</Trans>
              </p>
            }
          >
            <Suspense fallback={<div className="skeleton map-skeleton" />}>
              <BillboardMap
                // a new city is a new view, fitted to its billboards
                key={shown}
                devices={onMap}
                selectedId={null}
                chosenIds={chosen}
                onSelect={(line) => {
                  if (!offCurrency(line)) onToggle(line.deviceId, !chosen.includes(line.deviceId))
                }}
                unavailable={offCurrency}
              />
            </Suspense>
          </ErrorBoundary>
        </section>
      ) : null}
      <ul className="adv__billboards">
        {lines?.map((line) => {
          const id = `billboard-${line.deviceId}`
          const off = offCurrency(line)
          return (
            <li
              key={line.deviceId}
              className={`adv__billboard ${off ? 'adv__billboard--off' : ''}`}
            >
              <input
                id={id}
                type="checkbox"
                checked={chosen.includes(line.deviceId)}
                disabled={off}
                aria-describedby={off ? `${id}-why` : undefined}
                onChange={(e) => onToggle(line.deviceId, e.target.checked)}
              />
              <label htmlFor={id}>
                <strong>{line.location}</strong>, {line.city}
                <small>
                  {t`${count(line.impressionsPerPlay, i18n.locale)} impressions per play`} ·{' '}
                  {t`${money(line.costCentsPerPlay, line.currency, i18n.locale)} per play`} ·{' '}
                  {t`${count(line.freePlays, i18n.locale)} ad plays free at these dates`}
                </small>
                {off ? (
                  <small id={`${id}-why`}>
                    {t`Sold in ${line.currency}: this campaign is in ${currency}.`}
                  </small>
                ) : null}
              </label>
            </li>
          )
        })}
      </ul>
      {error ? (
        <p id="billboards-error" className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}
