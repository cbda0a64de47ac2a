import * as v from 'valibot'
import { EpochMsSchema, LocaleSchema, nonNegativeInt, ProblemSchema, text } from './common'
import { endpoint } from './endpoint'

// api-v1 "Operations", the outbox (E-mail): every mail the shop made, sent or not, for
// admins. Without SMTP_URL nothing is sent and this is where a fresh install shows its mails.

/** The mails of an order, planned from its states. */
export const ORDER_MAIL_KINDS = [
  'confirmed',
  'under_review',
  'approved',
  'cancelled',
  // the bank's check of the charge failed or was never answered: the order failed (its reason)
  'payment_failed',
  'reminder',
  'played',
  // the shopper had the order's personal data forgotten through its mails' link: the one mail after
  'erased',
  // the plays without proof once the grace passed, and what their share refunded (make-goods)
  'make_good',
] as const
export type OrderMailKind = (typeof ORDER_MAIL_KINDS)[number]
/**
 * Mails about no order: an advertiser's account and campaigns (api-v1 "Advertisers"), and the
 * admins' notice of a disputed charge.
 */
export const NOTICE_MAIL_KINDS = [
  'account_verify',
  'account_exists',
  'password_reset',
  'campaign_rejected',
  'campaign_charge_failed',
  'campaign_booked',
  'campaign_approved',
  'campaign_live',
  'campaign_receipt',
  'campaign_completed',
  // an owner's invitation into the team (a one-time link)
  'member_invite',
  'payment_dispute',
  // the admins' notices of a billboard with sold plays that stopped reporting, and of its return
  'billboard_offline',
  'billboard_online',
] as const
export type NoticeMailKind = (typeof NOTICE_MAIL_KINDS)[number]
export const MAIL_KINDS = [...ORDER_MAIL_KINDS, ...NOTICE_MAIL_KINDS] as const
export const MailKindSchema = v.picklist(MAIL_KINDS)
export type MailKind = v.InferOutput<typeof MailKindSchema>

/**
 * queued: to send (again); sending: handed to the mail server, its outcome not written yet; sent;
 * failed: given up after the last attempt; stored: no SMTP_URL.
 */
export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed', 'stored'] as const
export const MailStatusSchema = v.picklist(MAIL_STATUSES)

export const OutboxMailSchema = v.object({
  id: text(),
  to: text(320),
  subject: text(500),
  kind: MailKindSchema,
  /** The order the mail is about; null for an advertiser's mail. */
  orderGuid: v.nullable(text()),
  locale: LocaleSchema,
  status: MailStatusSchema,
  attempts: nonNegativeInt(),
  createdAtEpochMs: EpochMsSchema,
  sentAtEpochMs: v.nullable(EpochMsSchema),
  /** The last failed attempt's error (kept while it is retried), else null. */
  error: v.nullable(ProblemSchema),
  /** Its body holds a one-time link (a verification or reset link). */
  oneTimeLink: v.optional(v.boolean(), false),
})
export type OutboxMail = v.InferOutput<typeof OutboxMailSchema>

export const OutboxSchema = v.object({ mails: v.array(OutboxMailSchema) })
export type Outbox = v.InferOutput<typeof OutboxSchema>

/**
 * Why the console shows no body: `one_time_link`, it holds a one-time link, shown only by a local
 * install without SMTP (APP_ENV=local), where no mail leaves and the admin is the one who signs up;
 * `forgotten`, its order's personal data was forgotten (an erasure, or its lifetime ended).
 */
export const BODY_HIDDEN_REASONS = ['one_time_link', 'forgotten'] as const

export const OutboxMailBodySchema = v.object({
  ...OutboxMailSchema.entries,
  text: v.string(),
  html: v.string(),
  bodyHidden: v.optional(v.nullable(v.picklist(BODY_HIDDEN_REASONS)), null),
  attachments: v.array(v.object({ filename: text(), contentType: text() })),
})
export type OutboxMailBody = v.InferOutput<typeof OutboxMailBodySchema>

export const mail = {
  outbox: endpoint({
    name: 'getOutbox',
    method: 'GET',
    path: '/ops/outbox',
    summary: 'The mails the shop made, newest first (admins)',
    access: 'admin',
    response: OutboxSchema,
    errors: ['sign_in_required', 'role_forbidden'],
  }),
  outboxMail: endpoint({
    name: 'getOutboxMail',
    method: 'GET',
    path: '/ops/outbox/{id}',
    summary: 'One mail with its text and HTML bodies (admins)',
    access: 'admin',
    response: OutboxMailBodySchema,
    errors: ['sign_in_required', 'role_forbidden', 'mail_not_found'],
  }),
} as const
