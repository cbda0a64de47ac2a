import type { MailKind } from '../../contract/mail.ts'
import type { Locale } from '../../domain/locale.ts'
import type { ProblemData } from '../../domain/problems.ts'
import type { Queryable } from '../platform/db/client.ts'
import { epochMs, json, sql } from '../platform/db/sql.ts'
import type { LeaseSettings } from '../platform/lease.ts'

// All SQL of the outbox (mail_outbox, migration 0008); the orders owed a mail are read through the
// order module's read model (order/mail-reads.ts) with `mailed` below. The unique (order_guid, kind) makes each mail exist at most once: two instances
// planning the same mail insert one row.

export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'stored'

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
  /** Files sent with it (an invoice's PDF with its receipt). */
  attachments?: readonly Attachment[]
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
  /** its body holds a one-time link (`sensitive`) */
  oneTimeLink: boolean
}

export type MailToSend = OutboxRow & {
  text: string
  html: string
  attachments: Attachment[]
  messageId: string
}

// Whole milliseconds, as the contract answers them: PostgreSQL keeps microseconds of now().
const OUTBOX_COLUMNS = sql`id, order_guid as "orderGuid", kind, locale, to_address as "to", subject,
  status, attempts, round(${epochMs(sql`created_at`)}) as "createdAtEpochMs",
  round(${epochMs(sql`sent_at`)}) as "sentAtEpochMs", last_error as "error",
  sensitive as "oneTimeLink"`

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
      message_id, status, sensitive, attachments)
    values (${mail.id}, ${mail.key}, ${mail.kind}, ${mail.locale}, ${mail.to}, ${mail.subject},
      ${mail.text}, ${mail.html}, ${mail.messageId}, ${mail.status}, ${mail.sensitive},
      ${json(mail.attachments ?? [])}::jsonb)
    on conflict (mail_key) do nothing
    returning id`)
  return rows.length > 0
}

/** The newest mails first (api-v1 GET /ops/outbox). */
export function listOutbox(db: Queryable, limit: number): Promise<OutboxRow[]> {
  return db.query(sql<OutboxRow>`
    select ${OUTBOX_COLUMNS} from mail_outbox order by created_at desc, id limit ${limit}`)
}

export type BodyHidden = 'one_time_link' | 'forgotten'

/**
 * A mail as the console shows it: a sensitive one without its body (its link is a secret), unless
 * `showOneTimeLinks` (a local install without SMTP: the mail never leaves, kept here) and the mail
 * was kept here; and why a body is empty.
 */
export async function outboxMail(
  db: Queryable,
  id: string,
  showOneTimeLinks: boolean,
): Promise<(MailToSend & { bodyHidden: BodyHidden | null }) | null> {
  const hidden = sql`(sensitive and not (${showOneTimeLinks}::boolean and status = 'stored'))`
  const [row] = await db.query(sql<MailToSend & { bodyHidden: BodyHidden | null }>`
    select ${OUTBOX_COLUMNS},
      case when ${hidden} then '' else body_text end as "text",
      case when ${hidden} then '' else body_html end as "html", attachments,
      message_id as "messageId",
      case when ${hidden} then 'one_time_link'
        when body_text = '' and body_html = '' then 'forgotten' end as "bodyHidden"
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
  /** How long after its lease ended a mail left `sending` is taken over (sent again). */
  sendingGraceMs: number,
): Promise<MailToSend[]> {
  return db.query(sql<MailToSend>`
    update mail_outbox set attempts = attempts + 1,
      lease_owner = ${lease.owner}, lease_expires_at = ${leaseEnd(lease)}
    where id in (
      select id from mail_outbox
      where (status = 'queued' and next_attempt_at <= now()
          and (lease_expires_at is null or lease_expires_at < now()))
        or (status = 'sending' and (lease_expires_at is null
          or lease_expires_at < now() - ${sendingGraceMs}::int * interval '1 millisecond'))
      order by next_attempt_at, id
      limit ${limit}
      for update skip locked)
    returning ${OUTBOX_COLUMNS}, body_text as "text", body_html as "html", attachments,
      message_id as "messageId"`)
}

