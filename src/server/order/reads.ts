import type { ContentType, OrderState } from '../../contract/index.ts'
import { operatorEmail } from '../auth/reads.ts'
import { contentLinkOf, playableContentOf } from '../content/reads.ts'
import { refundedCents } from '../payment/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { epochMs, joinSql, type Sql, sql } from '../platform/db/sql.ts'
import { ORDERS, SLOT_RESERVATIONS } from './columns.ts'

// What the order module lets other modules read of its tables (orders, order_state_history,
// slot_reservations, promo_redemptions): the sold slots (the shop's slot search), a code's
// redemptions (promo checks), the orders a billboard plays, the figures of the console's schedule
// and dashboard, and conditions others embed. The console's view of an order is console-reads.ts;
// the orders owed a mail are mail-reads.ts. Content, cards and refunds come from their owners' read
// models (content/reads.ts, payment/reads.ts), embedded in these statements.

/** Orders by state, in the shared database (GET /metrics). */
export function countOrdersByState(db: Queryable): Promise<{ state: string; count: number }[]> {
  return db.query(sql<{ state: string; count: number }>`
    select state, count(*)::int as count from orders group by state`)
}

/** The slot numbers sold (or held by an order being processed) on a billboard for an event. */
export async function soldSlotNumbers(
  db: Queryable,
  eventSlug: string,
  deviceId: string,
): Promise<number[]> {
  const rows = await db.query(sql<{ slotNumber: number }>`
    select ${SLOT_RESERVATIONS.select({ fields: ['slotNumber'] })} from slot_reservations
    where event_slug = ${eventSlug} and device_id = ${deviceId}`)
  return rows.map((r) => r.slotNumber)
}

/** Whether this e-mail (already normalised) has an order with this code. */
export async function hasRedeemed(db: Queryable, promoCode: string, email: string) {
  const rows = await db.query(sql`
    select 1 from promo_redemptions where promo_code = ${promoCode} and email = ${email}`)
  return rows.length > 0
}

/** True when the order of this guid is of this event (a condition another statement embeds). */
export function isOrderOfEvent(orderGuid: Sql, eventSlug: string): Sql {
  return sql`exists (select 1 from orders o
    where o.guid = ${orderGuid} and o.event_slug = ${eventSlug})`
}

/** An order's slot count and its event's slug (scalar subqueries; null for an unknown order). */
export function slotCountOf(orderGuid: string): Sql {
  return sql`(select cardinality(o.slot_numbers) from orders o where o.guid = ${orderGuid})`
}
export function eventOfOrder(orderGuid: string): Sql {
  return sql`(select o.event_slug from orders o where o.guid = ${orderGuid})`
}
/** The key of the content an order plays (a scalar subquery on a guid expression). */
export function contentKeyOf(orderGuid: Sql): Sql {
  return sql`(select o.execution_content_key from orders o where o.guid = ${orderGuid})`
}

// ---------- what billboards play (player/) ----------

export type SoldContent = {
  url: string
  type: ContentType
  widthPx: number
  heightPx: number
  durationSeconds: number | null
}

export type ConfirmedSlot = { orderGuid: string; slotNumber: number; content: SoldContent }

/** The slots in [first, last] of an event on a billboard sold to Confirmed orders, with their content. */
export async function confirmedSlots(
  db: Queryable,
  eventSlug: string,
  deviceId: string,
  first: number,
  last: number,
): Promise<ConfirmedSlot[]> {
  // Only Confirmed orders play (src/domain/schedule.ts mayPlay): the state is checked here so that a
  // window of a busy billboard never reads the orders it would drop.
  const rows = await db.query(sql<{
    orderGuid: string
    slotNumber: number
    content: SoldContent | null
  }>`
    select ${SLOT_RESERVATIONS.select({ from: 'r', fields: ['orderGuid', 'slotNumber'] })},
      ${playableContentOf(sql`o.execution_content_key`)} as content
    from slot_reservations r join orders o on o.guid = r.order_guid
    where r.event_slug = ${eventSlug} and r.device_id = ${deviceId}
      and r.slot_number between ${first} and ${last} and o.state = 'Confirmed'
    order by r.slot_number`)
  return rows.filter((r): r is ConfirmedSlot => r.content !== null)
}

export type OrderForPlay = {
  guid: string
  state: OrderState
  eventSlug: string
  deviceId: string
  slotNumbers: number[]
}

export function ordersForPlays(db: Queryable, guids: readonly string[]): Promise<OrderForPlay[]> {
  if (guids.length === 0) return Promise.resolve([])
  return db.query(sql<OrderForPlay>`
    select ${ORDERS.select({ fields: ['guid', 'state', 'eventSlug', 'deviceId', 'slotNumbers'] })}
    from orders where guid in (${joinSql(guids.map((g) => sql`${g}`))})`)
}

// ---------- the console's schedule of a billboard's day ----------

