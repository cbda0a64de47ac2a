import type { ProblemData } from '../../domain/problems.ts'
import type { Queryable } from '../platform/db/client.ts'
import { at, json, sql } from '../platform/db/sql.ts'
import { REFUNDS } from './columns.ts'

// The payment module's record of Stripe's events (migration 0026): payment_webhook_events (each
// event id once), payment_disputes (one row per Stripe Dispute), and what a refund's events change
// on its refunds row (provider_status, and the shop's status when the refund failed or went through).

export async function webhookEventSeen(db: Queryable, eventId: string): Promise<boolean> {
  const rows = await db.query(sql`
    select 1 from payment_webhook_events where event_id = ${eventId}`)
  return rows.length > 0
}

/** Writes an event's id; false when it was written already (the event was handled before). */
export async function recordWebhookEvent(
  db: Queryable,
  event: { eventId: string; type: string; objectId: string | null; receivedAtMs: number },
): Promise<boolean> {
  const rows = await db.query(sql`
    insert into payment_webhook_events (event_id, type, object_id, received_at)
    values (${event.eventId}, ${event.type}, ${event.objectId},
      ${at(event.receivedAtMs)})
    on conflict (event_id) do nothing
    returning event_id`)
  return rows.length === 1
}

/** Forgets event ids older than `olderThanMs`: Stripe stops delivering an event after 3 days. */
export async function deleteOldWebhookEvents(
  db: Queryable,
  nowMs: number,
  olderThanMs: number,
): Promise<number> {
  const rows = await db.query(sql`
    delete from payment_webhook_events
    where received_at < ${at(nowMs - olderThanMs)}
    returning event_id`)
  return rows.length
}

/** Stripe's statuses of a refund that will not give the money back. */
const REFUND_GONE = ['failed', 'canceled']

/**
 * What Stripe said of a refund: its Refund object (by its id, or the order and PaymentIntent the
 * refund was made for), or a charge refunded up to an amount. Failed and canceled are final: a later
 * event of the same refund changes nothing. Answers the order whose refund changed, or null.
 */
export async function refundNews(
  db: Queryable,
  news:
    | {
        id: string
        status: string
        paymentIntent: string | null
        orderGuid: string | null
        /** the refund's idempotency key, as the shop put it in the refund's metadata */
        refundKey: string | null
        failureReason: string | null
      }
    | { paymentIntent: string; refundedCents: number },
  nowMs: number,
): Promise<{ orderGuid: string } | null> {
  const now = at(nowMs)
  if (!('id' in news)) {
    // the charge shows the money back: the refunds still pending here (their answer lost, or made
    // in Stripe's dashboard) went through, once it shows all that the charge's refunds owe
    const [row] = await db.query(sql<{ orderGuid: string }>`
      update refunds set status = 'succeeded', error = null,
        provider_status = coalesce(provider_status, 'succeeded'), completed_at = ${now}
      where payment_id = ${news.paymentIntent} and status = 'pending'
        and (select sum(x.amount_cents) from refunds x
          where x.payment_id = ${news.paymentIntent} and x.status <> 'failed')
          <= ${news.refundedCents}::int
      returning ${REFUNDS.select({ fields: ['orderGuid'] })}`)
    return row ?? null
  }
  const gone = REFUND_GONE.includes(news.status)
  const problem: ProblemData | null = gone
    ? { code: 'refund_failed', params: { reason: news.failureReason ?? news.status } }
    : null
  const shopStatus = gone ? 'failed' : news.status === 'succeeded' ? 'succeeded' : null
  const [row] = await db.query(sql<{ orderGuid: string }>`
    update refunds set provider_status = ${news.status},
      provider_refund_id = coalesce(provider_refund_id, ${news.id}),
      status = coalesce(${shopStatus}::text, status),
      error = case when ${shopStatus}::text = 'failed' then ${problem ? json(problem) : null}::jsonb
        when ${shopStatus}::text = 'succeeded' then null else error end,
      completed_at = case when ${shopStatus}::text is null then completed_at
        when ${shopStatus}::text = 'failed' then ${now}
        else coalesce(completed_at, ${now}) end
    where (provider_refund_id = ${news.id}
        or (provider_refund_id is null and order_guid = ${news.orderGuid}::text
          and payment_id = ${news.paymentIntent}::text
          and idempotency_key = coalesce(${news.refundKey}::text, idempotency_key)))
      and coalesce(provider_status, '') not in ('failed', 'canceled')
    returning ${REFUNDS.select({ fields: ['orderGuid'] })}`)
  return row ?? null
}

export type DisputeRow = {
  disputeId: string
  paymentId: string
  orderGuid: string | null
  amountCents: number
  currency: string
  reason: string
  status: string
  evidenceDueEpochMs: number | null
  openedAtEpochMs: number
  closedAtEpochMs: number | null
}

export async function disputeById(db: Queryable, disputeId: string): Promise<boolean> {
  const rows = await db.query(sql`
    select 1 from payment_disputes where dispute_id = ${disputeId}`)
  return rows.length > 0
}

/**
 * A dispute as its latest event tells it. Once closed (won, lost), an event that arrives late with
 * an older status changes nothing.
 */
export async function upsertDispute(db: Queryable, d: DisputeRow, nowMs: number): Promise<void> {
  await db.query(sql`
    insert into payment_disputes (dispute_id, payment_id, order_guid, amount_cents, currency, reason,
      status, evidence_due_at, opened_at, updated_at, closed_at)
    values (${d.disputeId}, ${d.paymentId}, ${d.orderGuid}, ${d.amountCents}::int, ${d.currency},
      ${d.reason}, ${d.status},
      ${at(d.evidenceDueEpochMs)},
      ${at(d.openedAtEpochMs)}, ${at(nowMs)},
      ${at(d.closedAtEpochMs)})
    on conflict (dispute_id) do update set status = excluded.status,
      amount_cents = excluded.amount_cents, reason = excluded.reason,
      evidence_due_at = coalesce(excluded.evidence_due_at, payment_disputes.evidence_due_at),
      order_guid = coalesce(payment_disputes.order_guid, excluded.order_guid),
      updated_at = excluded.updated_at,
      closed_at = coalesce(payment_disputes.closed_at, excluded.closed_at)
    where payment_disputes.closed_at is null or excluded.closed_at is not null`)
}
