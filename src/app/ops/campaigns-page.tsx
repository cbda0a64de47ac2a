import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { type OpsCampaign, opsCampaigns } from '../../contract/ops/campaigns'
import { campaignActions, type PauseReason } from '../../domain/campaign'
import type { CompletionReason } from '../../domain/campaign-completion'
import { formatMoney } from '../../domain/money'
import { callApi } from '../lib/api'
import { CAMPAIGN_STATE_LABELS } from '../lib/campaign-states'
import { AccountInvoices } from './account-invoices'
import { CampaignCharges } from './campaign-charges'
import { campaignZone, campaignZones } from './campaign-zone'
import { useOpsFailure } from './errors'
import { rangeIn } from './format'
import { NotReady, OpsPage, RefreshButton } from './ops-frame'
import { ReasonForm } from './reason-form'
import { TableBox } from './table-box'
import { useOpsLoad } from './use-ops-load'
import { ZoneNote } from './zone-note'

// why the shop completed a campaign (src/domain/campaign-completion.ts)
const COMPLETED_NAMES: Record<CompletionReason, MessageDescriptor> = {
  flight_ended: msg`flight ended`,
  budget_spent: msg`budget spent`,
}
// why a campaign is paused (src/domain/campaign.ts)
const PAUSED_NAMES: Record<PauseReason, MessageDescriptor> = {
  advertiser: msg`by the advertiser`,
  charge_failed: msg`card declined`,
}
/**
 * Every advertiser's campaigns, newest first (admins): who, what state, flight, budget and spend;
 * an admin cancels one with a reason (its plays to come are freed, only proven plays are paid).
 */
export function CampaignsPage() {
  const { t, i18n } = useLingui()
  const [loaded, again] = useOpsLoad(
    (signal) => callApi(opsCampaigns.campaigns, { signal }).then((r) => r.campaigns),
    [],
  )
  const [cancelling, setCancelling] = useState<string | null>(null)
  return (
    <OpsPage title={t`Campaigns`}>
      <RefreshButton onClick={again} />
      {loaded.status !== 'ready' ? (
        <NotReady loaded={loaded} />
      ) : loaded.value.length === 0 ? (
        <p className="ops-empty" role="status">
          <Trans>No advertiser has a campaign yet.</Trans>
        </p>
      ) : (
        <TableBox>
          <ZoneNote zones={loaded.value.map(campaignZone)} />
          <table className="ops-table">
            <caption className="visually-hidden">
              <Trans>Campaigns, newest first</Trans>
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Campaign</Trans>
                </th>
                <th scope="col">
                  <Trans>Advertiser</Trans>
                </th>
                <th scope="col">
                  <Trans>State</Trans>
                </th>
                <th scope="col">
                  <Trans>Flight</Trans>
                </th>
                <th scope="col">
                  <Trans>Budget</Trans>
                </th>
                <th scope="col">
                  <Trans>Spent</Trans>
                </th>
                <th scope="col">
                  <span className="visually-hidden">
                    <Trans>Actions</Trans>
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {loaded.value.map((c) => (
                <CampaignRow
                  key={c.campaignId}
                  campaign={c}
                  locale={i18n.locale}
                  cancelling={cancelling === c.campaignId}
                  onCancel={() => setCancelling(c.campaignId)}
                  onDone={(changed) => {
                    setCancelling(null)
                    if (changed) again()
                  }}
                />
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </OpsPage>
  )
}

function CampaignRow({
  campaign: c,
  locale,
  cancelling,
  onCancel,
  onDone,
}: {
  campaign: OpsCampaign
  locale: string
  cancelling: boolean
  onCancel: () => void
  onDone: (changed: boolean) => void
}) {
  const { t, i18n } = useLingui()
  const failure = useOpsFailure()
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const money = (cents: number) => formatMoney(cents, { currency: c.currency, locale })
  const cancel = async (said: string) => {
    setBusy(true)
    setError(null)
    try {
      await callApi(opsCampaigns.cancelCampaign, {
        params: { campaignId: c.campaignId },
        body: { reason: said },
      })
      setReason('')
      onDone(true)
    } catch (e) {
      setError(failure(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <tr>
        <th scope="row">{c.name}</th>
        <td>
          {c.company}
          <br />
          <small>{c.accountEmail}</small>
        </td>
        <td>
          {i18n._(CAMPAIGN_STATE_LABELS[c.state])}
          {c.state === 'Completed' && c.completedReason ? (
            <small> ({i18n._(COMPLETED_NAMES[c.completedReason])})</small>
          ) : null}
          {c.state === 'Paused' && c.pausedReason ? (
            <small> ({i18n._(PAUSED_NAMES[c.pausedReason])})</small>
          ) : null}
        </td>
        <td>
          {rangeIn(c.startEpochMs, c.endEpochMs, locale, campaignZone(c))}
          {campaignZones(c).length > 1 ? (
            <small>
              {' '}
              <Trans>(its billboards are in {campaignZones(c).join(', ')})</Trans>
            </small>
          ) : null}
        </td>
        <td>{money(c.budgetCents)}</td>
        <td>{money(c.spentCents)}</td>
        <td>
          {campaignActions(c.state).includes('cancel') && !cancelling ? (
            <button
              type="button"
              className="ops-button ops-button--quiet"
              onClick={onCancel}
              aria-label={t`Cancel ${c.name}`}
            >
              <Trans>Cancel…</Trans>
            </button>
          ) : null}
        </td>
      </tr>
      {c.charges.length > 0 ? (
        <tr>
          <td colSpan={7}>
            <CampaignCharges campaign={c} />
            <AccountInvoices accountId={c.accountId} company={c.company} />
          </td>
        </tr>
      ) : null}
      {cancelling ? (
        <tr>
          <td colSpan={7}>
            <ReasonForm
              label={t`Why is ${c.name} cancelled? (the advertiser may be told)`}
              submitLabel={<Trans>Cancel the campaign</Trans>}
              reason={reason}
              onReasonChange={setReason}
              busy={busy}
              error={error}
              onReason={(said) => void cancel(said)}
              onKeep={() => onDone(false)}
            />
          </td>
        </tr>
      ) : null}
    </>
  )
}
