import { Trans, useLingui } from '@lingui/react/macro'
import type { DashboardEvent } from '../../contract/ops/dashboard'
import { opsDashboard } from '../../contract/ops/dashboard'
import { ORDER_STATES } from '../../contract/order'
import { formatMoney } from '../../domain/money'
import { callApi } from '../lib/api'
import { AdRevenueCard } from './ad-revenue'
import { rangeIn } from './format'
import { NotReady, OpsPage, RefreshButton } from './ops-frame'
import { StateName } from './order-parts'
import { PlaysPerDay } from './plays-chart'
import { SalesChart } from './sales-chart'
import { useOpsLoad } from './use-ops-load'
import { ZoneNote } from './zone-note'
import './backoffice.css'

/**
 * Dashboard (admin): per live event, slots sold of capacity, revenue (gross, discounts,
 * refunds), orders by state, the review queue, sales per day as a small chart, the plays due,
 * proven and missed and the make-good refunds per day (plays-chart.tsx); then the advertisers'
 * charged money (ad-revenue.tsx).
 */
export function DashboardPage() {
  const { t } = useLingui()
  const [board, reload] = useOpsLoad((signal) => callApi(opsDashboard.dashboard, { signal }), [])
  return (
    <OpsPage title={t`Dashboard`} actions={<RefreshButton onClick={reload} />}>
      {board.status !== 'ready' ? (
        <NotReady loaded={board} />
      ) : (
        <>
          {board.value.events.length === 0 ? (
            <p className="ops-empty">
              <Trans>No live event.</Trans>
            </p>
          ) : (
            <ul className="bo-events">
              {board.value.events.map((event) => (
                <li key={event.slug}>
                  <EventFigures event={event} />
                </li>
              ))}
            </ul>
          )}
          <AdRevenueCard revenue={board.value.adRevenue} />
        </>
      )}
    </OpsPage>
  )
}

function EventFigures({ event }: { event: DashboardEvent }) {
  const { t, i18n } = useLingui()
  const money = (cents: number) =>
    formatMoney(cents, { currency: event.currency, locale: i18n.locale })
  const share = event.capacity > 0 ? event.sold / event.capacity : 0
  const percent = new Intl.NumberFormat(i18n.locale, {
    style: 'percent',
    maximumFractionDigits: 1,
  }).format(share)
  const headingId = `bo-event-${event.slug}`
  return (
    <article className="ops-card bo-event" aria-labelledby={headingId}>
      <h2 id={headingId} className="bo-event__name">
        {event.name}
      </h2>
      <p className="bo-when">
        {rangeIn(event.startEpochMs, event.endEpochMs, i18n.locale, event.timeZoneId)}
      </p>
      <ZoneNote zones={[event.timeZoneId, ...event.timeZoneIds]} />
      <div className="bo-figures">
        <section aria-label={t`Slots`}>
          <h3>
            <Trans>Slots sold</Trans>
          </h3>
          <p className="bo-big">
            <Trans>
              {event.sold} of {event.capacity}
            </Trans>{' '}
            <span className="bo-muted">({percent})</span>
          </p>
          <div className="bo-bar" aria-hidden="true">
            <span style={{ width: `${Math.min(100, share * 100)}%` }} />
          </div>
        </section>
        <section aria-label={t`Revenue`}>
          <h3>
            <Trans>Revenue</Trans>
          </h3>
          <dl className="ops-facts">
            <dt>
              <Trans>Gross</Trans>
            </dt>
            <dd>{money(event.revenue.grossCents)}</dd>
            <dt>
              <Trans>Discounts</Trans>
            </dt>
            <dd>−{money(event.revenue.discountCents)}</dd>
            <dt>
              <Trans>Refunds</Trans>
            </dt>
            <dd>−{money(event.revenue.refundedCents)}</dd>
            <dt>
              <Trans>Net</Trans>
            </dt>
            <dd>
              <strong>{money(event.revenue.netCents)}</strong>
            </dd>
          </dl>
        </section>
        <section aria-label={t`Orders by state`}>
          <h3>
            <Trans>Orders by state</Trans>
          </h3>
          <dl className="ops-facts">
            {ORDER_STATES.map((state) => (
              <div key={state} className="bo-fact">
                <dt>
                  <StateName state={state} />
                </dt>
                <dd>{event.ordersByState[state] ?? 0}</dd>
              </div>
            ))}
          </dl>
          <p>
            <a href="/ops/review">
              <Trans>Review queue: {event.reviewQueue}</Trans>
            </a>
          </p>
        </section>
      </div>
      <h3>
        <Trans>Sales per day</Trans>
      </h3>
      <SalesChart days={event.salesPerDay} currency={event.currency} />
      <h3>
        <Trans>Plays and make-goods per day</Trans>
      </h3>
      <PlaysPerDay event={event} />
    </article>
  )
}
