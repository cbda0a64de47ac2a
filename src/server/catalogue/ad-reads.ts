import type { AdTimeEvent } from '../../domain/ad-time.ts'
import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'
import { DEVICES } from './columns.ts'

// What the catalogue lets the advertisers' module read of its tables (catalogue-format
// "Advertising"): the billboards with their ad price, and every event each one belongs to, whose
// shouts' places ads keep out of (docs/decisions/023). An event lists a billboard "unavailable" or
// not, its places count alike: the operator may open it again.

export type AdBillboard = {
  deviceId: string
  location: string
  city: string
  country: string
  timeZoneId: string
  coordinates: { lat: number; lng: number }
  imageUrl: string
  contentWidth: number
  contentHeight: number
  /** null: not sold to advertisers. */
  impressionsPerPlay: number | null
  adCpmCents: number | null
  adCurrency: string | null
  events: AdTimeEvent[]
}

const AD_BILLBOARD_FIELDS = [
  'deviceId',
  'location',
  'city',
  'country',
  'timeZoneId',
  'coordinates',
  'imageUrl',
  'contentWidth',
  'contentHeight',
  'impressionsPerPlay',
  'adCpmCents',
  'adCurrency',
] as const satisfies readonly (keyof AdBillboard)[]

/**
 * The billboards named (all of them without a list), sorted by id, with their events. A billboard
 * without the ad fields is listed too (its fields null): the caller says it is not for sale.
 */
export function adBillboards(
  db: Queryable,
  deviceIds: readonly string[] | null = null,
): Promise<AdBillboard[]> {
  const only = deviceIds === null ? sql`true` : sql`d.device_id = any(${[...deviceIds]}::text[])`
  return db.query(sql<AdBillboard>`
    select ${DEVICES.select({ from: 'd', fields: AD_BILLBOARD_FIELDS })},
      coalesce((
        select json_agg(json_build_object(
          'startDateHourLocalInclusive', e.start_date_hour_local_inclusive,
          'endDateHourLocalExclusive', e.end_date_hour_local_exclusive,
          'slotWidthMS', e.slot_width_ms, 'playsPerSlot', e.plays_per_slot,
          'secondsPerShout', e.seconds_per_shout, 'adSharePercent', e.ad_share_percent)
          order by e.slug)
        from event_devices ed join events e on e.slug = ed.event_slug
        where ed.device_id = d.device_id), '[]'::json) as events
    from devices d
    where ${only}
    order by d.device_id`)
}
