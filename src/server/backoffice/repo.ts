import type { ContentType, OrderState } from '../../contract/index.ts'
import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'

// Reads of the console's second part: billboards and their player links, a billboard's
// reservations and proofs of play for a range of slots, and the dashboard's sums. It writes nothing:
// links are made by player/, the catalogue by catalogue/. Tables: devices, event_devices, events,
// player_tokens, plays (player/), orders, slot_reservations (order/), generated_content (content/).

export type BillboardRow = {
  deviceId: string
  location: string
  city: string
  timeZoneId: string
  eventSlugs: string[]
  linkCreatedAtEpochMs: number | null
}

const BILLBOARD_COLUMNS = sql`
  d.device_id as "deviceId", d.location, d.city, d.time_zone_id as "timeZoneId",
  coalesce((select json_agg(ed.event_slug order by ed.event_slug) from event_devices ed
    where ed.device_id = d.device_id), '[]'::json) as "eventSlugs",
  (select floor(extract(epoch from t.created_at) * 1000)::float8 from player_tokens t
    where t.device_id = d.device_id and t.revoked_at is null) as "linkCreatedAtEpochMs"`

export function billboards(db: Queryable): Promise<BillboardRow[]> {
  return db.query(sql<BillboardRow>`
    select ${BILLBOARD_COLUMNS} from devices d order by d.device_id`)
}

export async function billboard(db: Queryable, deviceId: string): Promise<BillboardRow | null> {
  const [row] = await db.query(sql<BillboardRow>`
    select ${BILLBOARD_COLUMNS} from devices d where d.device_id = ${deviceId}`)
  return row ?? null
}

export type ReservationRow = {
  slotNumber: number
  orderGuid: string
  state: OrderState
  email: string
  contentUrl: string | null
  contentType: ContentType | null
}

/** The reservations of slots [first, last] of an event on a billboard, with their order and content. */
export function reservationsOfSlots(
  db: Queryable,
  eventSlug: string,
  deviceId: string,
  first: number,
  last: number,
): Promise<ReservationRow[]> {
  return db.query(sql<ReservationRow>`
    select r.slot_number as "slotNumber", r.order_guid as "orderGuid", o.state, o.email,
      g.url as "contentUrl", g.type as "contentType"
    from slot_reservations r
      join orders o on o.guid = r.order_guid
      left join generated_content g on g.key = o.execution_content_key
    where r.event_slug = ${eventSlug} and r.device_id = ${deviceId}
      and r.slot_number between ${first} and ${last}`)
}

export type ProofRow = {
  orderGuid: string
  slotNumber: number
  playIndex: number
  startedAtEpochMs: number
}

/** The proofs of play a billboard reported for these orders' slots in [first, last]. */
export function proofsOfSlots(
  db: Queryable,
  deviceId: string,
  eventSlug: string,
  first: number,
  last: number,
): Promise<ProofRow[]> {
  return db.query(sql<ProofRow>`
    select p.order_guid as "orderGuid", p.slot_number as "slotNumber", p.play_index as "playIndex",
      min(p.started_at_epoch_ms) as "startedAtEpochMs"
    from plays p join orders o on o.guid = p.order_guid
    where p.device_id = ${deviceId} and o.event_slug = ${eventSlug}
      and p.slot_number between ${first} and ${last}
    group by p.order_guid, p.slot_number, p.play_index`)
}

// ---------- dashboard ----------

export type EventDeviceRow = { deviceId: string; timeZoneId: string; sells: boolean }

/** The billboards of an event; `sells` is false for one unavailable for it or sold out. */
export function devicesOfEvent(db: Queryable, eventSlug: string): Promise<EventDeviceRow[]> {
  return db.query(sql<EventDeviceRow>`
    select d.device_id as "deviceId", d.time_zone_id as "timeZoneId",
      not (ed.unavailable or d.sold_out) as sells
    from event_devices ed join devices d on d.device_id = ed.device_id
    where ed.event_slug = ${eventSlug}
    order by d.device_id`)
}

export async function soldSlotCount(db: Queryable, eventSlug: string): Promise<number> {
  const [row] = await db.query(sql<{ n: number }>`
    select count(*)::int as n from slot_reservations r join orders o on o.guid = r.order_guid
    where r.event_slug = ${eventSlug} and o.state in ('Confirmed', 'UnderReview')`)
  return row?.n ?? 0
}

export function ordersByState(
  db: Queryable,
  eventSlug: string,
): Promise<{ state: string; n: number }[]> {
  return db.query(sql<{ state: string; n: number }>`
    select state, count(*)::int as n from orders where event_slug = ${eventSlug} group by state`)
}

/** Orders that were paid: Confirmed, under review, or Cancelled after payment (then refunded). */
const PAID = sql`o.state in ('Confirmed', 'UnderReview', 'Cancelled') and o.payment_id is not null`

/**
 * Refunds (the refunds table) count once the provider took them (status succeeded), as
 * the order's own payment shows them; a pending one counts when it succeeds.
 */
export type RevenueRow = { grossCents: number; discountCents: number; refundedCents: number }

export async function revenue(db: Queryable, eventSlug: string): Promise<RevenueRow> {
  const [row] = await db.query(sql<RevenueRow>`
    select coalesce(sum(o.subtotal_cents), 0)::float8 as "grossCents",
      coalesce(sum(o.discount_cents), 0)::float8 as "discountCents",
      coalesce(sum(r.amount_cents), 0)::float8 as "refundedCents"
    from orders o
      left join refunds r on r.order_guid = o.guid and r.status = 'succeeded'
    where o.event_slug = ${eventSlug} and ${PAID}`)
  return row ?? { grossCents: 0, discountCents: 0, refundedCents: 0 }
}

/** Paid orders and their totals per quarter hour (UTC) of placing: the service makes local days. */
export function salesByQuarterHour(
  db: Queryable,
  eventSlug: string,
): Promise<{ quarterEpochMs: number; orders: number; cents: number }[]> {
  return db.query(sql<{ quarterEpochMs: number; orders: number; cents: number }>`
    select (floor(extract(epoch from o.created_at) / 900) * 900000)::float8 as "quarterEpochMs",
      count(*)::int as orders, sum(o.total_cents)::float8 as cents
    from orders o where o.event_slug = ${eventSlug} and ${PAID}
    group by 1 order by 1`)
}
