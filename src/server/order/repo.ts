import type { OrderCreated, OrderState } from '../../contract/index.ts'
import type { ProblemData } from '../../domain/problems.ts'
import { contentHeldForOrder, type OrderContent, orderContentOf } from '../content/reads.ts'
import { checkoutCard, checkoutProvider, type PaymentSetupRecord } from '../payment/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { json, type Sql, sql } from '../platform/db/sql.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { HitRow } from '../platform/rate-limit.ts'
import { IDEMPOTENCY_KEYS, ORDERS, type OrderColumns, SLOT_RESERVATIONS } from './columns.ts'

/** A lease's end, by the database's clock. */
const leaseEnd = (lease: LeaseSettings) =>
  sql`now() + ${lease.leaseMs}::int * interval '1 millisecond'`

// The tables of an order's life: orders, order_state_history, and the rows whose unique keys are the
// rules no race can break: slot_reservations (a slot is sold once), idempotency_keys (a retry is one
// order), checkout_bindings (a checkout pays one order), promo_redemptions (a once-per-customer code
// is used once). The content an order names and the card it pays with are read through the content
// and payment modules' read models (content/reads.ts, payment/reads.ts).

export type { OrderContent } from '../content/reads.ts'

// ---------- placing ----------

/** The content an order names and the checkout it binds (and whether it is used), in one round trip. */
export async function contentAndSetup(
  db: Queryable,
  contentKey: string,
  checkoutSecretKey: string,
): Promise<{ content: OrderContent | null; setup: PaymentSetupRecord | null; used: boolean }> {
  const [row] = await db.query(sql<{
    content: OrderContent | null
    setup: PaymentSetupRecord | null
    used: boolean
  }>`
    select
      ${orderContentOf(sql`${contentKey}`)} as content,
      ${checkoutCard(sql`${checkoutSecretKey}`)} as setup,
      exists (select 1 from checkout_bindings where checkout_secret_key = ${checkoutSecretKey})
        as used`)
  return { content: row?.content ?? null, setup: row?.setup ?? null, used: row?.used ?? false }
}

/** The answer stored under an Idempotency-Key, with the hash of the body it was given for. */
export async function storedAnswer(
  db: Queryable,
  idempotencyKey: string,
): Promise<{ requestHash: string; created: OrderCreated } | null> {
  const [row] = await db.query(sql<{ requestHash: string; created: OrderCreated }>`
    select ${IDEMPOTENCY_KEYS.select({ fields: ['requestHash', 'created'] })}
    from idempotency_keys where key = ${idempotencyKey}`)
  return row ?? null
}

export type NewOrder = {
  idempotencyKey: string
  requestHash: string
  /** The answer, stored with the key so that a retry replays it. */
  created: OrderCreated
  guid: string
  eventSlug: string
  deviceId: string
  orderType: 'Standard' | 'Test'
  email: string
  firstName: string
  lastName: string
  phoneNumber: string
  willReceiveMarketing: boolean
  executionContentKey: string
  contentSource: unknown
  locale: string
  promoCode: string | null
  slotNumbers: readonly number[]
  valueCentsPerSlot: number
  subtotalCents: number
  discountCents: number
  totalCents: number
  currency: string
  /** The checkout the order pays with; null for a free order. */
  checkoutSecretKey: string | null
  /** spec §3 consents, stored with the time they were given. */
  agreements: Record<string, boolean>
  agreementsAcceptedAt: string
  requestBody: unknown
  /** A once-per-customer code and the (normalised) e-mail that redeems it. */
  redemption: { promoCode: string; email: string } | null
  /** The placing instance holds the new order's processing under its lease. */
  lease: LeaseSettings
}

/** The shared limiter's count of the order's write, taken in the order's own statement. */
export type WriteHit = { statement: Sql<HitRow>; limit: number }

/**
 * Writes an order and everything it holds in one statement, which is one transaction: either all of
 * it is written, or (on any unique key) nothing is. Throws the database's unique violation, named by
 * its constraint (platform/db/errors.ts: uniqueViolation). With a hit, the client's write count is
 * taken in the same statement (one commit), and the order is written only within the limit: the
 * answer says whether it was, and what the count became.
 */
