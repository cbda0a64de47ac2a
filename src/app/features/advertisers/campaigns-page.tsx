import { Trans, useLingui } from '@lingui/react/macro'
import { getRouteApi, Link } from '@tanstack/react-router'
import { CAMPAIGN_STATE_LABELS } from '../../lib/campaign-states'
import { Notice } from '../../ui/notice'
import { count, money, when } from './format'
import './advertisers.css'

const route = getRouteApi('/_default/_advertiser/campaigns/')

/** `/campaigns`: the account's campaigns, newest first, with their state, budget and spend. */
export function CampaignsPage() {
  const { t, i18n } = useLingui()
  // read by the route's loader (advertiser-loaders.ts) before the page is drawn
  const campaigns = route.useLoaderData()

  return (
    <main className="page adv" id="main">
      <h1 className="page__title">
        <Trans>Your campaigns</Trans>
      </h1>
      <div className="adv__actions">
        <Link to="/campaigns/new" className="btn btn--orange btn--medium">
          <span className="btn__label">
            <Trans>New campaign</Trans>
          </span>
        </Link>
        <Link to="/account">
          <Trans>Your account</Trans>
        </Link>
      </div>
      {campaigns.length === 0 ? (
        <Notice>
          <Trans>No campaign yet: start one and get a proposal in a few minutes.</Trans>
        </Notice>
      ) : null}
      {campaigns.length > 0 ? (
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
                    <Link to="/campaigns/$campaignId" params={{ campaignId: c.campaignId }}>
                      {c.name}
                    </Link>
                    <small className="field__hint">
                      {' '}
                      {when(c.startEpochMs, i18n.locale)} – {when(c.endEpochMs, i18n.locale)} ·{' '}
                      {t`${count(c.deviceIds.length, i18n.locale)} billboards`}
                    </small>
                  </td>
                  <td>
                    <span className="adv__state">{i18n._(CAMPAIGN_STATE_LABELS[c.state])}</span>
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
