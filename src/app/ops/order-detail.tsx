import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { problemsOf } from '../../contract/common'
import type { OpsOrder } from '../../contract/ops/orders'
import { ops } from '../../contract/ops/orders'
import { cancelVerdict } from '../../domain/ops'
import { callApi } from '../lib/api'
import { problemText } from '../lib/problem-text'
import { Code } from './code'
import { useOpsFailure } from './errors'
import { dateTimeIn } from './format'
import { useOperator } from './operator'
import { Notice, NotReady } from './ops-frame'
import {
  FlagReasons,
  money,
  OrderContent,
  OrderMessage,
  OrderSlots,
  StateName,
} from './order-parts'
import { OrderPayment } from './order-payment'
import { ReasonForm } from './reason-form'
import { useOpsLoad } from './use-ops-load'
import { ZoneNote } from './zone-note'

// An order opened on the orders page: everything the shopper entered, the payment, what moderation
// found, the states it went through, its proofs of play, and the admins' cancel-and-refund.

export function OrderDetail({
  guid,
  onClose,
  onChanged,
}: {
  guid: string
  onClose: () => void
  onChanged: () => void
}) {
  const { t, i18n } = useLingui()
  const [loaded, reload] = useOpsLoad(
    (signal) => callApi(ops.order, { signal, params: { guid } }),
    [guid],
  )
  const [done, setDone] = useState<string | null>(null)
  if (loaded.status !== 'ready') return <NotReady loaded={loaded} />
  const order = loaded.value
  const code = order.confirmationCode
  return (
    <article className="ops-card ops-order" aria-labelledby="ops-order-title">
      <div className="ops-order__head">
        <h2 id="ops-order-title" className="ops-card__title">
          <Trans>
            Order <Code>{code}</Code> · <StateName state={order.orderState} />
          </Trans>
        </h2>
        <button type="button" className="ops-button ops-button--quiet" onClick={onClose}>
          <Trans>Close</Trans>
        </button>
      </div>
      <ZoneNote zones={[order.device.timeZoneId]} />
      {done ? <Notice tone="success">{done}</Notice> : null}
      {order.orderState === 'Cancelled' && order.errors.length > 0 ? (
        <p>
          <Trans>Reason given to the shopper:</Trans>{' '}
          {problemsOf(order)
            .map((p) => problemText(i18n, p))
            .join(' ')}
        </p>
      ) : null}
      <div className="ops-card__body">
        <OrderContent order={order} />
        <div className="ops-card__facts">
          <OrderMessage order={order} />
          <FlagReasons order={order} />
        </div>
      </div>
      <div className="ops-order__grid">
        <Contact order={order} />
        <Billboard order={order} />
        <OrderSlots order={order} />
        <OrderPayment order={order} />
        <History order={order} />
        <Proofs order={order} />
      </div>
      <CancelOrder
        order={order}
        onDone={() => {
          setDone(t`Order ${code} cancelled and refunded.`)
          reload()
          onChanged()
        }}
      />
    </article>
  )
}

function Contact({ order }: { order: OpsOrder }) {
  const { contact } = order
  return (
    <section aria-labelledby="ops-order-contact">
      <h3 id="ops-order-contact" className="ops-subtitle">
        <Trans>Shopper</Trans>
      </h3>
      <dl className="ops-facts">
        <dt>
          <Trans>Name</Trans>
        </dt>
        <dd>
          {contact.firstName} {contact.lastName}
        </dd>
        <dt>
          <Trans>E-mail</Trans>
        </dt>
        <dd>{contact.email}</dd>
        <dt>
          <Trans>Phone</Trans>
        </dt>
        <dd>{contact.phoneNumber || '—'}</dd>
        <dt>
          <Trans>News by e-mail</Trans>
        </dt>
        <dd>{contact.willReceiveMarketing ? <Trans>Yes</Trans> : <Trans>No</Trans>}</dd>
        <dt>
          <Trans>Language</Trans>
        </dt>
        <dd>{order.locale}</dd>
        <PersonalData order={order} />
      </dl>
    </section>
  )
}

/** When the shopper's data goes (docs/privacy.md): their names, address, message and picture. */
function PersonalData({ order }: { order: OpsOrder }) {
  const { i18n } = useLingui()
  const until = order.personalDataUntilEpochMs
  if (order.personalDataForgotten) {
    return (
      <>
        <dt>
          <Trans>Personal data</Trans>
        </dt>
        <dd>
          <Trans>Forgotten: the accounting is kept.</Trans>
        </dd>
      </>
    )
  }
  if (until === null) return null
  const date = dateTimeIn(until, i18n.locale, order.device.timeZoneId)
  return (
    <>
      <dt>
        <Trans>Personal data</Trans>
      </dt>
      <dd>
        <Trans>Forgotten on {date}</Trans>
      </dd>
    </>
  )
}