export async function insertOrder(
  db: Queryable,
  order: NewOrder,
  hit: WriteHit | null,
): Promise<{ written: boolean; contentHeld: boolean; hit: HitRow | undefined }> {
  const at = order.agreementsAcceptedAt
  const key = sql`${order.idempotencyKey}, ${order.requestHash}, 201, ${json(order.created)}::jsonb`
  const [row] = await db.query(sql<{ guid: string | null; contentHeld: boolean } & Partial<HitRow>>`
    with ${hit ? sql`lim as (${hit.statement}),` : sql``} c as (
      ${contentHeldForOrder(sql`${order.executionContentKey}`)}
    ), k as (
      insert into idempotency_keys (key, request_hash, status_code, response_body)
      ${
        hit
          ? sql`select ${key} from lim where lim.hits <= ${hit.limit}::int and exists (select 1 from c)`
          : sql`select ${key} where exists (select 1 from c)`
      }
      returning key
    ), o as (
      insert into orders (guid, event_slug, device_id, state, order_type, email, first_name,
        last_name, phone_number, will_receive_marketing, execution_content_key, content_source,
        locale, promo_code, slot_numbers, slot_count, value_cents_per_slot, subtotal_cents,
        discount_cents, total_cents, currency, checkout_secret_key, agreements,
        agreements_accepted_at, request_body, created_at, updated_at, lease_owner,
        lease_expires_at)
      select ${order.guid}, ${order.eventSlug}, ${order.deviceId}, 'Processing', ${order.orderType},
        ${order.email}, ${order.firstName}, ${order.lastName}, ${order.phoneNumber},
        ${order.willReceiveMarketing}::boolean, ${order.executionContentKey},
        ${json(order.contentSource)}, ${order.locale}, ${order.promoCode}::text,
        ${order.slotNumbers}::int[], ${order.slotNumbers.length}::int,
        ${order.valueCentsPerSlot}::int, ${order.subtotalCents}::int, ${order.discountCents}::int,
        ${order.totalCents}::int, ${order.currency}, ${order.checkoutSecretKey}::text,
        ${json(order.agreements)}::jsonb, ${at}::timestamptz, ${json(order.requestBody)}::jsonb,
        ${at}::timestamptz, ${at}::timestamptz, ${order.lease.owner}, ${leaseEnd(order.lease)}
      from k
      returning guid, event_slug, device_id, slot_numbers, checkout_secret_key
    ), r as (
      insert into slot_reservations (event_slug, device_id, slot_number, order_guid)
      select o.event_slug, o.device_id, s, o.guid from o, unnest(o.slot_numbers) as s
    ), b as (
      insert into checkout_bindings (checkout_secret_key, order_guid)
      select o.checkout_secret_key, o.guid from o where o.checkout_secret_key is not null
    ), pr as (
      insert into promo_redemptions (promo_code, email, order_guid)
      select ${order.redemption?.promoCode ?? null}::text, ${order.redemption?.email ?? null}::text,
        o.guid
      from o where ${order.redemption?.promoCode ?? null}::text is not null
    ), h as (
      -- Every state an order takes is in its history, written with the change itself
      insert into order_state_history (order_guid, state, at, actor)
      select o.guid, 'Processing', ${at}::timestamptz, 'shopper' from o
    )
    select (select guid from o) as guid, exists (select 1 from c) as "contentHeld"
      ${hit ? sql`, lim.hits, lim."windowEndsMs" from lim` : sql``}`)
  const counted =
    hit && row?.hits !== undefined && row.windowEndsMs !== undefined
      ? { hits: row.hits, windowEndsMs: row.windowEndsMs }
      : undefined
  return { written: Boolean(row?.guid), contentHeld: row?.contentHeld ?? false, hit: counted }
}

/** Which of these slots of the billboard are reserved now, in order. */
export async function reservedSlots(
  db: Queryable,
  eventSlug: string,
  deviceId: string,
  slotNumbers: readonly number[],
): Promise<number[]> {
  const rows = await db.query(sql<{ slotNumber: number }>`
    select ${SLOT_RESERVATIONS.select({ fields: ['slotNumber'] })} from slot_reservations
    where event_slug = ${eventSlug} and device_id = ${deviceId}
      and slot_number = any(${slotNumbers}::int[])
    order by slot_number`)
  return rows.map((r) => r.slotNumber)
}

