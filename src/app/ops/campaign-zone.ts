import type { OpsCampaign } from '../../contract/ops/campaigns'
import { zonesOf } from './format'

/** The clock a campaign's times are written on: its first billboard's (UTC without one). */
export const campaignZone = (c: Pick<OpsCampaign, 'billboards'>): string =>
  c.billboards[0]?.timeZoneId ?? 'UTC'

/** Every zone a campaign's billboards are in: more than one, and the page says its flight spans them. */
export const campaignZones = (c: Pick<OpsCampaign, 'billboards'>): string[] =>
  zonesOf(c.billboards.map((b) => b.timeZoneId))
