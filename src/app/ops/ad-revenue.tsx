import { Trans, useLingui } from '@lingui/react/macro'
import type { AdRevenue } from '../../contract/ops/dashboard'
import { formatMoney } from '../../domain/money'
import { Chart } from '../lib/chart'
import { shortDayIn } from './format'

// The dashboard's advertisers' money: per currency, what the campaigns' settled daily charges took,
// in all, and per charged day over the last 30 days as a small chart (its figures in a table).

export function AdRevenueCard({ revenue }: { revenue: readonly AdRevenue[] }) {
  const { t, i18n } = useLingui()
  return (
    <article className="ops-card bo-event" aria-labelledby="bo-ad-revenue">
      <h2 id="bo-ad-revenue" className="bo-event__name">
        <Trans>Ad revenue</Trans>
      </h2>
      {revenue.length === 0 ? (
        <p className="ops-empty">
          <Trans>No campaign has been charged yet.</Trans>
        </p>
      ) : (
        revenue.map((r) => {
          const money = (cents: number) =>
            formatMoney(cents, { currency: r.currency, locale: i18n.locale })
          const total = money(r.chargedCents)
          return (
            <section key={r.currency} aria-label={t`Ad revenue in ${r.currency}`}>
              <p className="bo-big">
                <Trans>
                  {total} <span className="bo-muted">from {r.charges} daily charges</span>
                </Trans>
              </p>
              {r.perDay.length > 0 ? (
                <Chart
                  title={t`Ad revenue per day (${r.currency})`}
                  summary={t`Ad revenue per day over the last 30 days: ${money(r.perDay.reduce((n, d) => n + d.cents, 0))} in ${r.perDay.length} days.`}
                  labels={r.perDay.map((d) => shortDayIn(d.day, i18n.locale))}
                  labelHeading={t`Day`}
                  locale={i18n.locale}
                  axes={{
                    x: t`Day`,
                    left: { title: t`Charged (${r.currency})` },
                    right: { title: t`Charges`, whole: true },
                  }}
                  empty={t`No charge in the last 30 days: each day's charged money appears here.`}
                  series={[
                    { label: t`Charged`, values: r.perDay.map((d) => d.cents), format: money },
                    {
                      label: t`Charges`,
                      values: r.perDay.map((d) => d.charges),
                      kind: 'line',
                      axis: 'right',
                    },
                  ]}
                  height={160}
                  tableToggle={t`Ad revenue per day as a table`}
                />
              ) : null}
            </section>
          )
        })
      )}
    </article>
  )
}