// ---------- processing ----------

export type OrderToProcess = {
  guid: string
  eventSlug: string
  deviceId: string
  state: OrderState
  totalCents: number
  currency: string
  content: OrderContent | null
  setup: PaymentSetupRecord | null
  slotNumbers: number[]
}

export async function orderToProcess(db: Queryable, guid: string): Promise<OrderToProcess | null> {
  const [row] = await db.query(sql<OrderToProcess>`
    select ${ORDERS.select({ from: 'o', fields: ['guid', 'eventSlug', 'deviceId', 'state', 'totalCents', 'currency', 'slotNumbers'] })},
      ${orderContentOf(sql`o.execution_content_key`)} as content,
      ${checkoutCard(sql`o.checkout_secret_key`)} as setup
    from orders o where o.guid = ${guid}`)
  return row ?? null
}

// ---------- leases ----------
// An order in Processing is processed by the instance that holds its lease (platform/lease.ts). The
// placing instance holds it from the start; an order whose instance died (its lease ended, or none was
// ever taken: orders from before leases, or handed back at shutdown) is claimed by the first live
// instance that looks. The charge is keyed by the order (payment/), so a takeover charges at most once.

const claimable = sql`state = 'Processing' and (lease_expires_at is null or lease_expires_at < now())`

/**
 * Claims up to `limit` orders left Processing by an instance that is gone, oldest first; two instances
 * looking at once get different orders (SKIP LOCKED).
 */
export async function claimAbandonedOrders(
  db: Queryable,
  lease: LeaseSettings,
  limit: number,
): Promise<string[]> {
  const rows = await db.query(sql<{ guid: string }>`
    update orders set lease_owner = ${lease.owner}, lease_expires_at = ${leaseEnd(lease)}
    where guid in (select guid from orders where ${claimable} order by created_at limit ${limit}::int
      for update skip locked)
    returning guid`)
  return rows.map((r) => r.guid)
}

/**
 * Takes (or renews) this instance's lease on one order in Processing: false when another live
 * instance holds it, or it is no longer Processing.
 */
export async function claimOrder(
  db: Queryable,
  guid: string,
  lease: LeaseSettings,
): Promise<boolean> {
  const rows = await db.query(sql`
    update orders set lease_owner = ${lease.owner}, lease_expires_at = ${leaseEnd(lease)}
    where guid = ${guid} and state = 'Processing'
      and (lease_owner = ${lease.owner} or lease_expires_at is null or lease_expires_at < now())
    returning guid`)
  return rows.length > 0
}

/** Renews this instance's lease on an order it processes; false when it was lost. */
export async function renewOrderLease(
  db: Queryable,
  guid: string,
  lease: LeaseSettings,
): Promise<boolean> {
  const rows = await db.query(sql`
    update orders set lease_expires_at = ${leaseEnd(lease)}
    where guid = ${guid} and state = 'Processing' and lease_owner = ${lease.owner}
    returning guid`)
  return rows.length > 0
}

/** A shutdown hands back the orders it still holds: another instance may claim them at once. */
export async function releaseOrderLeases(db: Queryable, owner: string): Promise<void> {
  await db.query(sql`
    update orders set lease_owner = null, lease_expires_at = null
    where state = 'Processing' and lease_owner = ${owner}`)
}

/**
 * Ends every Processing order's lease. Only for the embedded database, which one process opens at a
 * time: whatever it finds held was held by a process that is gone.
 */
export async function expireOrderLeases(db: Queryable): Promise<void> {
  await db.query(sql`update orders set lease_expires_at = null where state = 'Processing'`)
}

/**
 * The one statement that takes an order off sale (Failed; Cancelled): `change`
 * updates the order and returns its guid (nothing when another instance or operator changed it
 * first: then nothing else happens), its slots and a once-per-customer code are free again, and
 * `history` (selecting from `u`, the changed order) writes its history row. One statement, so it is
 * atomic without a transaction. Answers the guid of the order changed, if any.
 */
