import type { MailKind } from '../../contract/mail.ts'
import type { Locale } from '../../domain/locale.ts'
import type { ProblemData } from '../../domain/problems.ts'
import type { Queryable } from '../platform/db/client.ts'
import { json, type Sql, sql } from '../platform/db/sql.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { MailKind as OrderMailKind } from './texts.ts'

// All SQL of the outbox (mail_outbox, migration 0008), and the reads of orders the
// planner needs. The unique (order_guid, kind) makes each mail exist at most once: two instances
// planning the same mail insert one row.

export type MailStatus = 'queued' | 'sent' | 'failed' | 'stored'

export type Attachment = { filename: string; contentType: string; contentBase64: string }

export type NewMail = {
  id: string
  orderGuid: string
  kind: MailKind
  locale: Locale
  to: string
  subject: string
  text: string
  html: string
  attachments: readonly Attachment[]
  messageId: string
  status: 'queued' | 'stored'
}

/**
 * A mail of no order (an advertiser's): its sender's key makes it exist once. `sensitive`: its body
 * holds a one-time link, never shown in the console and blanked once sent.
 */
export type NewNotice = Omit<NewMail, 'orderGuid' | 'attachments'> & {
  key: string
  sensitive: boolean
}

export type OutboxRow = {
  id: string
  orderGuid: string | null
  kind: MailKind
  locale: Locale
  to: string
  subject: string
  status: MailStatus
  attempts: number
  createdAtEpochMs: number
  sentAtEpochMs: number | null
  /** the last failed attempt's problem (mail_send_failed: the mail server's words) */
  error: ProblemData | null
}

export type MailToSend = OutboxRow & {
  text: string
  html: string
  attachments: Attachment[]
  messageId: string
}

const epochMs = (column: Sql) => sql`(extract(epoch from ${column}) * 1000)::float8`

const OUTBOX_COLUMNS = sql`id, order_guid as "orderGuid", kind, locale, to_address as "to", subject,
  status, attempts, ${epochMs(sql`created_at`)} as "createdAtEpochMs",
  ${epochMs(sql`sent_at`)} as "sentAtEpochMs", last_error as "error"`

/** Adds the mail unless this order already has one of this kind; true when this call added it. */
export async function insertMail(db: Queryable, mail: NewMail): Promise<boolean> {
  const rows = await db.query(sql`
    insert into mail_outbox (id, order_guid, kind, locale, to_address, subject, body_text, body_html,
      attachments, message_id, status)
    values (${mail.id}, ${mail.orderGuid}, ${mail.kind}, ${mail.locale}, ${mail.to}, ${mail.subject},
      ${mail.text}, ${mail.html}, ${json(mail.attachments)}::jsonb, ${mail.messageId}, ${mail.status})
    on conflict (order_guid, kind) do nothing
    returning id`)
  return rows.length > 0
}

/** Adds a mail of no order unless its key is in the outbox already; true when this call added it. */
export async function insertNotice(db: Queryable, mail: NewNotice): Promise<boolean> {
  const rows = await db.query(sql`
    insert into mail_outbox (id, mail_key, kind, locale, to_address, subject, body_text, body_html,
      message_id, status, sensitive)
    values (${mail.id}, ${mail.key}, ${mail.kind}, ${mail.locale}, ${mail.to}, ${mail.subject},
      ${mail.text}, ${mail.html}, ${mail.messageId}, ${mail.status}, ${mail.sensitive})
    on conflict (mail_key) do nothing
    returning id`)
  return rows.length > 0
}

/** The newest mails first (api-v1 GET /ops/outbox). */
export function listOutbox(db: Queryable, limit: number): Promise<OutboxRow[]> {
  return db.query(sql<OutboxRow>`
    select ${OUTBOX_COLUMNS} from mail_outbox order by created_at desc, id limit ${limit}`)
}

/** A mail as the console shows it: a sensitive one without its body (its link is a secret). */
export async function outboxMail(db: Queryable, id: string): Promise<MailToSend | null> {
  const [row] = await db.query(sql<MailToSend>`
    select ${OUTBOX_COLUMNS},
      case when sensitive then '' else body_text end as "text",
      case when sensitive then '' else body_html end as "html", attachments,
      message_id as "messageId"
    from mail_outbox where id = ${id}`)
  return row ?? null
}

const leaseEnd = (lease: LeaseSettings) =>
  sql`now() + ${lease.leaseMs}::int * interval '1 millisecond'`

/**
 * Queued mails whose time has come, now this instance's under a lease (one attempt more). A mail whose
 * sender died mid-send is taken again once its lease ended. SKIP LOCKED: two instances never claim the
 * same mail.
 */
export function claimDueMails(
  db: Queryable,
  lease: LeaseSettings,
  limit: number,
): Promise<MailToSend[]> {
  return db.query(sql<MailToSend>`
    update mail_outbox set attempts = attempts + 1,
      lease_owner = ${lease.owner}, lease_expires_at = ${leaseEnd(lease)}
    where id in (
      select id from mail_outbox
      where status = 'queued' and next_attempt_at <= now()
        and (lease_expires_at is null or lease_expires_at < now())
      order by next_attempt_at, id
      limit ${limit}
      for update skip locked)
    returning ${OUTBOX_COLUMNS}, body_text as "text", body_html as "html", attachments,
      message_id as "messageId"`)
}

