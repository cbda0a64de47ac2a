import { Trans, useLingui } from '@lingui/react/macro'
import { getRouteApi, Link } from '@tanstack/react-router'
import { type FormEvent, useEffect, useState } from 'react'
import { type AdContent, advertisers, type Campaign } from '../../../contract/advertisers'
import { type CampaignAction, campaignActions } from '../../../domain/campaign'
import { parseAmount } from '../../../domain/money'
import type { ProblemData } from '../../../domain/problems'
import { InvoiceList } from '../../advertisers/billing/invoice-list'
import { ReplaceCard } from '../../advertisers/card/replace-card'
import { CAMPAIGN_STATE_LABELS } from '../../lib/campaign-states'
import { problemText } from '../../lib/problem-text'
import { Button } from '../../ui/button'
import { Notice } from '../../ui/notice'
import { ProblemList } from '../../ui/problem-list'
import { TextField } from '../../ui/text-field'
import { CampaignChart } from './campaign-chart'
import { CampaignPlays } from './campaign-plays'
import { COMPLETED_LABELS, count, DAYPART_LABELS, money, when } from './format'
import { problemsOfError } from './problems'
import { callAsAdvertiser } from './session'
import './advertisers.css'

const route = getRouteApi('/_default/_advertiser/campaigns/$campaignId')

const BUDGET_CODES = new Set(['campaign_budget_below_spent', 'field_invalid', 'field_required'])

