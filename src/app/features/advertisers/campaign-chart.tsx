import { Trans, useLingui } from '@lingui/react/macro'
import { advertisers, type Report } from '../../../contract/advertisers'
import { CHART_COLORS, Chart, type ChartSeries } from '../../lib/chart'
import { shortDay } from '../../lib/display-date'
import { useLoad } from '../../lib/use-load'
import { count, money } from './format'
import { callAsAdvertiser } from './session'

// The campaign's report as two charts: per billboard-local day the plays scheduled and proven on each
// billboard, then the day's impressions and spend. Every figure is also in each chart's table.

/** Per day, the sum over billboards of a row's figure; per day and billboard, the figure itself. */
export function reportSeries(report: Report) {
  const days = [...new Set(report.rows.map((r) => r.day))].sort()
  const devices = [...new Set(report.rows.map((r) => r.deviceId))].sort()
  const cell = (day: string, deviceId: string) =>
    report.rows.find((r) => r.day === day && r.deviceId === deviceId)
  const perDay = (pick: (r: Report['rows'][number]) => number) =>
    days.map((day) => report.rows.filter((r) => r.day === day).reduce((n, r) => n + pick(r), 0))
  return { days, devices, cell, perDay }
}

export function CampaignChart({ campaignId }: { campaignId: string }) {
  const { t, i18n } = useLingui()
  const [loaded] = useLoad(
    (signal) => callAsAdvertiser(advertisers.report, { params: { campaignId }, signal }),
    [campaignId],
    // the figures above stay: the chart is an extra view of them
    () => null,
  )
  if (loaded.status !== 'ready') return null
  const report = loaded.value
  const { days, devices, cell, perDay } = reportSeries(report)
  const locale = i18n.locale
  const labels = days.map((d) => shortDay(d, locale))
  const m = (cents: number) => money(cents, report.currency, locale)
  // a billboard by its place, as people name it (its id only when the catalogue lost it)
  const nameOf = (deviceId: string) =>
    report.billboards?.find((b) => b.deviceId === deviceId)?.location ?? deviceId
  const plays: ChartSeries[] = devices.flatMap((deviceId, i) => {
    const color = CHART_COLORS[i % CHART_COLORS.length] ?? '#0072B2'
    const billboard = nameOf(deviceId)
    return [
      {
        label: t`Scheduled at ${billboard}`,
        values: days.map((d) => cell(d, deviceId)?.scheduledPlays ?? 0),
        color: `${color}66`,
      },
      {
        label: t`Shown at ${billboard}`,
        values: days.map((d) => cell(d, deviceId)?.provenPlays ?? 0),
        color,
      },
    ]
  })
  const totals = report.totals
  return (
    <section className="card" aria-labelledby="campaign-chart-title">
      <h2 className="section-title" id="campaign-chart-title">
        <Trans>Plays, impressions and spend by day</Trans>
      </h2>
      {days.length === 0 ? (
        <p className="field__hint">
          <Trans>No plays yet: the charts appear once plays are scheduled.</Trans>
        </p>
      ) : (
        <>
          <Chart
            title={t`Plays scheduled and shown per day and billboard`}
            summary={t`Plays per day and billboard: ${count(totals.scheduledPlays, locale)} scheduled, ${count(totals.provenPlays, locale)} shown in all.`}
            labels={labels}
            labelHeading={t`Day`}
            locale={locale}
            axes={{ x: t`Day`, left: { title: t`Plays`, whole: true } }}
            empty={t`No plays yet: each day's plays scheduled and shown appear here.`}
            series={plays}
            tableToggle={t`Plays as a table`}
          />
          <Chart
            title={t`Impressions and spend per day`}
            summary={t`Impressions and spend per day: ${count(totals.impressions, locale)} impressions, ${m(totals.spentCents)} spent in all.`}
            labels={labels}
            labelHeading={t`Day`}
            locale={locale}
            axes={{
              x: t`Day`,
              left: { title: t`Impressions`, whole: true },
              right: { title: t`Spend (${report.currency})` },
            }}
            empty={t`No impressions yet: each day's impressions and spend appear here.`}
            series={[
              { label: t`Impressions`, values: perDay((r) => r.impressions) },
              {
                label: t`Spend`,
                values: perDay((r) => r.spentCents),
                kind: 'line',
                axis: 'right',
                format: m,
              },
            ]}
            tableToggle={t`Impressions and spend as a table`}
          />
        </>
      )}
    </section>
  )
}
