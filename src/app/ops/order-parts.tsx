import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import type { OpsOrder } from '../../contract/ops/orders'
import type { OrderState } from '../../contract/order'
import { formatMoney } from '../../domain/money'
import { dateTimeIn, timeIn } from './format'

// The pieces of an order that the review queue and the orders page both show.

/** The shout itself: the image, or the video muted (a reviewer in an office, a phone on a train). */
export function OrderContent({ order }: { order: OpsOrder }) {
  const { t } = useLingui()
  if (!order.contentUrl) {
    return (
      <p className="ops-content ops-content--none">
        <Trans>No content</Trans>
      </p>
    )
  }
  return order.contentType === 'video' ? (
    <video
      className="ops-content"
      src={order.contentUrl}
      muted
      controls
      playsInline
      preload="metadata"
      aria-label={t`The shout's video`}
    />
  ) : (
    <img
      className="ops-content"
      src={order.contentUrl}
      alt={t`The shout as the shopper made it`}
      loading="lazy"
    />
  )
}

export function OrderMessage({ order }: { order: OpsOrder }) {
  const { message } = order
  return (
    <dl className="ops-facts">
      <dt>
        <Trans>Message</Trans>
      </dt>
      <dd className="ops-message">{message.multilineMessage || '—'}</dd>
      <dt>
        <Trans>From</Trans>
      </dt>
      <dd>{message.buyerName || '—'}</dd>
      <dt>
        <Trans>To</Trans>
      </dt>
      <dd>{message.recipientName || '—'}</dd>
    </dl>
  )
}

/** Why moderation held the order: the words matched, the nudity scores (the server's words). */
export function FlagReasons({ order }: { order: OpsOrder }) {
  if (order.moderation.reasons.length === 0) return null
  return (
    <div className="ops-flags">
      <h3 className="ops-subtitle">
        <Trans>Why it was flagged</Trans>
      </h3>
      <ul>
        {order.moderation.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </div>
  )
}

/** The slots, in the billboard's time zone (what the shopper bought). */
export function OrderSlots({ order }: { order: OpsOrder }) {
  const { i18n } = useLingui()
  const zone = order.device.timeZoneId
  return (
    <div>
      <h3 className="ops-subtitle">
        <Trans>Slots</Trans>
      </h3>
      <ul className="ops-slots">
        {order.slots.map((slot) => (
          <li key={slot.slotNumber}>
            {dateTimeIn(slot.startEpochMs, i18n.locale, zone)} –{' '}
            {timeIn(slot.endEpochMs, i18n.locale, zone)}
          </li>
        ))}
      </ul>
    </div>
  )
}

export function money(order: OpsOrder, cents: number, locale: string): string {
  return formatMoney(cents, { currency: order.currency, locale })
}

/** Each state as the console names it (the shop's own words for the four first states, and Cancelled). */
export const STATE_NAMES: Record<OrderState, MessageDescriptor> = {
  Processing: msg`Processing`,
  AwaitingAuthentication: msg`Awaiting the cardholder's bank`,
  Confirmed: msg`Confirmed`,
  UnderReview: msg`Under review`,
  Failed: msg`Failed`,
  Cancelled: msg`Cancelled`,
}

/** A state as the console names it: an order's, a change's, a row of the dashboard's counts. */
export function StateName({ state }: { state: OrderState }) {
  const { i18n } = useLingui()
  return i18n._(STATE_NAMES[state])
}
