import type { OrderPlay, OrderState, OrderStateChange } from '../../contract/index.ts'
import type { ProblemData } from '../../domain/problems.ts'
import { offSaleStatement } from '../order/repo.ts'
import type { Queryable } from '../platform/db/client.ts'
import { json, type Sql, sql } from '../platform/db/sql.ts'

// What operators read and change about orders: the orders with everything around them
// (content and its moderation findings, card, payment, refund, state history, proof of play), the
// transitions an operator or the sweep makes (UnderReview → Confirmed, any → Cancelled), and the
// refunds table (migration 0007). Reads orders, generated_content, content_uploads, payment_setups,
// plays (owned by order/, content/, payment/, player/); writes orders, slot_reservations,
// promo_redemptions (through order/repo.ts's offSaleStatement), order_state_history and refunds.

export type RefundRow = {
  orderGuid: string
  provider: string
  paymentId: string
  amountCents: number
  currency: string
  idempotencyKey: string
  status: 'pending' | 'succeeded' | 'failed'
  /** the last failed attempt's problem (refund_failed: the provider's words) */
  error: ProblemData | null
  attempts: number
  createdAtEpochMs: number
  completedAtEpochMs: number | null
}

export type OpsOrderRow = {
  guid: string
  eventSlug: string
  deviceId: string
  state: OrderState
  errors: ProblemData[]
  confirmationDateEpochMs: number | null
  slotNumbers: number[]
  currency: string
  subtotalCents: number
  discountCents: number
  totalCents: number
  promoCode: string | null
  locale: string
  orderType: string
  email: string
  firstName: string
  lastName: string
  phoneNumber: string
  willReceiveMarketing: boolean
  createdAtEpochMs: number
  paymentId: string | null
  contentUrl: string | null
  contentType: 'photo' | 'video' | null
  contentFileName: string | null
  flagged: boolean
  flagReasons: string[]
  uploadFlagReasons: string[]
  texts: { buyerName?: string; recipientName?: string; multilineMessage?: string } | null
  provider: string | null
  cardBrand: string | null
  cardLast4: string | null
  refund: RefundRow | null
  history: OrderStateChange[]
  plays: OrderPlay[]
}

const epochMs = (column: Sql) => sql`(extract(epoch from ${column}) * 1000)::float8`

const REFUND_JSON = sql`json_build_object('orderGuid', r.order_guid, 'provider', r.provider,
  'paymentId', r.payment_id, 'amountCents', r.amount_cents, 'currency', r.currency,
  'idempotencyKey', r.idempotency_key, 'status', r.status, 'error', r.error,
  'attempts', r.attempts, 'createdAtEpochMs', round(${epochMs(sql`r.created_at`)}),
  'completedAtEpochMs', round(${epochMs(sql`r.completed_at`)}))`

const SELECT_OPS_ORDER = sql`
  select o.guid, o.event_slug as "eventSlug", o.device_id as "deviceId", o.state, o.errors,
    o.confirmation_date_epoch_ms::float8 as "confirmationDateEpochMs",
    o.slot_numbers as "slotNumbers", o.currency, o.subtotal_cents as "subtotalCents",
    o.discount_cents as "discountCents", o.total_cents as "totalCents",
    o.promo_code as "promoCode", o.locale, o.order_type as "orderType", o.email,
    o.first_name as "firstName", o.last_name as "lastName", o.phone_number as "phoneNumber",
    o.will_receive_marketing as "willReceiveMarketing",
    round(${epochMs(sql`o.created_at`)}) as "createdAtEpochMs", o.payment_id as "paymentId",
    g.url as "contentUrl", g.type as "contentType", g.file_name as "contentFileName",
    coalesce(g.flagged, false) as flagged,
    coalesce(g.flag_reasons, '[]'::jsonb) as "flagReasons",
    coalesce(u.flag_reasons, '[]'::jsonb) as "uploadFlagReasons", g.request as texts,
    ps.provider, ps.card_brand as "cardBrand", ps.card_last4 as "cardLast4",
    (select ${REFUND_JSON} from refunds r where r.order_guid = o.guid) as refund,
    coalesce((select json_agg(json_build_object('state', h.state,
        'atEpochMs', round(${epochMs(sql`h.at`)}), 'actor', h.actor,
        'operatorEmail', op.email, 'reason', h.reason) order by h.id)
      from order_state_history h left join operators op on op.id = h.operator_id
      where h.order_guid = o.guid), '[]'::json) as history,
    coalesce((select json_agg(json_build_object('slotNumber', p.slot_number,
        'playIndex', p.play_index, 'startedAtEpochMs', p.started_at_epoch_ms,
        'endedAtEpochMs', p.ended_at_epoch_ms)
        order by p.started_at_epoch_ms, p.slot_number, p.play_index)
      from plays p where p.order_guid = o.guid), '[]'::json) as plays
  from orders o
  left join generated_content g on g.key = o.execution_content_key
  left join content_uploads u on u.id = g.upload_id
  left join payment_setups ps on ps.checkout_secret_key = o.checkout_secret_key`