function Billboard({ order }: { order: OpsOrder }) {
  const { i18n } = useLingui()
  const { device } = order
  // Not cityStateLabel (spec §3, the shopper's label): that drops the country when there is a
  // stateAbbr; an operator's record of the order names the place in full.
  const place = [device.city, device.stateAbbr, device.country].filter(Boolean).join(', ')
  return (
    <section aria-labelledby="ops-order-billboard">
      <h3 id="ops-order-billboard" className="ops-subtitle">
        <Trans>Billboard</Trans>
      </h3>
      <dl className="ops-facts">
        <dt>
          <Trans>Event</Trans>
        </dt>
        <dd>{order.eventName}</dd>
        <dt>
          <Trans>Billboard</Trans>
        </dt>
        <dd>
          {device.location} (<Code>{device.deviceId}</Code>)
        </dd>
        <dt>
          <Trans>Place</Trans>
        </dt>
        <dd>{place}</dd>
        <dt>
          <Trans>Placed</Trans>
        </dt>
        <dd>{dateTimeIn(order.createdAtEpochMs, i18n.locale, order.device.timeZoneId)}</dd>
        <dt>
          <Trans>Each slot</Trans>
        </dt>
        <dd>
          <Trans>
            {order.playsPerSlot} plays of {order.secondsPerShout} s
          </Trans>
        </dd>
      </dl>
    </section>
  )
}

function History({ order }: { order: OpsOrder }) {
  const { i18n } = useLingui()
  return (
    <section aria-labelledby="ops-order-history">
      <h3 id="ops-order-history" className="ops-subtitle">
        <Trans>State history</Trans>
      </h3>
      <ol className="ops-history">
        {order.history.map((change) => (
          <li key={`${change.atEpochMs}-${change.state}`}>
            <strong>
              <StateName state={change.state} />
            </strong>{' '}
            · {dateTimeIn(change.atEpochMs, i18n.locale, order.device.timeZoneId)} ·{' '}
            {change.actor === 'operator' ? (
              (change.operatorEmail ?? <Trans>an operator</Trans>)
            ) : change.actor === 'system' ? (
              <Trans>the shop</Trans>
            ) : (
              <Trans>the shopper</Trans>
            )}
            {change.reason ? (
              <span className="ops-history__reason"> — {problemText(i18n, change.reason)}</span>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  )
}

/** The billboard's reports of each play, in the billboard's time zone. */
function Proofs({ order }: { order: OpsOrder }) {
  const { i18n } = useLingui()
  const zone = order.device.timeZoneId
  return (
    <section aria-labelledby="ops-order-proofs">
      <h3 id="ops-order-proofs" className="ops-subtitle">
        <Trans>Proofs of play</Trans>
      </h3>
      {order.plays.length === 0 ? (
        <p className="ops-empty">
          <Trans>No play reported yet.</Trans>
        </p>
      ) : (
        <ul className="ops-slots">
          {order.plays.map((play) => (
            <li key={`${play.slotNumber}-${play.playIndex}`}>
              {dateTimeIn(play.startedAtEpochMs, i18n.locale, zone)}{' '}
              <Trans>
                (slot {play.slotNumber}, play {play.playIndex + 1})
              </Trans>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/**
 * Cancel and refund (admins; reviewers only refuse what is under review, as the API says): a reason,
 * required, that the shopper receives; then a confirm step, since it cannot be undone.
 */
function CancelOrder({ order, onDone }: { order: OpsOrder; onDone: () => void }) {
  const { t, i18n } = useLingui()
  const operator = useOperator()
  const failure = useOpsFailure()
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  // the reason given, waiting for the confirm step; null while it is being written
  const [confirming, setConfirming] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  if (!cancelVerdict(operator.role, order.orderState).allowed) return null
  const amount = money(order, order.payment.chargedCents - order.payment.refundedCents, i18n.locale)

  const cancel = async (reason: string) => {
    setBusy(true)
    setError(null)
    try {
      await callApi(ops.cancel, { params: { guid: order.guid }, body: { reason } })
      onDone()
    } catch (e) {
      setError(failure(e))
      setConfirming(null)
    } finally {
      setBusy(false)
    }
  }

  if (!open)
    return (
      <div className="ops-card__actions">
        <button
          type="button"
          className="ops-button ops-button--danger"
          onClick={() => setOpen(true)}
        >
          <Trans>Cancel and refund…</Trans>
        </button>
      </div>
    )
  return (
    <ReasonForm
      label={t`Reason for cancelling (the shopper receives it)`}
      submitLabel={<Trans>Cancel and refund</Trans>}
      reason={reason}
      onReasonChange={(changed) => {
        setReason(changed)
        setConfirming(null)
      }}
      busy={busy}
      error={error}
      onReason={setConfirming}
      onKeep={() => setOpen(false)}
      confirm={
        confirming !== null ? (
          <div className="ops-confirm">
            <p>
              <Trans>
                Cancel order {order.confirmationCode} and refund {amount}? Its slots are freed and
                the shopper is told why. This cannot be undone.
              </Trans>
            </p>
            <div className="ops-card__actions">
              <button
                type="button"
                className="ops-button ops-button--danger"
                onClick={() => cancel(confirming)}
                disabled={busy}
              >
                <Trans>Yes, cancel and refund</Trans>
              </button>
              <button
                type="button"
                className="ops-button ops-button--quiet"
                onClick={() => setConfirming(null)}
                disabled={busy}
              >
                <Trans>Not now</Trans>
              </button>
            </div>
          </div>
        ) : undefined
      }
    />
  )
}
