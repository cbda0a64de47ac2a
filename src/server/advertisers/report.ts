import type { Report } from '../../contract/advertisers.ts'
import { campaignReport } from '../../domain/campaign.ts'
import { adBillboards } from '../catalogue/ad-reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import type { CampaignRow } from './campaigns-repo.ts'
import { playsOf } from './plays-repo.ts'

// A campaign's report (api-v1 Report): per billboard-local day and billboard, the plays held and
// proven, and the impressions and spend of the proven ones; as JSON or as CSV.

export async function reportOf(db: Queryable, campaign: CampaignRow): Promise<Report> {
  const [plays, billboards] = await Promise.all([
    playsOf(db, campaign.campaignId),
    adBillboards(db, campaign.deviceIds),
  ])
  const zones = new Map(billboards.map((b) => [b.deviceId, b.timeZoneId]))
  const { rows, totals } = campaignReport(plays, (deviceId) => zones.get(deviceId) ?? 'UTC')
  return { campaignId: campaign.campaignId, currency: campaign.currency, rows, totals }
}

const CSV_COLUMNS = [
  'day',
  'deviceId',
  'scheduledPlays',
  'provenPlays',
  'impressions',
  'spentCents',
] as const

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
const field = (value: string | number) => {
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The report as CSV: a header, then one line a day and billboard (CRLF, as RFC 4180 writes it). */
export function reportCsv(report: Report): string {
  const lines = [CSV_COLUMNS.join(',')]
  for (const row of report.rows) lines.push(CSV_COLUMNS.map((c) => field(row[c])).join(','))
  return `${lines.join('\r\n')}\r\n`
}
