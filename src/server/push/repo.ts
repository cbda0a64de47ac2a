import type { ProblemData } from '../../domain/problems.ts'
import type { Queryable } from '../platform/db/client.ts'
import { json, sql } from '../platform/db/sql.ts'
import { PUSH_KEYS, SENT_PUSHES, SUBSCRIPTIONS } from './columns.ts'

// All SQL of Web Push (migration 0022): the key pair, the subscriptions, the alerts sent. Only this
// module touches these tables.

export type VapidKeys = { publicKey: string; privateKey: string }

/** The stored key pair, or the one given when none is stored yet (the first instance's wins). */
export async function storedVapidKeys(db: Queryable, made: VapidKeys): Promise<VapidKeys> {
  await db.query(sql`
    insert into push_keys (id, public_key, private_key)
    values (1, ${made.publicKey}, ${made.privateKey})
    on conflict (id) do nothing`)
  const [row] = await db.query(sql<VapidKeys>`
    select ${PUSH_KEYS.select()} from push_keys where id = 1`)
  if (!row) throw new Error('push_keys: the key pair was neither stored nor found')
  return row
}

export type NewSubscription = {
  orderGuid: string
  id: string
  eventSlug: string
  endpoint: string
  p256dh: string
  auth: string
  locale: string
  startsAtEpochMs: number
  endsAtEpochMs: number
}

export type SubscriptionRow = { id: string; locale: string; createdAtEpochMs: number }

const ROW = SUBSCRIPTIONS.select({ fields: ['id', 'locale', 'createdAtEpochMs'] })

/** Adds the browser's subscription to the order, or renews its keys and language (the same id). */
export async function upsertSubscription(
  db: Queryable,
  s: NewSubscription,
): Promise<SubscriptionRow> {
  const [row] = await db.query(sql<SubscriptionRow>`
    insert into push_subscriptions (order_guid, id, event_slug, endpoint, p256dh, auth, locale,
      starts_at_epoch_ms, ends_at_epoch_ms)
    values (${s.orderGuid}, ${s.id}, ${s.eventSlug}, ${s.endpoint}, ${s.p256dh}, ${s.auth},
      ${s.locale}, ${s.startsAtEpochMs}, ${s.endsAtEpochMs})
    on conflict (order_guid, id) do update set endpoint = excluded.endpoint,
      p256dh = excluded.p256dh, auth = excluded.auth, locale = excluded.locale
    returning ${ROW}`)
  if (!row) throw new Error('push_subscriptions: upsert returned nothing')
  return row
}

export function subscriptionsOfOrder(db: Queryable, orderGuid: string): Promise<SubscriptionRow[]> {
  return db.query(sql<SubscriptionRow>`
    select ${ROW} from push_subscriptions where order_guid = ${orderGuid}
    order by created_at, id`)
}

/** True when the order had this subscription. */
export async function deleteSubscription(
  db: Queryable,
  orderGuid: string,
  id: string,
): Promise<boolean> {
  const rows = await db.query(sql`
    delete from push_subscriptions where order_guid = ${orderGuid} and id = ${id} returning id`)
  return rows.length > 0
}

/** A push service said this endpoint is gone (404/410): no order sends to it any more. */
export async function deleteEndpoint(db: Queryable, id: string): Promise<number> {
  const rows = await db.query(sql`delete from push_subscriptions where id = ${id} returning id`)
  return rows.length
}

export async function deleteOrderSubscriptions(db: Queryable, orderGuid: string): Promise<number> {
  const rows = await db.query(sql`
    delete from push_subscriptions where order_guid = ${orderGuid} returning id`)
  return rows.length
}

/** Everything kept of an order's alerts: its browsers' subscriptions and the record of what was sent. */
export async function forgetOrderAlerts(db: Queryable, orderGuid: string): Promise<void> {
  await db.query(sql`delete from push_subscriptions where order_guid = ${orderGuid}`)
  await db.query(sql`delete from sent_pushes where order_guid = ${orderGuid}`)
}

/**
 * Data lifetime: subscriptions whose order has nothing more to tell, and the record of alerts sent
 * once no alert could be due again (an alert is due for at most a slot and an hour).
 */
export async function sweepEnded(db: Queryable, nowEpochMs: number): Promise<void> {
  await db.query(sql`delete from push_subscriptions where ends_at_epoch_ms <= ${nowEpochMs}`)
  await db.query(sql`
    delete from sent_pushes where claimed_at_epoch_ms < ${nowEpochMs - 2 * 86_400_000}`)
}

export type ActiveOrder = { orderGuid: string; eventSlug: string }

/** The orders with a subscription whose alerts may be due now. */
export function activeOrders(
  db: Queryable,
  nowEpochMs: number,
  limit: number,
): Promise<ActiveOrder[]> {
  return db.query(sql<ActiveOrder>`
    select ${SUBSCRIPTIONS.select({ fields: ['orderGuid'] })}, min(event_slug) as "eventSlug"
    from push_subscriptions
    where starts_at_epoch_ms <= ${nowEpochMs} and ends_at_epoch_ms > ${nowEpochMs}
    group by order_guid
    order by min(starts_at_epoch_ms), order_guid
    limit ${limit}`)
}

export type PushTarget = {
  id: string
  endpoint: string
  p256dh: string
  auth: string
  locale: string
}

export function targetsOfOrder(db: Queryable, orderGuid: string): Promise<PushTarget[]> {
  return db.query(sql<PushTarget>`
    select id, endpoint, p256dh, auth, locale from push_subscriptions
    where order_guid = ${orderGuid} order by created_at, id`)
}

/**
 * Claims an alert to a browser before it is sent: true for the one caller that may send it (a new
 * row, or a retry's turn), false when it was sent, is being sent, or failed for good.
 */
export async function claimAlert(
  db: Queryable,
  key: AlertKey,
  maxAttempts: number,
  nowEpochMs: number,
): Promise<boolean> {
  const rows = await db.query(sql`
    insert into sent_pushes (order_guid, subscription_id, alert_key, status, claimed_at_epoch_ms)
    values (${key.orderGuid}, ${key.subscriptionId}, ${key.alertKey}, 'sending', ${nowEpochMs})
    on conflict (order_guid, subscription_id, alert_key) do update
      set status = 'sending', attempts = sent_pushes.attempts + 1
      where sent_pushes.status = 'retry' and sent_pushes.attempts < ${maxAttempts}
    returning alert_key`)
  return rows.length > 0
}

export type AlertKey = { orderGuid: string; subscriptionId: string; alertKey: string }

export async function settleAlert(
  db: Queryable,
  key: AlertKey,
  outcome: { status: 'sent' } | { status: 'retry' | 'failed'; failure: ProblemData },
): Promise<void> {
  const failure = outcome.status === 'sent' ? null : json(outcome.failure)
  await db.query(sql`
    update sent_pushes set status = ${outcome.status}, failure = ${failure}::jsonb,
      sent_at = case when ${outcome.status} = 'sent' then now() else sent_at end
    where order_guid = ${key.orderGuid} and subscription_id = ${key.subscriptionId}
      and alert_key = ${key.alertKey}`)
}

export type SentAlert = { subscriptionId: string; alertKey: string; status: string }

/** What was sent for an order (the console, tests). */
export function alertsOfOrder(db: Queryable, orderGuid: string): Promise<SentAlert[]> {
  return db.query(sql<SentAlert>`
    select ${SENT_PUSHES.select()}
    from sent_pushes where order_guid = ${orderGuid} order by claimed_at_epoch_ms, alert_key`)
}
