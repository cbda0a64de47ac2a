import { Trans, useLingui } from '@lingui/react/macro'
import type { OpsDispute, OpsOrder, OpsPayment } from '../../contract/ops/orders'
import { problemText } from '../lib/problem-text'
import { dateTimeIn } from './format'
import { money } from './order-parts'

// The payment part of an order's console page: the card, where the charge stands, the refund (and
// what the card's bank did with it, as Stripe's events tell), and chargebacks with their deadlines.

export function OrderPayment({ order }: { order: OpsOrder }) {
  const { i18n } = useLingui()
  const { payment } = order
  const m = (cents: number) => money(order, cents, i18n.locale)
  return (
    <section aria-labelledby="ops-order-payment">
      <h3 id="ops-order-payment" className="ops-subtitle">
        <Trans>Payment</Trans>
      </h3>
      <dl className="ops-facts">
        <dt>
          <Trans>Payment state</Trans>
        </dt>
        <dd>
          <PaymentStateName state={payment.state} />
        </dd>
        <dt>
          <Trans>Card</Trans>
        </dt>
        <dd>
          {payment.brand || payment.last4 ? (
            <>
              {payment.brand ?? '—'} ···· {payment.last4 ?? '—'}
            </>
          ) : (
            '—'
          )}
        </dd>
        <dt>
          <Trans>Provider</Trans>
        </dt>
        <dd>
          {payment.provider ?? '—'}
          {payment.paymentId ? (
            <>
              {' '}
              <code>{payment.paymentId}</code>
            </>
          ) : null}
        </dd>
        <dt>
          <Trans>Subtotal</Trans>
        </dt>
        <dd>{m(order.subtotalCents)}</dd>
        <dt>
          <Trans>Discount</Trans>
        </dt>
        <dd>
          {m(order.discountCents)}
          {order.promoCode ? ` (${order.promoCode})` : ''}
        </dd>
        <dt>
          <Trans>Total</Trans>
        </dt>
        <dd>{m(order.totalCents)}</dd>
        <dt>
          <Trans>Charged</Trans>
        </dt>
        <dd>{m(payment.chargedCents)}</dd>
        <dt>
          <Trans>Refunded</Trans>
        </dt>
        <dd>
          {m(payment.refundedCents)}
          {payment.refund ? (
            <>
              {' '}
              (<RefundStatus status={payment.refund.status} />
              {payment.refund.error ? `: ${problemText(i18n, payment.refund.error)}` : ''})
            </>
          ) : null}
        </dd>
        {payment.refund?.providerStatus ? (
          <>
            <dt>
              <Trans>Refund at the bank</Trans>
            </dt>
            <dd>
              <ProviderRefundStatus status={payment.refund.providerStatus} />
            </dd>
          </>
        ) : null}
      </dl>
      {payment.disputes.length > 0 ? <Disputes order={order} /> : null}
    </section>
  )
}

function PaymentStateName({ state }: { state: OpsPayment['state'] }) {
  switch (state) {
    case 'free':
      return <Trans>nothing to charge</Trans>
    case 'pending':
      return <Trans>being charged</Trans>
    case 'charged':
      return <Trans>charged</Trans>
    case 'declined':
      return <Trans>declined</Trans>
    case 'not_charged':
      return <Trans>not charged</Trans>
  }
}

function RefundStatus({ status }: { status: 'pending' | 'succeeded' | 'failed' }) {
  switch (status) {
    case 'pending':
      return <Trans>refund pending</Trans>
    case 'succeeded':
      return <Trans>refund done</Trans>
    case 'failed':
      return <Trans>refund failed</Trans>
  }
}

/** Stripe's status of the refund; one it may add later is shown as it names it. */
function ProviderRefundStatus({ status }: { status: string }) {
  switch (status) {
    case 'pending':
      return <Trans>waiting for the card's bank</Trans>
    case 'requires_action':
      return <Trans>needs action in Stripe's dashboard</Trans>
    case 'succeeded':
      return <Trans>given back to the card</Trans>
    case 'failed':
      return (
        <Trans>refused by the card's bank: the money is back in the shop's Stripe balance</Trans>
      )
    case 'canceled':
      return <Trans>cancelled</Trans>
    default:
      return <code>{status}</code>
  }
}

function Disputes({ order }: { order: OpsOrder }) {
  const { i18n } = useLingui()
  return (
    <>
      <h4 className="ops-subtitle" id="ops-order-disputes">
        <Trans>Disputes</Trans>
      </h4>
      <ul className="ops-history" aria-labelledby="ops-order-disputes">
        {order.payment.disputes.map((dispute) => {
          const amount = money(order, dispute.amountCents, i18n.locale)
          const opened = dateTimeIn(dispute.openedAtEpochMs, i18n.locale, order.device.timeZoneId)
          return (
            <li key={dispute.disputeId}>
              <strong>
                <DisputeStatus status={dispute.status} />
              </strong>{' '}
              ·{' '}
              <Trans>
                {amount} disputed on {opened}
              </Trans>{' '}
              · <Trans>reason:</Trans> <code>{dispute.reason}</code> ·{' '}
              <code>{dispute.disputeId}</code>
              <DisputeDates dispute={dispute} zone={order.device.timeZoneId} />
            </li>
          )
        })}
      </ul>
    </>
  )
}

function DisputeDates({ dispute, zone }: { dispute: OpsDispute; zone: string }) {
  const { i18n } = useLingui()
  if (dispute.closedAtEpochMs !== null) {
    const closed = dateTimeIn(dispute.closedAtEpochMs, i18n.locale, zone)
    return (
      <>
        {' '}
        · <Trans>closed on {closed}</Trans>
      </>
    )
  }
  if (dispute.evidenceDueEpochMs === null) return null
  const due = dateTimeIn(dispute.evidenceDueEpochMs, i18n.locale, zone)
  return (
    <>
      {' '}
      · <Trans>answer with evidence in Stripe's dashboard before {due}</Trans>
    </>
  )
}

/** Stripe's statuses of a dispute; one it may add later is shown as it names it. */
function DisputeStatus({ status }: { status: string }) {
  switch (status) {
    case 'warning_needs_response':
      return <Trans>Inquiry: needs a response</Trans>
    case 'warning_under_review':
      return <Trans>Inquiry under review</Trans>
    case 'warning_closed':
      return <Trans>Inquiry closed</Trans>
    case 'needs_response':
      return <Trans>Disputed: needs a response</Trans>
    case 'under_review':
      return <Trans>Disputed: the bank is reviewing the evidence</Trans>
    case 'won':
      return <Trans>Dispute won</Trans>
    case 'lost':
      return <Trans>Dispute lost</Trans>
    case 'prevented':
      return <Trans>Dispute prevented</Trans>
    default:
      return <code>{status}</code>
  }
}
