import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { Daypart } from '../../contract/advertisers'
import { type OpsCampaign, opsCampaigns } from '../../contract/ops/campaigns'
import { formatMoney } from '../../domain/money'
import { callApi } from '../lib/api'
import { campaignZone, campaignZones } from './campaign-zone'
import { useOpsFailure } from './errors'
import { dateTimeIn, rangeIn } from './format'
import { Notice } from './ops-frame'
import { ReasonForm } from './reason-form'
import { ZoneNote } from './zone-note'

// as the advertiser's pages name them (src/app/features/advertisers/format.ts)
const DAYPART_NAMES: Record<Daypart, MessageDescriptor> = {
  EarlyMorning: msg`Early Morning (0–9 h)`,
  Morning: msg`Morning (9–12 h)`,
  Afternoon: msg`Afternoon (12–17 h)`,
  Evening: msg`Evening (17–24 h)`,
}

/**
 * A campaign in the review queue (Booked: its ad not yet seen by a person): who books it, on which
 * billboards, when, and the ad itself, with what moderation found at each billboard's size.
 * Approve (→ Approved: the ad may play) or Refuse with a reason (→ Rejected: its plays freed,
 * nothing charged; the advertiser is mailed the reason in their language).
 */
export function CampaignReviewCard({
  campaign: c,
  onDone,
}: {
  campaign: OpsCampaign
  onDone: (message: string) => void
}) {
  const { t, i18n } = useLingui()
  const failure = useOpsFailure()
  const [refusing, setRefusing] = useState(false)
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const name = c.name
  const company = c.company
  const locale = i18n.locale
  const bookedAt =
    c.bookedAtEpochMs === null ? null : dateTimeIn(c.bookedAtEpochMs, locale, campaignZone(c))

  const decide = async (call: () => Promise<unknown>, done: string) => {
    setBusy(true)
    setError(null)
    try {
      await call()
      onDone(done)
    } catch (e) {
      setBusy(false)
      setError(failure(e))
    }
  }
  const approve = () =>
    decide(
      () =>
        callApi(opsCampaigns.approveCampaign, { params: { campaignId: c.campaignId }, body: {} }),
      t`Campaign ${name} approved: its ad will play.`,
    )
  const refuse = (given: string) =>
    decide(
      () =>
        callApi(opsCampaigns.rejectCampaign, {
          params: { campaignId: c.campaignId },
          body: { reason: given },
        }),
      t`Campaign ${name} refused: its plays are freed and nothing is charged.`,
    )
  const flags = [...new Set(c.ad?.renditions.flatMap((r) => r.flagReasons) ?? [])]

  return (
    <article className="ops-card" aria-labelledby={`review-campaign-${c.campaignId}`}>
      <h2 id={`review-campaign-${c.campaignId}`} className="ops-card__title">
        <Trans>
          Campaign {name} · {company}
        </Trans>
      </h2>
      <p className="ops-card__meta">
        {bookedAt !== null ? <Trans>Booked {bookedAt}</Trans> : null} · {c.accountEmail}
      </p>
      <div className="ops-card__body">
        <CampaignAd campaign={c} />
        <div className="ops-card__facts">
          <dl className="ops-facts">
            <dt>
              <Trans>Billboards</Trans>
            </dt>
            <dd>
              <ul className="ops-plain-list">
                {c.billboards.map((b) => (
                  <li key={b.deviceId}>
                    {b.location}
                    {b.city ? ` · ${b.city}` : ''}
                  </li>
                ))}
              </ul>
            </dd>
            <dt>
              <Trans>Flight</Trans>
            </dt>
            <dd>
              {rangeIn(c.startEpochMs, c.endEpochMs, locale, campaignZone(c))}{' '}
              <ZoneNote zones={campaignZones(c)} />
            </dd>
            <dt>
              <Trans>Dayparts</Trans>
            </dt>
            <dd>{c.dayparts.map((d) => i18n._(DAYPART_NAMES[d])).join(', ')}</dd>
            <dt>
              <Trans>Budget</Trans>
            </dt>
            <dd>{formatMoney(c.budgetCents, { currency: c.currency, locale })}</dd>
          </dl>
          {flags.length > 0 ? (
            <div className="ops-flags">
              <h3 className="ops-subtitle">
                <Trans>Why it was flagged</Trans>
              </h3>
              <ul>
                {flags.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      </div>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <div className="ops-card__actions">
        <button
          type="button"
          className="ops-button"
          onClick={approve}
          disabled={busy}
          aria-label={t`Approve ${name}`}
        >
          <Trans>Approve</Trans>
        </button>
        {!refusing ? (
          <button
            type="button"
            className="ops-button ops-button--danger"
            onClick={() => setRefusing(true)}
            disabled={busy}
            aria-label={t`Refuse ${name}…`}
          >
            <Trans>Refuse…</Trans>
          </button>
        ) : null}
      </div>
      {refusing ? (
        <ReasonForm
          label={t`Reason for refusing ${name} (the advertiser receives it)`}
          submitLabel={<Trans>Refuse the campaign</Trans>}
          reason={reason}
          onReasonChange={setReason}
          busy={busy}
          onReason={(given) => void refuse(given)}
          missing={t`Say why: the advertiser receives this reason.`}
          onKeep={() => setRefusing(false)}
        />
      ) : null}
    </article>
  )
}

/** The ad as uploaded: the image, or the video muted (as the orders' content is shown). */
function CampaignAd({ campaign: c }: { campaign: OpsCampaign }) {
  const { t } = useLingui()
  const name = c.name
  const url = c.ad?.url ?? c.ad?.renditions[0]?.url ?? null
  if (!url) {
    return (
      <p className="ops-content ops-content--none">
        <Trans>No ad</Trans>
      </p>
    )
  }
  return c.ad?.type === 'video' ? (
    <video
      className="ops-content"
      src={url}
      muted
      controls
      playsInline
      preload="metadata"
      aria-label={t`The ad of ${name}`}
    />
  ) : (
    <img className="ops-content" src={url} alt={t`The ad of ${name}`} loading="lazy" />
  )
}
