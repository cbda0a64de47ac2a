import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { advertisers, type Campaign } from '../../../contract/advertisers'
import type { ProblemData } from '../../../domain/problems'
import { Notice } from '../../ui/notice'
import { ProblemList } from '../../ui/problem-list'
import { count, money, STATE_LABELS, when } from './format'
import { problemsOfError } from './problems'
import { callAsAdvertiser } from './session'
import './advertisers.css'

/** `/campaigns`: the account's campaigns, newest first, with their state, budget and spend. */
export function CampaignsPage() {
  const { t, i18n } = useLingui()
  const [campaigns, setCampaigns] = useState<Campaign[] | null>(null)
  const [problems, setProblems] = useState<ProblemData[]>([])

  useEffect(() => {
    const abort = new AbortController()
    callAsAdvertiser(advertisers.campaigns, { signal: abort.signal })
      .then((answer) => setCampaigns(answer.campaigns))
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setProblems(problemsOfError(error))
      })
    return () => abort.abort()
  }, [])

  return (
    <main className="page adv" id="main">
      <h1 className="page__title">
        <Trans>Your campaigns</Trans>
      </h1>
      <div className="adv__actions">
        <Link to="/campaigns/$" params={{ _splat: 'new' }} className="btn btn--orange btn--medium">
          <span className="btn__label">
            <Trans>New campaign</Trans>
          </span>
        </Link>
        <Link to="/account">
          <Trans>Your account</Trans>
        </Link>
      </div>
      {problems.length > 0 ? <ProblemList problems={problems} /> : null}
      {campaigns === null && problems.length === 0 ? (
        <div className="skeleton" style={{ height: 120 }} />
      ) : null}
      {campaigns?.length === 0 ? (
        <Notice>
          <Trans>No campaign yet: start one and get a proposal in a few minutes.</Trans>
        </Notice>
      ) : null}
      {campaigns && campaigns.length > 0 ? (
        <div className="card">
          <table className="adv__table">
            <caption className="visually-hidden">{t`Your campaigns`}</caption>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Campaign</Trans>
                </th>
                <th scope="col">
                  <Trans>State</Trans>
                </th>
                <th scope="col" className="adv__num">
                  <Trans>Budget</Trans>
                </th>
                <th scope="col" className="adv__num">
                  <Trans>Spent</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {campaigns.map((c) => (
                <tr key={c.campaignId}>
                  <td>
                    <Link to="/campaigns/$" params={{ _splat: c.campaignId }}>
                      {c.name}
                    </Link>
                    <small className="field__hint">
                      {' '}
                      {when(c.startEpochMs, i18n.locale)} – {when(c.endEpochMs, i18n.locale)} ·{' '}
                      {t`${count(c.deviceIds.length, i18n.locale)} billboards`}
                    </small>
                  </td>
                  <td>
                    <span className="adv__state">{i18n._(STATE_LABELS[c.state])}</span>
                  </td>
                  <td className="adv__num">{money(c.budgetCents, c.currency, i18n.locale)}</td>
                  <td className="adv__num">{money(c.spentCents, c.currency, i18n.locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </main>
  )
}