function normalise(row: OpsOrderRow): OpsOrderRow {
  return {
    ...row,
    createdAtEpochMs: Number(row.createdAtEpochMs),
    confirmationDateEpochMs:
      row.confirmationDateEpochMs === null ? null : Number(row.confirmationDateEpochMs),
    plays: row.plays.map((p) => ({
      ...p,
      startedAtEpochMs: Number(p.startedAtEpochMs),
      endedAtEpochMs: Number(p.endedAtEpochMs),
    })),
  }
}

export async function opsOrder(db: Queryable, guid: string): Promise<OpsOrderRow | null> {
  const [row] = await db.query(sql<OpsOrderRow>`${SELECT_OPS_ORDER} where o.guid = ${guid}`)
  return row ? normalise(row) : null
}

/** Review queue: the orders under review, oldest first. */
export async function ordersUnderReview(db: Queryable, limit = 200): Promise<OpsOrderRow[]> {
  const rows = await db.query(sql<OpsOrderRow>`${SELECT_OPS_ORDER}
    where o.state = 'UnderReview' order by o.created_at, o.guid limit ${limit}::int`)
  return rows.map(normalise)
}

/** The slots (numbers from..untilExclusive) of one billboard of one event that begin on a searched day. */
export type DaySlots = { eventSlug: string; deviceId: string; from: number; untilExclusive: number }

const orderMatch = (text: string) => {
  const code = /^[0-9a-f-]{4,36}$/i.test(text) ? `${text.toLowerCase()}%` : null
  return text === ''
    ? sql`true`
    : sql`(o.guid like ${code}::text or lower(o.email) = lower(${text})
        or o.device_id = ${text})`
}

/** The billboards (event and device) of the orders a text finds: the day search's slot ranges are per billboard. */
export async function billboardsOfOrders(
  db: Queryable,
  text: string,
): Promise<{ eventSlug: string; deviceId: string }[]> {
  return db.query(sql<{ eventSlug: string; deviceId: string }>`
    select distinct o.event_slug as "eventSlug", o.device_id as "deviceId" from orders o
    where ${orderMatch(text)}`)
}

/**
 * Orders found by a confirmation code (the guid's first characters) or a whole guid, an e-mail
 * (case-insensitive), or a billboard's device id; newest first. An empty text finds the newest.
 * With `days`, only the orders with a slot in their billboard's range of the day, found by the
 * database among all orders (not among the newest few).
 */
export async function findOrders(
  db: Queryable,
  text: string,
  limit: number,
  days?: readonly DaySlots[],
): Promise<OpsOrderRow[]> {
  const onDay = days
    ? sql`and exists (
        select 1 from unnest(${days.map((d) => d.eventSlug)}::text[], ${days.map((d) => d.deviceId)}::text[],
          ${days.map((d) => d.from)}::int[], ${days.map((d) => d.untilExclusive)}::int[])
          as d(event_slug, device_id, first_slot, end_slot)
        where d.event_slug = o.event_slug and d.device_id = o.device_id
          and exists (select 1 from unnest(o.slot_numbers) as n
            where n >= d.first_slot and n < d.end_slot))`
    : sql``
  const rows = await db.query(sql<OpsOrderRow>`${SELECT_OPS_ORDER}
    where ${orderMatch(text)} ${onDay} order by o.created_at desc, o.guid limit ${limit}::int`)
  return rows.map(normalise)
}

