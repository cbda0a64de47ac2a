import { useLingui } from '@lingui/react/macro'
import type { DashboardEvent } from '../../contract/ops/dashboard'
import { formatMoney } from '../../domain/money'
import { Chart } from '../lib/chart'
import { shortDayIn } from './format'

// The dashboard's plays per day of an event: the sold plays due, proven and missed (the make-good
// rule: missed once decided so, or past the grace without proof), then per currency what the
// make-goods refunded for each day's plays. Each a chart with its table of the same figures.

export function PlaysPerDay({ event }: { event: DashboardEvent }) {
  const { t, i18n } = useLingui()
  const days = event.playsPerDay
  const labels = days.map((d) => shortDayIn(d.day, i18n.locale))
  const sum = (pick: (d: (typeof days)[number]) => number) => days.reduce((n, d) => n + pick(d), 0)
  const [due, proven, missed] = [sum((d) => d.due), sum((d) => d.proven), sum((d) => d.missed)]
  const currencies = [...new Set(event.makeGoodRefundsPerDay.map((r) => r.currency))]
  return (
    <>
      <Chart
        title={t`Plays per day`}
        summary={t`Plays per day over ${days.length} days: ${due} due, ${proven} proven, ${missed} missed.`}
        labels={labels}
        labelHeading={t`Day`}
        locale={i18n.locale}
        axes={{ x: t`Day`, left: { title: t`Plays`, whole: true } }}
        empty={t`No sold play yet: each day's plays due, proven and missed appear here.`}
        series={[
          { label: t`Due`, values: days.map((d) => d.due) },
          { label: t`Proven`, values: days.map((d) => d.proven) },
          { label: t`Missed`, values: days.map((d) => d.missed), color: '#D55E00' },
        ]}
        height={160}
        tableToggle={t`Plays per day as a table`}
      />
      {currencies.length === 0 ? (
        <p className="ops-empty">{t`No make-good refund yet.`}</p>
      ) : (
        currencies.map((currency) => {
          const money = (cents: number) => formatMoney(cents, { currency, locale: i18n.locale })
          const of = (day: string) =>
            event.makeGoodRefundsPerDay.find((r) => r.day === day && r.currency === currency)
          const cents = days.map((d) => of(d.day)?.cents ?? 0)
          const orders = days.map((d) => of(d.day)?.orders ?? 0)
          const total = money(cents.reduce((n, c) => n + c, 0))
          return (
            <Chart
              key={currency}
              title={t`Make-good refunds per day (${currency})`}
              summary={t`Make-good refunds per day (${currency}): ${total} in all.`}
              labels={labels}
              labelHeading={t`Day`}
              locale={i18n.locale}
              axes={{
                x: t`Day`,
                left: { title: t`Refunded (${currency})` },
                right: { title: t`Orders`, whole: true },
              }}
              empty={t`No make-good refund yet.`}
              series={[
                { label: t`Refunded`, values: cents, format: money },
                { label: t`Orders refunded`, values: orders, kind: 'line', axis: 'right' },
              ]}
              height={160}
              tableToggle={t`Make-good refunds per day as a table (${currency})`}
            />
          )
        })
      )}
    </>
  )
}
