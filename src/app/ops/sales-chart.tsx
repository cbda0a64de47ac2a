import { useLingui } from '@lingui/react/macro'
import { formatMoney } from '../../domain/money'
import { Chart } from '../lib/chart'
import { shortDayIn } from './format'

// Sales per day of an event: the money of the paid orders as bars, in the event's currency, and
// their number as a line on a second axis of whole numbers; every figure in the table behind it.

export type SalesDay = { day: string; orders: number; cents: number }

export function SalesChart({ days, currency }: { days: readonly SalesDay[]; currency: string }) {
  const { t, i18n } = useLingui()
  const locale = i18n.locale
  const money = (cents: number) => formatMoney(cents, { currency, locale })
  const total = days.reduce((n, d) => n + d.cents, 0)
  const best = days.reduce<SalesDay | null>(
    (a, b) => (a === null || b.cents > a.cents ? b : a),
    null,
  )
  const first = days[0] ? shortDayIn(days[0].day, locale) : ''
  const last = days[days.length - 1] ? shortDayIn(days[days.length - 1]?.day ?? '', locale) : ''
  const bestDay = best ? shortDayIn(best.day, locale) : ''
  return (
    <Chart
      title={t`Sales per day`}
      summary={t`Sales per day, ${days.length} days from ${first} to ${last}: ${money(total)} in all, the most on ${bestDay} (${money(best?.cents ?? 0)}).`}
      labels={days.map((d) => shortDayIn(d.day, locale))}
      labelHeading={t`Day`}
      locale={locale}
      axes={{
        x: t`Day`,
        left: { title: t`Sales (${currency})` },
        right: { title: t`Orders`, whole: true },
      }}
      series={[
        { label: t`Sales`, values: days.map((d) => d.cents), format: money },
        {
          label: t`Orders`,
          values: days.map((d) => d.orders),
          kind: 'line',
          axis: 'right',
        },
      ]}
      empty={t`No sales yet: each day's paid orders and their money appear here.`}
      height={180}
      tableToggle={t`Sales per day as a table`}
    />
  )
}
