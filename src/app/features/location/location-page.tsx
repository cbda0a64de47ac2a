import { Trans, useLingui } from '@lingui/react/macro'
import {
  Link,
  useLoaderData,
  useNavigate,
  useParams,
  useRouteContext,
  useSearch,
} from '@tanstack/react-router'
import {
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useState,
} from 'react'
import { useSnapshot } from 'valtio'
import type { Device } from '../../../contract/catalogue'
import { cityStateLabel } from '../../../domain/device'
import type { LngLat } from '../../../domain/geo'
import type { BillboardMapProps } from '../../lib/billboard-map'
import { useHydrated } from '../../lib/hydration'
import { problemText } from '../../lib/problem-text'
import { trafficDirectionName } from '../../lib/traffic-direction'
import { withWholeCatalog } from '../../locale/i18n'
import { adoptDevices, devicesStore } from '../../stores/devices'
import { orderStore, setActiveDevice } from '../../stores/order'
import { toggleModal } from '../../stores/ui'
import { ActionBar } from '../../ui/action-bar'
import { Button } from '../../ui/button'
import { ErrorBoundary } from '../../ui/error-boundary'
import { Notice } from '../../ui/notice'
import { Picture } from '../../ui/picture'
import { StepHeader } from '../../ui/step-header'
import { MiniMap } from './mini-map'
import { DistanceLabel, NearMeButton } from './near-me'
import { ARRIVAL_ID, QrArrival } from './qr-arrival'

// The map is its own chunk, loaded only when the shopper asks for it (Lighthouse ≥ 95; maplibre
// is 820 KB and its start-up blocked the main thread for over a second).
// typed for the catalogue's devices (the map draws any billboard; the type only, no code)
// Its words are in the rest of the catalog (src/locale/catalog-parts.ts): they come with its code (a
// tap before the page was idle opened it with the words' ids).
const BillboardMap = lazy(
  withWholeCatalog(() => import('../../lib/billboard-map')),
) as LazyExoticComponent<ComponentType<BillboardMapProps<Device>>>

const NONE: readonly Device[] = []

type NearestFirst = typeof import('./near-me-distances').nearestFirst

const isUnavailable = (d: Pick<Device, 'soldOut' | 'unavailableForEvent'>) =>
  d.soldOut || d.unavailableForEvent

