import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { opsCampaigns } from '../../contract/ops/campaigns'
import type { OpsOrder } from '../../contract/ops/orders'
import { ops } from '../../contract/ops/orders'
import { callApi } from '../lib/api'
import { useOpsFailure } from './errors'
import { timeUntil } from './format'
import { Notice, NotReady, OpsPage, RefreshButton } from './ops-frame'
import { FlagReasons, OrderContent, OrderMessage, OrderSlots } from './order-parts'
import { ReasonForm } from './reason-form'
import { CampaignReviewCard } from './review-campaigns'
import { useOpsLoad } from './use-ops-load'

/**
 * The orders under review, oldest first, each with its content, message,
 * why it was flagged, its slots and the time left before the first; Approve (→ Confirmed, it plays)
 * or Refuse with a reason (→ Cancelled, slots free, refunded; the shopper reads the reason).
 * Then the advertisers' campaigns waiting for their ad to be seen, oldest booking first
 * (./review-campaigns.tsx).
 */
export function ReviewPage() {
  const { t } = useLingui()
  const [queue, reload] = useOpsLoad(
    (signal) =>
      Promise.all([
        callApi(ops.review, { signal }).then((r) => r.orders),
        // advertisers' campaigns booked, their ad not yet approved
        callApi(opsCampaigns.reviewCampaigns, { signal }).then((r) => r.campaigns),
      ]),
    [],
  )
  const [done, setDone] = useState<string | null>(null)
  const onDone = (message: string) => {
    setDone(message)
    reload()
  }
  return (
    <OpsPage title={t`Review queue`} actions={<RefreshButton onClick={reload} />}>
      {done ? <Notice tone="success">{done}</Notice> : null}
      {queue.status !== 'ready' ? (
        <NotReady loaded={queue} />
      ) : queue.value[0].length === 0 && queue.value[1].length === 0 ? (
        <p className="ops-empty">
          <Trans>Nothing to review.</Trans>
        </p>
      ) : (
        <ol className="ops-cards">
          {queue.value[0].map((order) => (
            <li key={order.guid}>
              <ReviewCard order={order} onDone={onDone} />
            </li>
          ))}
          {queue.value[1].map((campaign) => (
            <li key={campaign.campaignId}>
              <CampaignReviewCard campaign={campaign} onDone={onDone} />
            </li>
          ))}
        </ol>
      )}
    </OpsPage>
  )
}

function ReviewCard({ order, onDone }: { order: OpsOrder; onDone: (message: string) => void }) {
  const { t, i18n } = useLingui()
  const failure = useOpsFailure()
  const [refusing, setRefusing] = useState(false)
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const code = order.confirmationCode
  const first = order.firstSlotStartEpochMs

  const approve = async () => {
    setBusy(true)
    setError(null)
    try {
      await callApi(ops.approve, { params: { guid: order.guid }, body: {} })
      onDone(t`Order ${code} approved: it is confirmed and will play.`)
    } catch (e) {
      setBusy(false)
      setError(failure(e))
    }
  }

  const refuse = async (given: string) => {
    setBusy(true)
    setError(null)
    try {
      await callApi(ops.cancel, { params: { guid: order.guid }, body: { reason: given } })
      onDone(t`Order ${code} refused: cancelled and refunded.`)
    } catch (e) {
      setBusy(false)
      setError(failure(e))
    }
  }

  return (
    <article className="ops-card" aria-labelledby={`review-${order.guid}`}>
      <h2 id={`review-${order.guid}`} className="ops-card__title">
        <Trans>
          Order {code} · {order.device.location}
        </Trans>
      </h2>
      <p className="ops-card__meta">
        {first !== null ? (
          <Trans>First slot {timeUntil(first, Date.now(), i18n.locale)}</Trans>
        ) : null}{' '}
        · {order.contact.email}
      </p>
      <div className="ops-card__body">
        <OrderContent order={order} />
        <div className="ops-card__facts">
          <OrderMessage order={order} />
          <FlagReasons order={order} />
          <OrderSlots order={order} />
        </div>
      </div>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <div className="ops-card__actions">
        <button type="button" className="ops-button" onClick={approve} disabled={busy}>
          <Trans>Approve</Trans>
        </button>
        {!refusing ? (
          <button
            type="button"
            className="ops-button ops-button--danger"
            onClick={() => setRefusing(true)}
            disabled={busy}
          >
            <Trans>Refuse…</Trans>
          </button>
        ) : null}
      </div>
      {refusing ? (
        <ReasonForm
          label={t`Reason for refusing (the shopper receives it)`}
          submitLabel={<Trans>Refuse and refund</Trans>}
          reason={reason}
          onReasonChange={setReason}
          busy={busy}
          onReason={refuse}
          onKeep={() => setRefusing(false)}
        />
      ) : null}
    </article>
  )
}