/** `/campaigns/{id}`: the campaign's state, schedule, ad, plays and spend; pause, resume, cancel, budget. */
export function CampaignPage() {
  const { t, i18n } = useLingui()
  const { campaignId } = route.useParams()
  // read by the route's loader (advertiser-loaders.ts) before the page is drawn; kept here as
  // actions change it
  const loaded = route.useLoaderData()
  const [campaign, setCampaign] = useState<Campaign>(loaded.campaign)
  const [ad, setAd] = useState<AdContent | null>(loaded.ad)
  useEffect(() => {
    setCampaign(loaded.campaign)
    setAd(loaded.ad)
  }, [loaded])
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [budget, setBudget] = useState('')
  const [budgetProblem, setBudgetProblem] = useState<ProblemData | null>(null)
  const [busy, setBusy] = useState<CampaignAction | 'budget' | null>(null)

  const act = async (action: CampaignAction) => {
    const sure = t`Cancel this campaign? Its plays still to come are freed; only plays already shown are paid.`
    if (action === 'cancel' && !window.confirm(sure)) return
    setBusy(action)
    setProblems([])
    try {
      setCampaign(await callAsAdvertiser(advertisers[action], { params: { campaignId }, body: {} }))
    } catch (error) {
      setProblems(problemsOfError(error))
    } finally {
      setBusy(null)
    }
  }

  const changeBudget = async (e: FormEvent) => {
    e.preventDefault()
    const cents = parseAmount(budget, campaign.currency)
    if (cents === null || cents < 1) {
      setBudgetProblem({
        code: 'field_invalid',
        params: { field: 'budgetCents', detail: t`enter an amount, such as 500` },
      })
      return
    }
    setBusy('budget')
    setBudgetProblem(null)
    setProblems([])
    try {
      setCampaign(
        await callAsAdvertiser(advertisers.updateCampaign, {
          params: { campaignId },
          body: { budgetCents: cents },
        }),
      )
      setBudget('')
    } catch (error) {
      const found = problemsOfError(error)
      const first = found[0]
      if (first && BUDGET_CODES.has(first.code)) setBudgetProblem(first)
      else setProblems(found)
    } finally {
      setBusy(null)
    }
  }

  const m = (cents: number) => money(cents, campaign.currency, i18n.locale)
  const labels: Record<CampaignAction, string> = {
    pause: t`Pause`,
    resume: t`Resume`,
    cancel: t`Cancel the campaign`,
  }
  const picture = ad?.renditions?.[0]?.url ?? ad?.url ?? null
  return (
    <main className="page adv" id="main">
      <p>
        <Link to="/campaigns">
          <Trans>Your campaigns</Trans>
        </Link>
      </p>
      <h1 className="page__title">{campaign.name}</h1>
      <p>
        <span className="adv__state" data-testid="campaign-state">
          {i18n._(CAMPAIGN_STATE_LABELS[campaign.state])}
        </span>
      </p>
      {campaign.state === 'Rejected' && campaign.rejectionReason ? (
        <Notice tone="error">
          <Trans>The ad was refused: {campaign.rejectionReason}</Trans>
        </Notice>
      ) : null}
      {campaign.state === 'Completed' && campaign.completedReason ? (
        <Notice>
          <span data-testid="campaign-completed-reason">
            {i18n._(COMPLETED_LABELS[campaign.completedReason])}
          </span>
        </Notice>
      ) : null}
      {campaign.state === 'Paused' && campaign.pausedReason === 'charge_failed' ? (
        <Notice tone="error">
          <span data-testid="campaign-paused-reason">
            <Trans>
              Paused: your card was declined for a day’s plays, so nothing more plays or is charged.
              Replace the card below (the declined day is then charged to it once), or make sure
              this card can pay, then resume the campaign.
            </Trans>
          </span>
        </Notice>
      ) : null}
      {campaign.state === 'Proposed' && campaign.proposalGuid ? (
        <Notice>
          <Link to="/proposal/$proposalGuid" params={{ proposalGuid: campaign.proposalGuid }}>
            <Trans>See the proposal and accept it</Trans>
          </Link>
        </Notice>
      ) : null}
      <section className="card">
        <h2 className="section-title">
          <Trans>Schedule</Trans>
        </h2>
        <dl className="adv__facts">
          <dt>
            <Trans>Flight</Trans>
          </dt>
          <dd>
            {when(campaign.startEpochMs, i18n.locale)} – {when(campaign.endEpochMs, i18n.locale)}
          </dd>
          <dt>
            <Trans>Times of day</Trans>
          </dt>
          <dd>{campaign.dayparts.map((d) => i18n._(DAYPART_LABELS[d])).join(', ')}</dd>
          <dt>
            <Trans>Billboards</Trans>
          </dt>
          <dd>
            {campaign.billboards && campaign.billboards.length > 0 ? (
              <ul className="adv__named">
                {campaign.billboards.map((b) => (
                  <li key={b.deviceId}>{b.city ? `${b.location}, ${b.city}` : b.location}</li>
                ))}
              </ul>
            ) : (
              campaign.deviceIds.join(', ')
            )}
          </dd>
          <dt>
            <Trans>Plays scheduled</Trans>
          </dt>
          <dd>{count(campaign.scheduledPlays ?? 0, i18n.locale)}</dd>
          <dt>
            <Trans>Plays shown</Trans>
          </dt>
          <dd>{count(campaign.provenPlays ?? 0, i18n.locale)}</dd>
        </dl>
      </section>
      <CampaignChart campaignId={campaignId} />
      <CampaignPlays campaign={campaign} />
      <ReplaceCard campaign={campaign} onReplaced={setCampaign} />
      <InvoiceList campaignId={campaignId} />
      <section className="card">
        <h2 className="section-title">
          <Trans>The ad</Trans>
        </h2>
        {ad?.status === 'failed' ? (
          <div data-testid="campaign-ad-failed">
            <p>
              <Trans>The ad cannot be shown on the billboards:</Trans>
            </p>
            <ProblemList problems={ad.problems ?? []} />
          </div>
        ) : picture && ad?.type === 'video' ? (
          <video className="adv__ad" src={picture} controls muted />
        ) : picture ? (
          <img className="adv__ad" src={picture} alt={t`The ad of ${campaign.name}`} />
        ) : (
          <p className="field__hint">
            {ad?.status === 'processing' ? t`The ad is being processed.` : t`No ad yet.`}
          </p>
        )}
      </section>
      <section className="card">
        <h2 className="section-title">
          <Trans>Budget and spend</Trans>
        </h2>
        <dl className="adv__facts">
          <dt>
            <Trans>Budget</Trans>
          </dt>
          <dd>{m(campaign.budgetCents)}</dd>
          <dt>
            <Trans>Spent</Trans>
          </dt>
          <dd>{m(campaign.spentCents)}</dd>
          <dt>
            <Trans>Committed (plays to come)</Trans>
          </dt>
          <dd>{m(campaign.committedCents)}</dd>
        </dl>
        {campaignActions(campaign.state).length > 0 ? (
          <form className="adv__actions" onSubmit={(e) => void changeBudget(e)} noValidate>
            <TextField
              label={t`New budget (${campaign.currency})`}
              inputMode="decimal"
              value={budget}
              error={budgetProblem ? problemText(i18n, budgetProblem) : null}
              onChange={(e) => {
                setBudget(e.target.value)
                setBudgetProblem(null)
              }}
            />
            <Button kind={busy === 'budget' ? 'loading' : 'black'} size="field" htmlType="submit">
              <Trans>Change the budget</Trans>
            </Button>
          </form>
        ) : null}
      </section>
      {problems.length > 0 ? <ProblemList problems={problems} /> : null}
      <div className="adv__actions">
        {campaignActions(campaign.state).map((action) => (
          <Button
            key={action}
            kind={busy === action ? 'loading' : action === 'cancel' ? 'white' : 'orange'}
            onClick={() => void act(action)}
          >
            {labels[action]}
          </Button>
        ))}
      </div>
    </main>
  )
}
