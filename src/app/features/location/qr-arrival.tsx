import { Trans, useLingui } from '@lingui/react/macro'
import type { Device } from '../../../contract/catalogue'
import { cityStateLabel } from '../../../domain/device'
import { problemText } from '../../lib/problem-text'
import { trafficDirectionName } from '../../lib/traffic-direction'
import { Button } from '../../ui/button'
import { Notice } from '../../ui/notice'
import { Picture } from '../../ui/picture'

/** The block's id (or its notice's): the page looks for it in the server's HTML before hydrating. */
export const ARRIVAL_ID = 'arrival'

/**
 * Arriving from a billboard's QR code (/{event}?device={deviceId}): the shopper stands in front of
 * it, so it comes first, with its photo and the way it faces, and one action straight to the
 * templates; the other billboards stay below. A code of a billboard the event does not have, or
 * one sold out or not sold for this event, says so above the list.
 */
export function QrArrival({
  deviceId,
  devices,
  eventName,
  onDesign,
}: {
  deviceId: string
  devices: readonly Device[]
  eventName: string
  onDesign: (device: Device) => void
}) {
  const { t, i18n } = useLingui()
  const device = devices.find((d) => d.deviceId === deviceId)
  if (!device) {
    // The code itself is not repeated: the server renders this notice once per event and language
    // for every code it does not know (a page per made-up code would be a cache anyone can fill).
    return (
      <Notice tone="error" id={ARRIVAL_ID}>
        <Trans>
          This event has no billboard with this QR code. Choose a billboard from the list.
        </Trans>
      </Notice>
    )
  }
  if (device.soldOut || device.unavailableForEvent) {
    const why = device.soldOut
      ? problemText(i18n, { code: 'sold_out' })
      : problemText(i18n, { code: 'not_available_for_event', params: { event: eventName } })
    const location = device.location
    return (
      <Notice tone="error" id={ARRIVAL_ID}>
        <Trans>
          {location}: {why}. Choose another billboard from the list.
        </Trans>
      </Notice>
    )
  }
  const location = device.location
  return (
    <section
      id={ARRIVAL_ID}
      className="card card--selected arrival"
      aria-labelledby="arrival-heading"
    >
      <Picture
        className="arrival__img"
        src={device.imageUrl}
        alt=""
        width={320}
        height={200}
        loading="eager"
        fetchPriority="high"
      />
      <h2 id="arrival-heading" className="arrival__title">
        <Trans>You're at {location}</Trans>
      </h2>
      <p className="billboard__city">{cityStateLabel(device, i18n.locale)}</p>
      <p className="billboard__meta">
        {t`Facing ${trafficDirectionName(i18n, device.trafficDirection)} traffic`}
        {device.screens > 1 ? ` · ${t`${device.screens} screens`}` : ''}
      </p>
      <Button kind="orange" size="large" onClick={() => onDesign(device)}>
        <Trans>Design my shout for this billboard</Trans>
      </Button>
      <p className="muted arrival__more">
        <Trans>Or choose another billboard below.</Trans>
      </p>
    </section>
  )
}