/**
 * Records that this instance is about to hand the mail to the mail server: false when the mail is
 * no longer this instance's (it is then not sent). Written before the send, so that a send whose
 * outcome could not be written is never taken for one that was not made.
 */
export async function markSending(db: Queryable, id: string, owner: string): Promise<boolean> {
  const rows = await db.query(sql`
    update mail_outbox set status = 'sending', sending_at = now()
    where id = ${id} and lease_owner = ${owner} and status in ('queued', 'sending')
    returning id`)
  return rows.length > 0
}

export async function renewMailLease(
  db: Queryable,
  id: string,
  lease: LeaseSettings,
): Promise<boolean> {
  const rows = await db.query(sql`
    update mail_outbox set lease_expires_at = ${leaseEnd(lease)}
    where id = ${id} and status in ('queued', 'sending') and lease_owner = ${lease.owner}
    returning id`)
  return rows.length > 0
}

/**
 * The mail confirming an order's erasure is the last trace of the forgotten contact: once sent (or
 * given up) it keeps nothing of it, neither address nor words (its order's other mails were blanked
 * by the erasure itself).
 */
const ERASED = sql`kind = 'erased'`
const FORGET_IF_ERASED = sql`to_address = case when ${ERASED} then '' else to_address end,
  subject = case when ${ERASED} then '' else subject end,
  attachments = case when ${ERASED} then '[]'::jsonb else attachments end`

export async function markSent(db: Queryable, id: string, owner: string): Promise<void> {
  await db.query(sql`
    update mail_outbox set status = 'sent', sent_at = now(), last_error = null,
      lease_owner = null, lease_expires_at = null, ${FORGET_IF_ERASED},
      body_text = case when sensitive or ${ERASED} then '' else body_text end,
      body_html = case when sensitive or ${ERASED} then '' else body_html end
    where id = ${id} and lease_owner = ${owner} and status = 'sending'`)
}

/** A failed attempt: tried again after `retryMs`, or given up (failed) when `retryMs` is null. */
export async function markAttemptFailed(
  db: Queryable,
  id: string,
  owner: string,
  error: ProblemData,
  retryMs: number | null,
): Promise<void> {
  // given up: an erasure's mail forgets its address all the same
  const forget =
    retryMs === null
      ? sql`, ${FORGET_IF_ERASED},
        body_text = case when ${ERASED} then '' else body_text end,
        body_html = case when ${ERASED} then '' else body_html end`
      : sql``
  await db.query(sql`
    update mail_outbox set last_error = ${json(error)}::jsonb, lease_owner = null, lease_expires_at = null,
      status = ${retryMs === null ? 'failed' : 'queued'},
      next_attempt_at = now() + ${retryMs ?? 0}::int * interval '1 millisecond' ${forget}
    where id = ${id} and lease_owner = ${owner} and status = 'sending'`)
}

/** At shutdown: mails this instance claimed go back to the queue at once. */
export async function releaseMailLeases(db: Queryable, owner: string): Promise<void> {
  await db.query(sql`
    update mail_outbox set lease_owner = null, lease_expires_at = null
    where lease_owner = ${owner} and status = 'queued'`)
}

// ---------- what the planner reads ----------

/**
 * A condition on an order `o` of the order module's statements (mail candidates, order/mail-reads.ts):
 * a mail of this kind was made for it.
 */
export const mailed = (kind: string) =>
  sql`exists (select 1 from mail_outbox m where m.order_guid = o.guid and m.kind = ${kind})`

/**
 * Forgets what an order's mails say (address, names, message, calendar file): the rows stay, so
 * each mail still exists at most once; one not yet sent never will be.
 */
export async function forgetOrderMail(db: Queryable, guid: string): Promise<void> {
  await db.query(sql`
    update mail_outbox set to_address = '', subject = '', body_text = '', body_html = '',
      attachments = '[]'::jsonb,
      status = case when status in ('queued', 'sending') then 'failed' else status end,
      lease_owner = null, lease_expires_at = null
    where order_guid = ${guid}`)
}

/** Ends every mail lease at once. Only for the embedded database, which one process opens at a time. */
export async function expireMailLeases(db: Queryable): Promise<void> {
  await db.query(
    sql`update mail_outbox set lease_expires_at = null where status in ('queued', 'sending')`,
  )
}
