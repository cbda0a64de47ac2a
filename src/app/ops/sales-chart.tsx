import { useLingui } from '@lingui/react/macro'
import { useId } from 'react'
import { formatMoney } from '../../domain/money'

// Sales per day as a small chart, inline SVG (no chart library), with a text
// alternative: the SVG's name sums it up and the table beside it holds every figure.

export type SalesDay = { day: string; orders: number; cents: number }

const WIDTH = 320
const HEIGHT = 96
const GAP = 2

export function SalesChart({ days, currency }: { days: readonly SalesDay[]; currency: string }) {
  const { t, i18n } = useLingui()
  const tableId = useId()
  const money = (cents: number) => formatMoney(cents, { currency, locale: i18n.locale })
  if (days.length === 0) return <p className="ops-empty">{t`No sales yet.`}</p>
  const max = Math.max(1, ...days.map((d) => d.cents))
  const bar = (WIDTH - GAP * (days.length - 1)) / days.length
  const best = days.reduce((a, b) => (b.cents > a.cents ? b : a))
  const total = days.reduce((n, d) => n + d.cents, 0)
  const summary = t`Sales per day, ${days.length} days from ${days[0]?.day} to ${days[days.length - 1]?.day}: ${money(total)} in all, the most on ${best.day} (${money(best.cents)}).`
  return (
    <figure className="bo-chart">
      <svg
        className="bo-chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={summary}
        aria-describedby={tableId}
        preserveAspectRatio="none"
      >
        {days.map((d, i) => {
          const h = Math.max(d.cents > 0 ? 2 : 0, (d.cents / max) * (HEIGHT - 4))
          return (
            <rect
              key={d.day}
              x={i * (bar + GAP)}
              y={HEIGHT - h}
              width={Math.max(1, bar)}
              height={h}
              rx={1}
            />
          )
        })}
      </svg>
      <figcaption>
        <details>
          <summary>{t`Sales per day as a table`}</summary>
          <table className="ops-table" id={tableId}>
            <thead>
              <tr>
                <th scope="col">{t`Day`}</th>
                <th scope="col">{t`Orders`}</th>
                <th scope="col">{t`Sales`}</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{d.day}</th>
                  <td>{d.orders}</td>
                  <td>{money(d.cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  )
}