export type ReservationRow = {
  slotNumber: number
  orderGuid: string
  state: OrderState
  email: string
  contentUrl: string | null
  contentType: ContentType | null
}

/** The reservations of slots [first, last] of an event on a billboard, with their order and content. */
export async function reservationsOfSlots(
  db: Queryable,
  eventSlug: string,
  deviceId: string,
  first: number,
  last: number,
): Promise<ReservationRow[]> {
  const rows = await db.query(sql<{
    slotNumber: number
    orderGuid: string
    state: OrderState
    email: string
    content: { url: string; type: ContentType } | null
  }>`
    select ${SLOT_RESERVATIONS.select({ from: 'r', fields: ['slotNumber', 'orderGuid'] })},
      o.state, o.email,
      ${contentLinkOf(sql`o.execution_content_key`)} as content
    from slot_reservations r join orders o on o.guid = r.order_guid
    where r.event_slug = ${eventSlug} and r.device_id = ${deviceId}
      and r.slot_number between ${first} and ${last}`)
  return rows.map(({ content, ...row }) => ({
    ...row,
    contentUrl: content?.url ?? null,
    contentType: content?.type ?? null,
  }))
}

// ---------- the console's dashboard ----------

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

export type RevenueRow = { grossCents: number; discountCents: number; refundedCents: number }

/** The paid orders' sums; a refund counts once the provider took it (payment/reads.ts). */
export async function revenue(db: Queryable, eventSlug: string): Promise<RevenueRow> {
  const [row] = await db.query(sql<RevenueRow>`
    select coalesce(sum(o.subtotal_cents), 0)::float8 as "grossCents",
      coalesce(sum(o.discount_cents), 0)::float8 as "discountCents",
      coalesce(sum(${refundedCents(sql`o.guid`)}), 0)::float8 as "refundedCents"
    from orders o
    where o.event_slug = ${eventSlug} and ${PAID}`)
  return row ?? { grossCents: 0, discountCents: 0, refundedCents: 0 }
}

/** Paid orders and their totals per quarter hour (UTC) of placing: the caller makes local days. */
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

/** The history of an order with the operator's e-mail: a JSON array, oldest first. */
export function historyOf(orderGuid: Sql): Sql {
  return sql`coalesce((select json_agg(json_build_object('state', h.state,
      'atEpochMs', round(${epochMs(sql`h.at`)}), 'actor', h.actor,
      'operatorEmail', ${operatorEmail(sql`h.operator_id`)}, 'reason', h.reason) order by h.id)
    from order_state_history h where h.order_guid = ${orderGuid}), '[]'::json)`
}

/**
 * Whether an order that still keeps its personal data names the content under this key (a boolean
 * expression); `except` leaves one order out (the one being forgotten). An order whose data was
 * forgotten (lifetime.ts) no longer holds its content.
 */
export function contentInAnOrder(key: Sql, except?: string): Sql {
  const other = except === undefined ? sql`` : sql`and o.guid <> ${except}`
  return sql`exists (select 1 from orders o where o.execution_content_key = ${key}
    and o.personal_data_erased_at is null ${other})`
}

/** The order a charge paid for, by the provider's id of the charge (Stripe's PaymentIntent). */
export async function orderOfPayment(
  db: Queryable,
  paymentId: string,
): Promise<{ guid: string } | null> {
  const [row] = await db.query(sql<{ guid: string }>`
    select guid from orders where payment_id = ${paymentId} limit 1`)
  return row ?? null
}

// ---------- make-goods (make-good/service.ts) ----------

/** Where a billboard's event has its make-goods due: every slot numbered `upTo` or before. */
export type DecidableBound = { eventSlug: string; deviceId: string; upTo: number }

/**
 * Confirmed orders with a slot within their billboard's bound that `undecided` (the make-good
 * module's condition on `o.guid` and a slot number) still holds for, oldest first, with the bound.
 */
export function ordersWithEndedSlots(
  db: Queryable,
  bounds: readonly DecidableBound[],
  undecided: (orderGuid: Sql, slotNumber: Sql) => Sql,
  limit: number,
): Promise<{ guid: string; eventSlug: string; upTo: number }[]> {
  if (bounds.length === 0) return Promise.resolve([])
  return db.query(sql<{ guid: string; eventSlug: string; upTo: number }>`
    select ${ORDERS.select({ from: 'o', fields: ['guid', 'eventSlug'] })}, b.up_to as "upTo"
    from orders o
    join unnest(${bounds.map((b) => b.eventSlug)}::text[], ${bounds.map((b) => b.deviceId)}::text[],
      ${bounds.map((b) => b.upTo)}::int[]) as b(event_slug, device_id, up_to)
      on o.event_slug = b.event_slug and o.device_id = b.device_id
    where o.state = 'Confirmed'
      and exists (select 1 from unnest(o.slot_numbers) n
        where n <= b.up_to and ${undecided(sql`o.guid`, sql`n`)})
    order by o.created_at
    limit ${limit}`)
}
