import { AD_PLAY_MS } from '../../domain/ad-time.ts'
import type { CampaignState } from '../../domain/campaign.ts'
import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'
import { AD_PLAYS } from './columns.ts'

// The advertisers' read model for other modules (the console's billboard day and dashboard): what
// campaigns hold on a billboard, and the money their settled charges took. The tables stay this
// module's (ad_plays, campaigns, ad_charges).

export type BillboardAdPlay = {
  campaignId: string
  campaignName: string
  state: CampaignState
  startEpochMs: number
  endEpochMs: number
  proven: boolean
}

/** The plays campaigns hold on the billboard that run in [fromMs, toMs), in time order. */
export async function adPlaysOnBillboard(
  db: Queryable,
  deviceId: string,
  fromMs: number,
  toMs: number,
): Promise<BillboardAdPlay[]> {
  const rows = await db.query(sql<BillboardAdPlay>`
    select ${AD_PLAYS.select({ from: 'p', fields: ['campaignId', 'startEpochMs', 'endEpochMs'] })},
      c.name as "campaignName", c.state, p.proven_at_epoch_ms is not null as proven
    from ad_plays p join campaigns c on c.campaign_id = p.campaign_id
    where p.device_id = ${deviceId} and p.start_epoch_ms > ${fromMs - AD_PLAY_MS}
      and p.start_epoch_ms < ${toMs}
    order by p.start_epoch_ms`)
  return rows.map((r) => ({
    ...r,
    startEpochMs: Number(r.startEpochMs),
    endEpochMs: Number(r.endEpochMs),
  }))
}

export type AdRevenueDay = { day: string; currency: string; cents: number; charges: number }

/**
 * What the campaigns' charges took, per charged day (the billboard-local day the plays ran) and
 * currency: only charges the card paid ('charged'); pending and failed ones took nothing. Days from
 * `fromDay` (YYYY-MM-DD) on.
 */
export async function adRevenueByDay(db: Queryable, fromDay: string): Promise<AdRevenueDay[]> {
  const rows = await db.query(sql<AdRevenueDay>`
    select day, currency, sum(amount_cents)::float8 as cents, count(*)::int as charges
    from ad_charges where status = 'charged' and day >= ${fromDay}
    group by day, currency order by day, currency`)
  return rows.map((r) => ({ ...r, cents: Number(r.cents), charges: Number(r.charges) }))
}
