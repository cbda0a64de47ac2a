import { Trans, useLingui } from '@lingui/react/macro'
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { advertisers } from '../../../contract/advertisers'
import type { ProblemData } from '../../../domain/problems'
import { problemText } from '../../lib/problem-text'
import { Button } from '../../ui/button'
import { Notice } from '../../ui/notice'
import { ProblemList } from '../../ui/problem-list'
import { CardForm, type SaveCard } from './card-form'
import { count, DAYPART_LABELS, money, when } from './format'
import { problemsOfError } from './problems'
import { advertiserSession, callAsAdvertiser, ensureSession } from './session'
import './advertisers.css'

const route = getRouteApi('/_default/proposal/$proposalGuid')

/**
 * `/proposal/{guid}`: what the budget buys, readable by anyone with the link (a colleague without an
 * account); its owner, signed in, saves a card and accepts it, and the campaign is booked.
 */
export function ProposalPage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { proposalGuid } = route.useParams()
  // read by the route's loader (advertiser-loaders.ts): a link to share, readable without an account
  const proposal = route.useLoaderData()
  const session = useSnapshot(advertiserSession)
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [cardError, setCardError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const saveCard = useRef<SaveCard | null>(null)
  const onCardReady = useCallback((save: SaveCard | null) => {
    saveCard.current = save
  }, [])

  useEffect(() => {
    // signed in already (another page of this tab, or the refresh cookie)? Then it may be accepted
    ensureSession().catch(() => null)
  }, [])

  const accept = async () => {
    const save = saveCard.current
    if (!save || !proposal) return
    setBusy(true)
    setProblems([])
    setCardError(null)
    try {
      const saved = await save()
      if (!saved.ok) {
        setCardError(saved.message)
        return
      }
      const campaign = await callAsAdvertiser(advertisers.accept, {
        params: { proposalGuid },
        body: saved.card,
      })
      await navigate({
        to: '/campaigns/$campaignId',
        params: { campaignId: campaign.campaignId },
      })
    } catch (error) {
      setProblems(problemsOfError(error))
    } finally {
      setBusy(false)
    }
  }

  const m = (cents: number) => money(cents, proposal.currency, i18n.locale)
  const status = proposal.status ?? 'open'
  const expired = status === 'open' && proposal.validUntilEpochMs <= Date.now()
  return (
    <main className="page adv" id="main">
      <h1 className="page__title">
        {proposal.campaignName ? t`Proposal for ${proposal.campaignName}` : t`Proposal`}
      </h1>
      <section className="card">
        <dl className="adv__facts">
          {proposal.startEpochMs !== undefined && proposal.endEpochMs !== undefined ? (
            <>
              <dt>
                <Trans>Flight</Trans>
              </dt>
              <dd>
                {when(proposal.startEpochMs, i18n.locale)} –{' '}
                {when(proposal.endEpochMs, i18n.locale)}
              </dd>
            </>
          ) : null}
          {proposal.dayparts ? (
            <>
              <dt>
                <Trans>Times of day</Trans>
              </dt>
              <dd>{proposal.dayparts.map((d) => i18n._(DAYPART_LABELS[d])).join(', ')}</dd>
            </>
          ) : null}
          <dt>
            <Trans>Plays</Trans>
          </dt>
          <dd>{count(proposal.totalPlays, i18n.locale)}</dd>
          <dt>
            <Trans>Impressions</Trans>
          </dt>
          <dd>{count(proposal.totalImpressions, i18n.locale)}</dd>
          <dt>
            <Trans>Cost</Trans>
          </dt>
          <dd>{m(proposal.totalCents)}</dd>
          <dt>
            <Trans>Valid until</Trans>
          </dt>
          <dd>{when(proposal.validUntilEpochMs, i18n.locale)}</dd>
        </dl>
        <table className="adv__table">
          <caption className="visually-hidden">{t`Plays per billboard`}</caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans>Billboard</Trans>
              </th>
              <th scope="col" className="adv__num">
                <Trans>Plays</Trans>
              </th>
              <th scope="col" className="adv__num">
                <Trans>Impressions</Trans>
              </th>
              <th scope="col" className="adv__num">
                <Trans>Cost</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {proposal.lines.map((line) => (
              <tr key={line.deviceId}>
                <td>{line.location ?? line.deviceId}</td>
                <td className="adv__num">{count(line.plays, i18n.locale)}</td>
                <td className="adv__num">{count(line.impressions, i18n.locale)}</td>
                <td className="adv__num">{m(line.costCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      {status === 'accepted' ? (
        <Notice tone="success">
          <Trans>This proposal was accepted: the campaign is booked.</Trans>
        </Notice>
      ) : status === 'void' ? (
        <Notice tone="error">{problemText(i18n, { code: 'proposal_void' })}</Notice>
      ) : expired ? (
        <Notice tone="error">{problemText(i18n, { code: 'proposal_expired' })}</Notice>
      ) : !session.account ? (
        <Notice>
          <Trans>
            To book these plays, the campaign's owner{' '}
            <Link to="/account" search={{ next: `/proposal/${proposalGuid}` } as never}>
              signs in
            </Link>{' '}
            and accepts this proposal.
          </Trans>
        </Notice>
      ) : (
        <section className="card" aria-labelledby="accept-heading">
          <h2 id="accept-heading" className="section-title">
            <Trans>Accept and book</Trans>
          </h2>
          <p className="field__hint">
            <Trans>
              Nothing is charged now: each day, the card pays for the plays that were shown, never
              more than the budget.
            </Trans>
          </p>
          <CardForm onReady={onCardReady} />
          {cardError ? (
            <p className="field__error" role="alert">
              {cardError}
            </p>
          ) : null}
          {problems.length > 0 ? <ProblemList problems={problems} /> : null}
          <Button kind={busy ? 'loading' : 'orange'} size="large" onClick={() => void accept()}>
            <Trans>Accept the proposal ({m(proposal.totalCents)} at most)</Trans>
          </Button>
        </section>
      )}
    </main>
  )
}