/** The orders under review and their slots, for the sweep that cancels those whose time came. */
export async function underReviewSlots(
  db: Queryable,
): Promise<{ guid: string; eventSlug: string; deviceId: string; slotNumbers: number[] }[]> {
  return db.query(sql<{ guid: string; eventSlug: string; deviceId: string; slotNumbers: number[] }>`
    select guid, event_slug as "eventSlug", device_id as "deviceId", slot_numbers as "slotNumbers"
    from orders where state = 'UnderReview'`)
}

// ---------- transitions ----------

export type Actor = { kind: 'operator'; operatorId: string } | { kind: 'system' }

const actorColumns = (actor: Actor) =>
  actor.kind === 'operator' ? sql`'operator', ${actor.operatorId}::text` : sql`'system', null::text`

/** The order, locked for this transaction (the change below is decided on what it reads). */
export async function lockOrder(
  db: Queryable,
  guid: string,
): Promise<{
  guid: string
  state: OrderState
  eventSlug: string
  deviceId: string
  totalCents: number
  currency: string
  paymentId: string | null
  provider: string | null
} | null> {
  const [row] = await db.query(sql<{
    guid: string
    state: OrderState
    eventSlug: string
    deviceId: string
    totalCents: number
    currency: string
    paymentId: string | null
    provider: string | null
  }>`
    select o.guid, o.state, o.event_slug as "eventSlug", o.device_id as "deviceId",
      o.total_cents as "totalCents", o.currency, o.payment_id as "paymentId",
      (select ps.provider from payment_setups ps
        where ps.checkout_secret_key = o.checkout_secret_key) as provider
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

// ---------- refunds ----------

/** The refund a cancel owes, written pending in the cancel's transaction (once per order). */
export async function insertPendingRefund(
  db: Queryable,
  refund: {
    orderGuid: string
    provider: string
    paymentId: string
    amountCents: number
    currency: string
    idempotencyKey: string
  },
): Promise<void> {
  await db.query(sql`
    insert into refunds (order_guid, provider, payment_id, amount_cents, currency, idempotency_key)
    values (${refund.orderGuid}, ${refund.provider}, ${refund.paymentId}, ${refund.amountCents},
      ${refund.currency}, ${refund.idempotencyKey})
    on conflict (order_guid) do nothing`)
}

export async function pendingRefund(db: Queryable, guid: string): Promise<RefundRow | null> {
  const [row] = await db.query(sql<{ refund: RefundRow }>`
    select ${REFUND_JSON} as refund from refunds r
    where r.order_guid = ${guid} and r.status = 'pending'`)
  return row?.refund ?? null
}

/** Pending refunds older than `olderThanMs` (a cancel's own attempt is left to finish first). */
export async function stalePendingRefunds(
  db: Queryable,
  nowMs: number,
  olderThanMs: number,
): Promise<string[]> {
  const rows = await db.query(sql<{ guid: string }>`
    select order_guid as guid from refunds
    where status = 'pending'
      and created_at < ${new Date(nowMs - olderThanMs).toISOString()}::timestamptz
    order by created_at limit 50`)
  return rows.map((r) => r.guid)
}

export async function markRefunded(
  db: Queryable,
  guid: string,
  providerRefundId: string,
): Promise<void> {
  await db.query(sql`
    update refunds set status = 'succeeded', provider_refund_id = ${providerRefundId},
      error = null, attempts = attempts + 1, completed_at = now()
    where order_guid = ${guid} and status = 'pending'`)
}

/** A failed attempt: kept pending (tried again by the sweep) until `maxAttempts`, then failed. */
export async function markRefundAttemptFailed(
  db: Queryable,
  guid: string,
  error: ProblemData,
  maxAttempts: number,
): Promise<void> {
  await db.query(sql`
    update refunds set error = ${json(error)}::jsonb, attempts = attempts + 1,
      status = case when attempts + 1 >= ${maxAttempts}::int then 'failed' else 'pending' end,
      completed_at = case when attempts + 1 >= ${maxAttempts}::int then now() else null end
    where order_guid = ${guid} and status = 'pending'`)
}
