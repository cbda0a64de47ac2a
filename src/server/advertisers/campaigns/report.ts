import type { Report } from '../../../contract/advertisers.ts'
import { campaignReport } from '../../../domain/campaign.ts'
import { adBillboards } from '../../catalogue/ad-reads.ts'
import type { Queryable } from '../../platform/db/client.ts'
import { csvText } from '../../platform/http/csv.ts'
import { playsOf } from '../proposals/repo.ts'
import type { CampaignRow } from './repo.ts'

// A campaign's report (api-v1 Report): per billboard-local day and billboard, the plays held and
// proven, and the impressions and spend of the proven ones; as JSON or as CSV.

export async function reportOf(db: Queryable, campaign: CampaignRow): Promise<Report> {
  const [plays, billboards] = await Promise.all([
    playsOf(db, campaign.campaignId),
    adBillboards(db, campaign.deviceIds),
  ])
  const zones = new Map(billboards.map((b) => [b.deviceId, b.timeZoneId]))
  const { rows, totals } = campaignReport(plays, (deviceId) => zones.get(deviceId) ?? 'UTC')
  const named = campaign.deviceIds.map((deviceId) => {
    const b = billboards.find((x) => x.deviceId === deviceId)
    // a billboard the catalogue no longer lists keeps its id as its name
    return b
      ? { deviceId, location: b.location, city: b.city, timeZoneId: b.timeZoneId }
      : { deviceId, location: deviceId, city: '', timeZoneId: 'UTC' }
  })
  return {
    campaignId: campaign.campaignId,
    currency: campaign.currency,
    rows,
    totals,
    billboards: named,
  }
}

// people read the place and city; deviceId stays for a spreadsheet that joins on it
const CSV_COLUMNS = [
  'day',
  'location',
  'city',
  'deviceId',
  'scheduledPlays',
  'provenPlays',
  'impressions',
  'spentCents',
] as const

/** The report as CSV: a header, then one line a day and billboard (platform/http/csv.ts). */
export function reportCsv(report: Report): string {
  const names = new Map((report.billboards ?? []).map((b) => [b.deviceId, b]))
  return csvText(
    CSV_COLUMNS,
    report.rows.map((row) => {
      const b = names.get(row.deviceId)
      const line = { ...row, location: b?.location ?? row.deviceId, city: b?.city ?? '' }
      return CSV_COLUMNS.map((column) => line[column])
    }),
  )
}
