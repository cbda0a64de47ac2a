import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { advertiserDoor, type BillboardForSale } from '../../../contract/advertisers-door'
import { callApi } from '../../lib/api'
import { useLoad } from '../../lib/use-load'
import { Notice } from '../../ui/notice'
import { ProblemList } from '../../ui/problem-list'
import { count, money } from './format'
import { problemsOfError } from './problems'
import './advertisers.css'

/** Billboards by city, the cities in the reader's alphabet, each city's billboards by location. */
function byCity(billboards: readonly BillboardForSale[], locale: string) {
  const cities = new Map<string, BillboardForSale[]>()
  for (const b of billboards) cities.set(b.city, [...(cities.get(b.city) ?? []), b])
  const order = new Intl.Collator(locale)
  return [...cities.entries()]
    .sort(([a], [b]) => order.compare(a, b))
    .map(([city, list]) => ({
      city,
      billboards: list.sort((a, b) => order.compare(a.location, b.location)),
    }))
}

/**
 * `/advertise`: the public door for brands and businesses. What an advertiser gets, the billboards
 * sold to them with their audience and price per play (a list: which billboard, where, for how
 * much), and the way to start (sign-up, then a campaign).
 */
export function AdvertisePage() {
  const { t, i18n } = useLingui()
  const [loaded] = useLoad(
    (signal) => callApi(advertiserDoor.billboardsForSale, { signal }),
    [],
    problemsOfError,
  )
  const billboards = loaded.status === 'ready' ? loaded.value.billboards : null
  const problems = loaded.status === 'failed' ? loaded.message : []

  const start = (
    <Link
      to="/account"
      search={{ mode: 'sign-up' } as never}
      className="btn btn--orange btn--large"
    >
      <span className="btn__label">
        <Trans>Get started</Trans>
      </span>
    </Link>
  )
  return (
    <main className="page adv" id="main">
      <h1 className="page__title">
        <Trans>Advertise on our billboards</Trans>
      </h1>
      <p className="page__lead">
        <Trans>
          Brands, local businesses and event sponsors put their ad on our digital billboards, in the
          time the shouts people buy leave free.
        </Trans>
      </p>
      <ul className="adv__promises">
        <li>
          <h2>
            <Trans>Your ad in the billboards' free time</Trans>
          </h2>
          <p>
            <Trans>
              Choose the billboards, the days and the times of day; we spread your plays evenly over
              them. The shoppers' shouts always come first.
            </Trans>
          </p>
        </li>
        <li>
          <h2>
            <Trans>Paid only for proven plays</Trans>
          </h2>
          <p>
            <Trans>
              Each billboard reports every play it shows. A play without its report is never
              charged, and you never pay more than your budget.
            </Trans>
          </p>
        </li>
        <li>
          <h2>
            <Trans>A report you can read</Trans>
          </h2>
          <p>
            <Trans>
              Plays, people reached and spend per day and billboard, on your campaign's page and as
              a spreadsheet.
            </Trans>
          </p>
        </li>
      </ul>
      <div className="adv__actions">
        {start}
        <Link to="/account">
          <Trans>I have an account: sign in</Trans>
        </Link>
      </div>

      <section aria-labelledby="adv-billboards">
        <h2 id="adv-billboards" className="adv__section-title">
          <Trans>The billboards you can book</Trans>
        </h2>
        <p className="field__hint">
          <Trans>
            The audience is the number of people who see one play. Prices are per play, before any
            tax; a campaign is in one currency.
          </Trans>
        </p>
        {problems.length > 0 ? <ProblemList problems={problems} /> : null}
        {billboards === null && problems.length === 0 ? (
          <div className="skeleton" style={{ height: 240 }} aria-busy="true" />
        ) : null}
        {billboards?.length === 0 ? (
          <Notice>
            <Trans>No billboard is open to advertisers right now. Come back soon.</Trans>
          </Notice>
        ) : null}
        {billboards && billboards.length > 0
          ? byCity(billboards, i18n.locale).map(({ city, billboards: list }) => (
              <div className="card adv__city" key={city}>
                <table className="adv__table">
                  <caption className="adv__caption">{city}</caption>
                  <thead>
                    <tr>
                      <th scope="col">
                        <Trans>Billboard</Trans>
                      </th>
                      <th scope="col" className="adv__num">
                        <Trans>Audience per play</Trans>
                      </th>
                      <th scope="col" className="adv__num">
                        <Trans>Price per play</Trans>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((b) => (
                      <tr key={b.deviceId}>
                        <th scope="row" className="adv__place">
                          {b.location}
                        </th>
                        <td className="adv__num">
                          {t`${count(b.impressionsPerPlay, i18n.locale)} people`}
                        </td>
                        <td className="adv__num">
                          {money(b.costCentsPerPlay, b.currency, i18n.locale)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ))
          : null}
      </section>
      <div className="adv__actions">{start}</div>
    </main>
  )
}
