import { Trans, useLingui } from '@lingui/react/macro'
import { billboards as billboardsApi } from '../../contract/billboards'
import { callApi } from '../lib/api'
import { Chart } from '../lib/chart'
import { Code } from './code'
import { dateTimeIn, durationIn, rangeIn, shortDayIn } from './format'
import { NotReady } from './ops-frame'
import { TableBox } from './table-box'
import { useOpsLoad } from './use-ops-load'

/**
 * A billboard's last 7 days on its own clock: each day's uptime and its sold plays proven and due
 * as one chart (a table of the same figures behind it), its newest proofs, and its outages with
 * how long each lasted. Its times are on the billboard's clock, named once by the page.
 */
export function BillboardWeek({ deviceId }: { deviceId: string }) {
  const { t, i18n } = useLingui()
  const [loaded] = useOpsLoad(
    (signal) => callApi(billboardsApi.week, { params: { deviceId }, signal }),
    [deviceId],
  )
  if (loaded.status !== 'ready') return <NotReady loaded={loaded} />
  const week = loaded.value
  const zone = week.timeZoneId
  const days = week.days
  const proven = days.reduce((n, d) => n + d.plays.proven, 0)
  const due = days.reduce((n, d) => n + d.plays.due, 0)
  const known = days.filter((d) => d.uptimePercent !== null)
  const lowest = known.length === 0 ? null : Math.min(...known.map((d) => d.uptimePercent ?? 100))
  const summary =
    lowest === null
      ? t`The last 7 days: ${proven} of ${due} sold plays proven; no report yet, so no uptime.`
      : t`The last 7 days: ${proven} of ${due} sold plays proven; the lowest uptime of a day ${lowest}%.`
  return (
    <>
      <section className="ops-card" aria-labelledby="ops-billboard-week">
        <h2 id="ops-billboard-week" className="ops-card__title">
          <Trans>The last 7 days</Trans>
        </h2>
        <Chart
          title={t`Uptime and sold plays per day`}
          summary={summary}
          labels={days.map((d) => shortDayIn(d.day, i18n.locale))}
          labelHeading={t`Day`}
          locale={i18n.locale}
          axes={{
            x: t`Day`,
            left: { title: t`Sold plays`, whole: true },
            right: { title: t`Uptime (%)`, whole: true },
          }}
          empty={t`Nothing yet: each day's uptime and sold plays proven and due appear here.`}
          series={[
            { label: t`Proven`, values: days.map((d) => d.plays.proven) },
            { label: t`Due`, values: days.map((d) => d.plays.due) },
            {
              label: t`Uptime (%)`,
              values: days.map((d) => d.uptimePercent),
              kind: 'line',
              axis: 'right',
              color: '#D55E00',
            },
          ]}
          height={180}
          tableToggle={t`The last 7 days as a table`}
        />
      </section>
      <section className="ops-card" aria-labelledby="ops-billboard-outages">
        <h2 id="ops-billboard-outages" className="ops-card__title">
          <Trans>Outages</Trans>
        </h2>
        {week.outages.length === 0 ? (
          <p className="ops-empty">
            <Trans>No outage in the last 7 days.</Trans>
          </p>
        ) : (
          <TableBox>
            <table className="ops-table" data-testid="billboard-outages">
              <caption className="visually-hidden">
                <Trans>Outages of the last 7 days, newest first</Trans>
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Dark from</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Back</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Duration</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Sold plays missed</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {week.outages.map((o) => (
                  <tr key={o.fromEpochMs}>
                    <td>{dateTimeIn(o.fromEpochMs, i18n.locale, zone)}</td>
                    <td>
                      {o.toEpochMs === null
                        ? t`Still dark`
                        : dateTimeIn(o.toEpochMs, i18n.locale, zone)}
                    </td>
                    <td>{durationIn(o.durationMs, i18n.locale)}</td>
                    <td>{o.missedPlays === null ? '–' : o.missedPlays}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
        )}
      </section>
      <section className="ops-card" aria-labelledby="ops-billboard-last-proofs">
        <h2 id="ops-billboard-last-proofs" className="ops-card__title">
          <Trans>Last proofs of play</Trans>
        </h2>
        {week.proofs.length === 0 ? (
          <p className="ops-empty">
            <Trans>
              No proof of a sold play yet: each play the billboard reports appears here.
            </Trans>
          </p>
        ) : (
          <TableBox>
            <table className="ops-table" data-testid="billboard-proofs">
              <caption className="visually-hidden">
                <Trans>The billboard's newest proofs of sold plays</Trans>
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Played</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Order</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Reported</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {week.proofs.map((p) => (
                  <tr key={`${p.orderGuid}-${p.startedAtEpochMs}`}>
                    <td>{rangeIn(p.startedAtEpochMs, p.endedAtEpochMs, i18n.locale, zone)}</td>
                    <td>
                      <Code>{p.orderGuid}</Code>
                    </td>
                    <td>{dateTimeIn(p.receivedAtEpochMs, i18n.locale, zone)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
        )}
      </section>
    </>
  )
}
