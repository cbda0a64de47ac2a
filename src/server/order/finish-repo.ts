import type { OrderState } from '../../contract/index.ts'
import type { ProblemData } from '../../domain/problems.ts'
import { orderPaymentAction } from '../payment/reads.ts'
import {
  type ChargeRecord,
  chargeRecordWrite,
  paymentActionDone,
  paymentActionWrite,
} from '../payment/writes.ts'
import type { Queryable } from '../platform/db/client.ts'
import { json, sql } from '../platform/db/sql.ts'
import { ORDERS } from './columns.ts'
import { offSaleStatement } from './repo.ts'

// An order's outcome: Processing → Confirmed, UnderReview, Failed, or AwaitingAuthentication while
// its charge waits for the cardholder; then AwaitingAuthentication → Confirmed, UnderReview or
// Failed once the bank answered or the wait ended. Each is one statement with its history row and the
// payment module's writes (the charge's record, the waiting charge's secret), so a crash leaves all
// or nothing.

export type Finish = {
  state: Exclude<OrderState, 'Processing'>
  /** why it failed: problems, stored as {code, params} (never English) */
  errors: ProblemData[]
  paymentId: string | null
  confirmationDateEpochMs: number | null
  /** AwaitingAuthentication: the charge that waits for the cardholder, and until when. */
  waiting?: {
    provider: string
    paymentId: string
    clientSecret: string
    untilEpochMs: number
  } | null
}

/**
 * Who writes the outcome: the instance that holds a Processing order's lease (one that stalled past
 * its lease leaves it to the instance that took over), or whoever settles an order waiting for the
 * cardholder first (the app after the bank's answer, the timeout job): the others change nothing.
 */
export type FinishFrom =
  | { state: 'Processing'; owner: string }
  | { state: 'AwaitingAuthentication' }

/**
 * The order's outcome, with the charge's record when the provider keeps none itself (the local
 * provider's, payment/writes.ts): one statement, so the outcome and the record are one commit. A
 * failed order frees its slots (and a once-per-customer code); a waiting one keeps them. Answers
 * whether this call wrote it.
 */
export async function finishOrder(
  db: Queryable,
  guid: string,
  from: FinishFrom,
  finish: Finish,
  record: ChargeRecord | null = null,
): Promise<boolean> {
  const charge = record ? chargeRecordWrite(record, sql`u`) : null
  const paymentId = charge ? charge.paymentId : sql`coalesce(${finish.paymentId}::text, payment_id)`
  const waiting = finish.state === 'AwaitingAuthentication' ? (finish.waiting ?? null) : null
  const set = sql`state = ${finish.state}, errors = ${json(finish.errors)}::jsonb,
    payment_id = ${paymentId},
    confirmation_date_epoch_ms = ${finish.confirmationDateEpochMs}::bigint, updated_at = now(),
    authentication_until_epoch_ms = ${waiting?.untilEpochMs ?? null}::bigint,
    lease_owner = null, lease_expires_at = null`
  const mine =
    from.state === 'Processing'
      ? sql`guid = ${guid} and state = 'Processing' and lease_owner = ${from.owner}`
      : sql`guid = ${guid} and state = 'AwaitingAuthentication'`
  // The new state joins the order's history in the same statement, as do the payment's writes.
  const history = sql`insert into order_state_history (order_guid, state, actor, reason)
    select guid, ${finish.state}, 'system', ${finish.errors[0] ? json(finish.errors[0]) : null}::jsonb from u`
  const writes = [
    charge ? sql`, c as (${charge.insert})` : sql``,
    waiting ? sql`, a as (${paymentActionWrite({ orderGuid: guid, ...waiting }, sql`u`)})` : sql``,
    from.state === 'AwaitingAuthentication'
      ? sql`, d as (${paymentActionDone(guid, sql`u`)})`
      : sql``,
  ]
  const also = sql`${writes[0]}${writes[1]}${writes[2]}`
  const change = sql`update orders set ${set} where ${mine} returning guid`
  if (finish.state !== 'Failed') {
    const rows = await db.query(sql<{ guid: string }>`
      with u as (${change}), h as (${history})${also}
      select guid from u`)
    return rows.length > 0
  }
  // A failed order frees its slots (and a once-per-customer code) for others.
  const rows = await db.query(offSaleStatement(change, history, also))
  return rows.length > 0
}

/** An order waiting for the cardholder, with what settling it needs. */
export type WaitingOrder = {
  guid: string
  eventSlug: string
  deviceId: string
  state: OrderState
  paymentId: string | null
  authenticationUntilEpochMs: number | null
  action: { provider: string; paymentId: string; clientSecret: string } | null
}

const WAITING_FIELDS = [
  'guid',
  'eventSlug',
  'deviceId',
  'state',
  'paymentId',
  'authenticationUntilEpochMs',
] as const

export async function waitingOrder(db: Queryable, guid: string): Promise<WaitingOrder | null> {
  const [row] = await db.query(sql<WaitingOrder>`
    select ${ORDERS.select({ from: 'o', fields: WAITING_FIELDS })},
      ${orderPaymentAction(sql`o.guid`)} as action
    from orders o where o.guid = ${guid}`)
  return row ?? null
}

/** Orders whose wait for the cardholder ended by `nowEpochMs`, oldest first. */
export async function waitsEnded(
  db: Queryable,
  nowEpochMs: number,
  limit: number,
): Promise<string[]> {
  const rows = await db.query(sql<{ guid: string }>`
    select guid from orders
    where state = 'AwaitingAuthentication' and authentication_until_epoch_ms <= ${nowEpochMs}::bigint
    order by authentication_until_epoch_ms limit ${limit}::int`)
  return rows.map((r) => r.guid)
}
