import type { ProblemData } from '../../domain/problems.ts'
import { refundedCents, refundOpen } from '../payment/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { type Sql, sql } from '../platform/db/sql.ts'
import { ORDERS } from './columns.ts'

// The orders owed a mail, as the mail planner (mail/) reads them: by their state and its history
// (order_state_history, migration 0007), their refund (payment/reads.ts), their event's end (the
// catalogue's condition, handed in), and whether the mail was made already (the mail module's `mailed`,
// handed in: the outbox is the mail module's). One statement each, so that a batch is the orders
// still owed a mail, never a page of orders already mailed.

/** The kinds of mail an order's state owes (mail/messages.ts has the others: reminder, played). */
export type StateMailKind =
  | 'under_review'
  | 'confirmed'
  | 'approved'
  | 'cancelled'
  | 'payment_failed'

export type StateMailCandidate = {
  guid: string
  eventSlug: string
  kind: StateMailKind
  /** cancelled: the reason given (the state history's, else the order's first error); payment_failed: why. */
  reason: ProblemData | null
  /** cancelled: what the refund gave back (0 when nothing was owed). */
  refundedCents: number
}

/** A condition on the order `o` (its guid is `o.guid`): a mail of this kind was made for it. */
export type Mailed = (kind: string) => Sql

const wasUnderReview = sql`exists (select 1 from order_state_history h
  where h.order_guid = o.guid and h.state = 'UnderReview')`

/** Only transitions of the last two days make a mail: older ones (a first deploy) are past news. */
const recently = (state: string) => sql`exists (select 1 from order_state_history h
  where h.order_guid = o.guid and h.state = ${state} and h.at > now() - interval '2 days')`

/**
 * Orders owed a mail by their state and its history: under review; confirmed without review;
 * approved (UnderReview, then Confirmed); cancelled, once its refund is done (the mail says how much
 * came back). The time-bound mails (reminder, played) are chosen from `timedMailCandidates`.
 */
export function stateMailCandidates(
  db: Queryable,
  mailed: Mailed,
  limit: number,
): Promise<StateMailCandidate[]> {
  const noMail = (kind: StateMailKind) => sql`not ${mailed(kind)}`
  return db.query(sql<StateMailCandidate>`
    select guid, event_slug as "eventSlug", 'under_review' as kind, null::jsonb as reason,
      0 as "refundedCents"
    from orders o
    where ${wasUnderReview} and ${recently('UnderReview')} and ${noMail('under_review')}
    union all
    select guid, event_slug, 'confirmed', null, 0 from orders o
    where o.state = 'Confirmed' and not ${wasUnderReview} and ${recently('Confirmed')}
      and ${noMail('confirmed')}
    union all
    select guid, event_slug, 'approved', null, 0 from orders o
    where o.state = 'Confirmed' and ${recently('Confirmed')} and exists (
        select 1 from order_state_history r join order_state_history c
          on c.order_guid = r.order_guid and c.state = 'Confirmed' and c.id > r.id
        where r.order_guid = o.guid and r.state = 'UnderReview')
      and ${noMail('approved')}
    union all
    select guid, event_slug, 'cancelled',
      coalesce(
        (select h.reason from order_state_history h
          where h.order_guid = o.guid and h.state = 'Cancelled' order by h.id desc limit 1),
        o.errors -> 0),
      ${refundedCents(sql`o.guid`)}
    from orders o
    where o.state = 'Cancelled' and ${recently('Cancelled')} and ${noMail('cancelled')}
      and not ${refundOpen(sql`o.guid`)}
    union all
    select guid, event_slug, 'payment_failed', o.errors -> 0, 0 from orders o
    where o.state = 'Failed' and ${recently('Failed')} and exists (select 1 from order_state_history w
        where w.order_guid = o.guid and w.state = 'AwaitingAuthentication')
      and ${noMail('payment_failed')}
    limit ${limit}`)
}

export type TimedMailCandidate = {
  guid: string
  eventSlug: string
  deviceId: string
  slotNumbers: number[]
  hasReminder: boolean
}

/**
 * Confirmed orders without a "played" mail, with what the domain needs to place their plays. Only
 * orders of events that ended less than two days ago or later (`recentEvent`, the catalogue's
 * condition on `o.event_slug`): older ones' mails were due long ago.
 */
export function timedMailCandidates(
  db: Queryable,
  mailed: Mailed,
  recentEvent: (eventSlug: Sql) => Sql,
  limit: number,
): Promise<TimedMailCandidate[]> {
  return db.query(sql<TimedMailCandidate>`
    select ${ORDERS.select({ from: 'o', fields: ['guid', 'eventSlug', 'deviceId', 'slotNumbers'] })},
      ${mailed('reminder')} as "hasReminder"
    from orders o
    where o.state = 'Confirmed' and not ${mailed('played')}
      and ${recentEvent(sql`o.event_slug`)}
    order by o.created_at
    limit ${limit}`)
}

export type OrderContact = { email: string; firstName: string }

export async function orderContact(db: Queryable, guid: string): Promise<OrderContact | null> {
  const [row] = await db.query(sql<OrderContact>`
    select ${ORDERS.select({ fields: ['email', 'firstName'] })} from orders
    where guid = ${guid} and personal_data_erased_at is null`)
  return row ?? null
}