export function offSaleStatement(
  change: Sql,
  history: Sql,
  /** More CTEs of the same statement (`, name as (...)`), reading `u` as they need. */
  also: Sql = sql``,
): Sql<{ guid: string }> {
  return sql<{ guid: string }>`
    with u as (
      ${change}
    ), r as (
      delete from slot_reservations where order_guid in (select guid from u)
    ), p as (
      delete from promo_redemptions where order_guid in (select guid from u)
    ), h as (${history})${also}
    select guid from u`
}

// ---------- an operator's changes (review, cancel) ----------

export type Actor = { kind: 'operator'; operatorId: string } | { kind: 'system' }

const actorColumns = (actor: Actor) =>
  actor.kind === 'operator' ? sql`'operator', ${actor.operatorId}::text` : sql`'system', null::text`

/** An order locked for a change: its state, its billboard, and what a refund needs. */
export type LockedOrder = {
  guid: string
  state: OrderState
  eventSlug: string
  deviceId: string
  totalCents: number
  currency: string
  paymentId: string | null
  /** The provider of the card it paid with (payment/reads.ts), null for a free order. */
  provider: string | null
}

/** The order, locked for this transaction (the change below is decided on what it reads). */
export async function lockOrder(db: Queryable, guid: string): Promise<LockedOrder | null> {
  const [row] = await db.query(sql<LockedOrder>`
    select ${ORDERS.select({ from: 'o', fields: ['guid', 'state', 'eventSlug', 'deviceId', 'totalCents', 'currency', 'paymentId'] })},
      ${checkoutProvider(sql`o.checkout_secret_key`)} as provider
    from orders o where o.guid = ${guid} for update of o`)
  return row ?? null
}

/** UnderReview → Confirmed with its history row, in one statement; false when not UnderReview. */
export async function approveOrder(db: Queryable, guid: string, actor: Actor): Promise<boolean> {
  const rows = await db.query(sql`
    with u as (
      update orders set state = 'Confirmed', errors = '[]'::jsonb,
        confirmation_date_epoch_ms = null, updated_at = now()
      where guid = ${guid} and state = 'UnderReview'
      returning guid
    ), h as (
      insert into order_state_history (order_guid, state, actor, operator_id)
      select guid, 'Confirmed', ${actorColumns(actor)} from u
    )
    select guid from u`)
  return rows.length > 0
}

/**
 * → Cancelled with the reason (the shopper sees it in `errors`): its slots and a once-per-customer
 * code are free again, and the history row is written, in one statement; only from `fromState`, so
 * a change made meanwhile by another instance or operator wins and this one does nothing.
 */
export async function cancelOrder(
  db: Queryable,
  guid: string,
  fromState: OrderState,
  reason: ProblemData,
  actor: Actor,
): Promise<boolean> {
  const rows = await db.query(
    offSaleStatement(
      sql`update orders set state = 'Cancelled', errors = ${json([reason])}::jsonb,
        updated_at = now()
      where guid = ${guid} and state = ${fromState}
      returning guid`,
      sql`insert into order_state_history (order_guid, state, actor, operator_id, reason)
      select guid, 'Cancelled', ${actorColumns(actor)}, ${json(reason)}::jsonb from u`,
    ),
  )
  return rows.length > 0
}

// ---------- reading ----------

const ORDER_ROW_FIELDS = [
  'guid',
  'eventSlug',
  'deviceId',
  'state',
  'errors',
  'confirmationDateEpochMs',
  'executionContentKey',
  'slotNumbers',
  'currency',
  'subtotalCents',
  'discountCents',
  'totalCents',
  'promoCode',
  'locale',
] as const satisfies readonly (keyof OrderColumns)[]

export type OrderRow = Pick<OrderColumns, (typeof ORDER_ROW_FIELDS)[number]>

/** An order of the event (null when the guid is unknown or of another event). */
export async function orderOfEvent(
  db: Queryable,
  eventSlug: string,
  guid: string,
): Promise<OrderRow | null> {
  const [row] = await db.query(sql<OrderRow>`
    select ${ORDERS.select({ fields: ORDER_ROW_FIELDS })}
    from orders where guid = ${guid} and event_slug = ${eventSlug}`)
  return row ?? null
}