export function LocationPage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { eventslug } = useParams({ from: '/_default/$eventslug' })
  // what the route loaded (on the server for a first visit): the page renders from it
  const { devices: loaded } = useLoaderData({
    from: '/_default/$eventslug/_steps/design/location',
  })
  const event = useRouteContext({ from: '/_default/$eventslug', select: (c) => c.event })
  const { activeDevice: liveActiveDevice } = useSnapshot(orderStore)
  // the saved choice is restored while the server's page hydrates: shown once it is hydrated
  const hydrated = useHydrated()
  const activeDevice = hydrated ? liveActiveDevice : null
  const [mapOpen, setMapOpen] = useState(false)
  const list = loaded ?? NONE
  // "Near me": the shopper's position once they asked for it, and the code that sorts by it
  // (loaded then); the list nearest first
  const [near, setNear] = useState<{ here: LngLat; sort: NearestFirst } | null>(null)
  const here = near?.here ?? null
  const shown = useMemo(
    () =>
      near
        ? near.sort(list, near.here, i18n.locale)
        : list.map((item) => ({ item, distance: null as string | null })),
    [list, near, i18n.locale],
  )

  // the later steps read the billboards from the store
  useEffect(() => {
    if (loaded) adoptDevices(eventslug, loaded)
  }, [eventslug, loaded])

  const choose = useCallback(
    (chosen: Pick<Device, 'deviceId'>) => {
      const device = list.find((d) => d.deviceId === chosen.deviceId)
      if (!device || isUnavailable(device)) return
      setActiveDevice(device)
      devicesStore.mapDevice = device
    },
    [list],
  )

  // QR entry: /{eventslug}?device={deviceId} (the code printed on the billboard) opens the
  // flow with that billboard chosen. The choice is applied after the first render (the saved order
  // is the browser's); the billboard's "You're at" block is on the server's page already.
  const search = useSearch({ strict: false }) as { device?: unknown }
  const qrDevice = typeof search.device === 'string' ? search.device : null
  useEffect(() => {
    if (!qrDevice) return
    const device = list.find((d) => d.deviceId === qrDevice)
    if (device && !isUnavailable(device) && orderStore.activeDevice?.deviceId !== device.deviceId) {
      setActiveDevice(device)
      devicesStore.mapDevice = device
    }
  }, [qrDevice, list])

  // Hydration must see what the server's HTML holds: the server renders the QR code's block (the
  // billboard, or the notice of a code it does not sell); a page the worker kept without it (another
  // billboard's code, offline) gets it once hydrated.
  const [arrivalOnServer] = useState(
    () => typeof document === 'undefined' || document.getElementById(ARRIVAL_ID) !== null,
  )

  // Memoised on what it shows. The QR code's billboard is chosen in an effect right
  // after hydration, and a store change re-renders this page synchronously (valtio's
  // useSnapshot): the map and the whole list would be rendered again in that one task while
  // they still show no choice (the choice shows once hydrated, in a transition, in slices).
  const places = useMemo(
    () => (
      <div className="location">
        <section className="location__map" aria-label={t`Map of the billboards`}>
          {/* The map and the list are hydrated each in its own pass (their own Suspense
              boundaries), after the header and the step's title: no one long task takes the page
              over. Nothing here suspends on the server, so its HTML holds them whole. */}
          <Suspense fallback={<div className="skeleton map-skeleton" />}>
            {list.length > 0 && !mapOpen ? (
              <MiniMap
                devices={list as Device[]}
                selectedId={activeDevice?.deviceId ?? null}
                unavailable={isUnavailable}
                onExplore={() => setMapOpen(true)}
              />
            ) : list.length > 0 ? (
              <ErrorBoundary
                fallback={
                  <p className="map-fallback">
                    <Trans>The map cannot be shown on this device. Choose from the list.</Trans>
                  </p>
                }
              >
                <Suspense fallback={<div className="skeleton map-skeleton" />}>
                  <BillboardMap
                    devices={list as Device[]}
                    selectedId={activeDevice?.deviceId ?? null}
                    onSelect={choose}
                    unavailable={isUnavailable}
                    here={here}
                  />
                </Suspense>
              </ErrorBoundary>
            ) : (
              <div className="skeleton map-skeleton" />
            )}
          </Suspense>
        </section>

        <section className="location__list" aria-labelledby="billboards-heading">
          <div className="location__list-head">
            <h2 id="billboards-heading" className="section-title">
              <Trans>Billboards</Trans>
            </h2>
            {list.length > 1 ? (
              <NearMeButton
                onPosition={(position) => {
                  void import('./near-me-distances').then(({ nearestFirst }) => {
                    setNear({ here: position, sort: nearestFirst })
                    setMapOpen(true)
                  })
                }}
              />
            ) : null}
          </div>
          {loaded === null ? (
            <Notice tone="error">
              <Trans>
                The billboards could not be loaded. Check your connection and try again.
              </Trans>
            </Notice>
          ) : null}
          {list.length === 0 ? null : (
            <Suspense fallback={null}>
              <ul className="cards">
                {shown.map(({ item: device, distance }, index) => {
                  const selected = activeDevice?.deviceId === device.deviceId
                  const off = isUnavailable(device)
                  return (
                    <li
                      key={device.deviceId}
                      className={`card billboard ${selected ? 'card--selected' : ''} ${off ? 'card--off' : ''}`}
                    >
                      <Picture
                        className="billboard__img"
                        src={device.imageUrl}
                        alt=""
                        width={160}
                        height={100}
                        // the first picture is the largest paint of the step: load it at once
                        loading={index < 2 ? 'eager' : 'lazy'}
                        fetchPriority={index === 0 ? 'high' : 'auto'}
                      />
                      <div className="billboard__body">
                        <h3 className="billboard__name">{device.location}</h3>
                        <p className="billboard__city">
                          {cityStateLabel(device, i18n.locale)}
                          {distance === null ? null : <DistanceLabel distance={distance} />}
                        </p>
                        <p className="billboard__meta">
                          {t`Facing ${trafficDirectionName(i18n, device.trafficDirection)} traffic`}
                          {device.screens > 1 ? ` · ${t`${device.screens} screens`}` : ''}
                        </p>
                        {device.soldOut ? (
                          <p className="badge badge--off">
                            {problemText(i18n, { code: 'sold_out' })}
                          </p>
                        ) : device.unavailableForEvent ? (
                          <p className="badge badge--off">
                            {problemText(i18n, {
                              code: 'not_available_for_event',
                              params: { event: event?.name ?? '' },
                            })}
                          </p>
                        ) : null}
                        <div className="billboard__actions">
                          <Button
                            kind={off ? 'disabled' : selected ? 'green' : 'orange'}
                            size="small"
                            aria-pressed={selected}
                            aria-label={
                              selected
                                ? t`Selected: ${device.location}`
                                : t`Choose ${device.location}`
                            }
                            onClick={() => choose(device)}
                          >
                            {selected ? <Trans>Selected</Trans> : <Trans>Choose</Trans>}
                          </Button>
                          <Button
                            kind="smoke"
                            size="small"
                            aria-label={t`Street view of ${device.location}`}
                            onClick={() =>
                              toggleModal('StreetView', {
                                imageUrl: device.streetViewUrl ?? device.imageUrl,
                                location: device.location,
                                direction: device.trafficDirection,
                              })
                            }
                          >
                            <Trans>Street view</Trans>
                          </Button>
                          <Link
                            to="/$eventslug/shout-location"
                            params={{ eventslug }}
                            search={{ deviceId: device.deviceId }}
                            className="link"
                            aria-label={t`How to get there: ${device.location}`}
                          >
                            <Trans>How to get there</Trans>
                          </Link>
                        </div>
                      </div>
                    </li>
                  )
                })}
              </ul>
            </Suspense>
          )}
        </section>
      </div>
    ),
    [list, shown, here, loaded, mapOpen, activeDevice, choose, eventslug, event, i18n, t],
  )

  return (
    <main className="page page--flow" id="main">
      <StepHeader step="location" title={<Trans>Choose a billboard</Trans>} lead={event?.name} />

      {/* On the server's page too (its render is kept per billboard the event has, and once for
          every code it does not have): there from the first paint, nothing moves. */}
      {qrDevice && loaded && (hydrated || arrivalOnServer) ? (
        <QrArrival
          deviceId={qrDevice}
          devices={list}
          eventName={event?.name ?? ''}
          onDesign={(device) => {
            choose(device)
            void navigate({ to: '/$eventslug/design/template', params: { eventslug } })
          }}
        />
      ) : null}

      {places}

      <ActionBar>
        <p className="action-bar__info">
          {activeDevice ? activeDevice.location : t`No billboard chosen yet`}
        </p>
        <Button
          kind={activeDevice ? 'orange' : 'disabled'}
          size="large"
          onClick={() =>
            void navigate({ to: '/$eventslug/design/template', params: { eventslug } })
          }
        >
          <Trans>Continue</Trans>
        </Button>
      </ActionBar>
    </main>
  )
}
