import { columnMap } from '../platform/db/columns.ts'
import type { MailToSend } from './repo.ts'

// mail_outbox (migrations 0008, 0017, 0021) as the outbox's rows name its fields: the select and
// `returning` lists of repo.ts are written from this one declaration.

export const OUTBOX = columnMap<MailToSend>('mail_outbox', {
  id: 'id',
  orderGuid: 'order_guid',
  kind: 'kind',
  locale: 'locale',
  to: 'to_address',
  subject: 'subject',
  status: 'status',
  attempts: 'attempts',
  // whole milliseconds, as the contract answers them: PostgreSQL keeps the microseconds of now()
  createdAtEpochMs: { column: 'created_at', epochMs: true, floor: true },
  sentAtEpochMs: { column: 'sent_at', epochMs: true, floor: true },
  error: { column: 'last_error', json: true },
  oneTimeLink: 'sensitive',
  text: 'body_text',
  html: 'body_html',
  attachments: { column: 'attachments', json: true },
  messageId: 'message_id',
})