export async function renewMailLease(
  db: Queryable,
  id: string,
  lease: LeaseSettings,
): Promise<boolean> {
  const rows = await db.query(sql`
    update mail_outbox set lease_expires_at = ${leaseEnd(lease)}
    where id = ${id} and status = 'queued' and lease_owner = ${lease.owner} returning id`)
  return rows.length > 0
}

export async function markSent(db: Queryable, id: string, owner: string): Promise<void> {
  await db.query(sql`
    update mail_outbox set status = 'sent', sent_at = now(), last_error = null,
      lease_owner = null, lease_expires_at = null,
      body_text = case when sensitive then '' else body_text end,
      body_html = case when sensitive then '' else body_html end
    where id = ${id} and lease_owner = ${owner} and status = 'queued'`)
}

/** A failed attempt: tried again after `retryMs`, or given up (failed) when `retryMs` is null. */
export async function markAttemptFailed(
  db: Queryable,
  id: string,
  owner: string,
  error: ProblemData,
  retryMs: number | null,
): Promise<void> {
  await db.query(sql`
    update mail_outbox set last_error = ${json(error)}::jsonb, lease_owner = null, lease_expires_at = null,
      status = ${retryMs === null ? 'failed' : 'queued'},
      next_attempt_at = now() + ${retryMs ?? 0}::int * interval '1 millisecond'
    where id = ${id} and lease_owner = ${owner} and status = 'queued'`)
}

/** At shutdown: mails this instance claimed go back to the queue at once. */
export async function releaseMailLeases(db: Queryable, owner: string): Promise<void> {
  await db.query(sql`
    update mail_outbox set lease_owner = null, lease_expires_at = null
    where lease_owner = ${owner} and status = 'queued'`)
}

// ---------- what the planner reads ----------

export type MailCandidate = {
  guid: string
  eventSlug: string
  kind: OrderMailKind
  /** cancelled: the reason given (the state history's, else the order's first error). */
  reason?: ProblemData | null
  /** cancelled: what the refund gave back (0 when nothing was owed). */
  refundedCents?: number
}

const noMail = (kind: OrderMailKind) =>
  sql`not exists (select 1 from mail_outbox m where m.order_guid = o.guid and m.kind = ${kind})`

const wasUnderReview = sql`exists (select 1 from order_state_history h
  where h.order_guid = o.guid and h.state = 'UnderReview')`

/** Only transitions of the last two days make a mail: older ones (a first deploy) are past news. */
const recently = (state: string) => sql`exists (select 1 from order_state_history h
  where h.order_guid = o.guid and h.state = ${state} and h.at > now() - interval '2 days')`

/**
 * Orders owed a mail by their state and its history (order_state_history, migration 0007): under
 * review; confirmed without review; approved (UnderReview, then Confirmed); cancelled, once its
 * refund is done (the mail says how much came back). The time-bound mails (reminder, played) are
 * chosen by the service from `timedCandidates`.
 */
export function stateCandidates(db: Queryable, limit: number): Promise<MailCandidate[]> {
  return db.query(sql<MailCandidate>`
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
      coalesce((select f.amount_cents from refunds f
        where f.order_guid = o.guid and f.status = 'succeeded'), 0)
    from orders o
    where o.state = 'Cancelled' and ${recently('Cancelled')} and ${noMail('cancelled')}
      and not exists (select 1 from refunds f
        where f.order_guid = o.guid and f.status in ('pending', 'failed'))
    limit ${limit}`)
}

export type TimedCandidate = {
  guid: string
  eventSlug: string
  deviceId: string
  slotNumbers: number[]
  hasReminder: boolean
}

/**
 * Confirmed orders without a "played" mail, with what the domain needs to place their plays. Orders of
 * events that ended more than two days ago are left out: their mails were due long ago.
 */
export function timedCandidates(db: Queryable, limit: number): Promise<TimedCandidate[]> {
  return db.query(sql<TimedCandidate>`
    select o.guid, o.event_slug as "eventSlug", o.device_id as "deviceId",
      o.slot_numbers as "slotNumbers", not ${noMail('reminder')} as "hasReminder"
    from orders o join events e on e.slug = o.event_slug
    where o.state = 'Confirmed' and ${noMail('played')}
      and to_timestamp(e.end_date_hour_local_exclusive, 'YYYY-MM-DD_HH24') > now() - interval '2 days'
    order by o.created_at
    limit ${limit}`)
}

export type OrderContact = { email: string; firstName: string }

export async function orderContact(db: Queryable, guid: string): Promise<OrderContact | null> {
  const [row] = await db.query(sql<OrderContact>`
    select email, first_name as "firstName" from orders
    where guid = ${guid} and personal_data_erased_at is null`)
  return row ?? null
}

/**
 * Forgets what an order's mails say (address, names, message, calendar file): the rows stay, so
 * each mail still exists at most once; one not yet sent never will be.
 */
export async function forgetOrderMail(db: Queryable, guid: string): Promise<void> {
  await db.query(sql`
    update mail_outbox set to_address = '', subject = '', body_text = '', body_html = '',
      attachments = '[]'::jsonb,
      status = case when status = 'queued' then 'failed' else status end,
      lease_owner = null, lease_expires_at = null
    where order_guid = ${guid}`)
}

/** Ends every mail lease at once. Only for the embedded database, which one process opens at a time. */
export async function expireMailLeases(db: Queryable): Promise<void> {
  await db.query(sql`update mail_outbox set lease_expires_at = null where status = 'queued'`)
}
