import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useParams, useSearch } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { cityStateLabel } from '../../../domain/device'
import { trafficDirectionName } from '../../lib/traffic-direction'
import { devicesStore, fetchDevices } from '../../stores/devices'
import { orderStore } from '../../stores/order'
import { Picture } from '../../ui/picture'
import { Skeleton } from '../../ui/skeleton'

/** spec §2: how to get to the billboard, with a link that opens the phone's maps app. */
export function ShoutLocationPage() {
  const { t, i18n } = useLingui()
  const { eventslug } = useParams({ from: '/_default/$eventslug' })
  const search = useSearch({ strict: false }) as { deviceId?: unknown }
  const devices = useSnapshot(devicesStore)
  const { activeDevice } = useSnapshot(orderStore)

  useEffect(() => {
    void fetchDevices(eventslug)
  }, [eventslug])

  const wanted = typeof search.deviceId === 'string' ? search.deviceId : activeDevice?.deviceId
  const device = devices.devices.find((d) => d.deviceId === wanted) ?? activeDevice

  return (
    <main className="page" id="main">
      <h1 className="page__title">
        <Trans>How to get to the billboard</Trans>
      </h1>
      {!device ? (
        devices.fetchStatus === 'Running' ? (
          <Skeleton height={200} count={1} />
        ) : (
          <p>
            <Trans>Choose a billboard first.</Trans>
          </p>
        )
      ) : (
        <article className="card directions">
          <Picture
            className="directions__img"
            src={device.imageUrl}
            alt={t`The billboard at ${device.location}`}
            width={640}
            height={400}
          />
          <h2>{device.location}</h2>
          <p>{cityStateLabel(device, i18n.locale)}</p>
          <p>{t`It faces traffic heading ${trafficDirectionName(i18n, device.trafficDirection)}.`}</p>
          <p className="muted">
            {device.coordinates.lat.toFixed(5)}, {device.coordinates.lng.toFixed(5)}
          </p>
          <a
            className="btn btn--orange btn--large btn--side-center"
            href={`geo:${device.coordinates.lat},${device.coordinates.lng}?q=${device.coordinates.lat},${device.coordinates.lng}(${encodeURIComponent(device.location)})`}
          >
            <span className="btn__label">
              <Trans>Open in my maps app</Trans>
            </span>
          </a>
          <a
            className="link directions__alt"
            href={`https://www.openstreetmap.org/?mlat=${device.coordinates.lat}&mlon=${device.coordinates.lng}#map=17/${device.coordinates.lat}/${device.coordinates.lng}`}
            rel="noopener noreferrer"
            target="_blank"
          >
            <Trans>Open in OpenStreetMap</Trans>
          </a>
        </article>
      )}
      <Link to="/$eventslug/design/location" params={{ eventslug }} className="link">
        <Trans>Back to the billboards</Trans>
      </Link>
    </main>
  )
}
