import type { Device, DevicesQuery, ShoutEvent } from '../../contract/index.ts'
import type { Queryable } from '../platform/db/client.ts'
import { type Sql, sql } from '../platform/db/sql.ts'

// Reads of the catalogue (events, devices, event_devices; written by the catalogue import) in the
// shapes of api-v1, and of the sold slots (slot_reservations; written by order/repo.ts).

const EVENT_COLUMNS = sql`
  slug, name, start_date_hour_local_inclusive as "startDateHourLocalInclusive",
  end_date_hour_local_exclusive as "endDateHourLocalExclusive", slot_width_ms as "slotWidthMS",
  allowed_content_generator_types as "allowedContentGeneratorTypes",
  value_cents_per_slot as "valueCentsPerSlot", currency, branded, sponsor_name as "sponsorName",
  min_presale_slot_epoch_ms as "minPresaleSlotEpochMs", plays_per_slot as "playsPerSlot",
  seconds_per_shout as "secondsPerShout"`

export async function eventBySlug(db: Queryable, slug: string): Promise<ShoutEvent | null> {
  const [row] = await db.query(
    sql<ShoutEvent>`select ${EVENT_COLUMNS} from events where slug = ${slug}`,
  )
  return row ?? null
}

export function allEvents(db: Queryable): Promise<ShoutEvent[]> {
  return db.query(sql<ShoutEvent>`select ${EVENT_COLUMNS} from events order by slug`)
}

type DeviceRow = Omit<Device, 'coordinates'> & { lat: number; lng: number }

const DEVICE_COLUMNS = sql`
  d.device_id as "deviceId", d.location, d.traffic_direction as "trafficDirection", d.lat, d.lng,
  d.viewing_area_coordinates as "viewingAreaCoordinates", d.screens, d.image_url as "imageUrl",
  d.street_view_url as "streetViewUrl", d.sold_out as "soldOut",
  ed.unavailable as "unavailableForEvent", d.city, d.state_abbr as "stateAbbr", d.country,
  d.time_zone_id as "timeZoneId", d.content_width as "contentWidth",
  d.content_height as "contentHeight"`

const deviceOf = ({ lat, lng, ...row }: DeviceRow): Device => ({
  deviceId: row.deviceId,
  location: row.location,
  trafficDirection: row.trafficDirection,
  coordinates: { lat, lng },
  viewingAreaCoordinates: row.viewingAreaCoordinates,
  screens: row.screens,
  imageUrl: row.imageUrl,
  streetViewUrl: row.streetViewUrl,
  soldOut: row.soldOut,
  unavailableForEvent: row.unavailableForEvent,
  city: row.city,
  stateAbbr: row.stateAbbr,
  country: row.country,
  timeZoneId: row.timeZoneId,
  contentWidth: row.contentWidth,
  contentHeight: row.contentHeight,
})

/** The device as the event lists it, or null when the event does not show it. */
export async function eventDevice(
  db: Queryable,
  slug: string,
  deviceId: string,
): Promise<Device | null> {
  const [row] = await db.query(sql<DeviceRow>`
    select ${DEVICE_COLUMNS}
    from event_devices ed join devices d on d.device_id = ed.device_id
    where ed.event_slug = ${slug} and ed.device_id = ${deviceId}`)
  return row ? deviceOf(row) : null
}

// spec §9: sorted by id, city or location, then by id so that pages never overlap.
const ORDER_COLUMNS: Record<DevicesQuery['orderBy'], Sql> = {
  id: sql`d.device_id`,
  city: sql`d.city`,
  location: sql`d.location`,
}
const DIRECTIONS: Record<DevicesQuery['sortDirection'], Sql> = { asc: sql`asc`, desc: sql`desc` }

/** One page of an event's devices, and how many it has. */
export async function eventDevicesPage(
  db: Queryable,
  slug: string,
  page: DevicesQuery,
): Promise<{ devices: Device[]; total: number }> {
  const direction = DIRECTIONS[page.sortDirection]
  const [rows, totals] = await Promise.all([
    db.query(sql<DeviceRow>`
      select ${DEVICE_COLUMNS}
      from event_devices ed join devices d on d.device_id = ed.device_id
      where ed.event_slug = ${slug}
      order by ${ORDER_COLUMNS[page.orderBy]} ${direction}, d.device_id ${direction}
      limit ${page.limit} offset ${page.offset}`),
    db.query(sql<{ total: number }>`
      select count(*)::int as total from event_devices where event_slug = ${slug}`),
  ])
  return { devices: rows.map(deviceOf), total: totals[0]?.total ?? 0 }
}

/** The slot numbers sold (or held by an order being processed) on a billboard for an event. */
export async function soldSlotNumbers(
  db: Queryable,
  eventSlug: string,
  deviceId: string,
): Promise<number[]> {
  const rows = await db.query(sql<{ slotNumber: number }>`
    select slot_number as "slotNumber" from slot_reservations
    where event_slug = ${eventSlug} and device_id = ${deviceId}`)
  return rows.map((r) => r.slotNumber)
}
