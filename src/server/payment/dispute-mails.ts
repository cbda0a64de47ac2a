import { confirmationCode } from '../../domain/confirmation.ts'
import type { Locale } from '../../domain/locale.ts'
import { formatMoney } from '../../domain/money.ts'
import type { MailService } from '../mail/service.ts'
import { sayAll } from '../platform/i18n.ts'
import { DISPUTE_MESSAGES } from './dispute-messages.ts'
import type { DisputeNews } from './webhooks.ts'

// The admins' mail about a chargeback (a dispute opened, and how it ended), each in the language of
// the console the admin last signed in with, handed to the mail module's outbox (queueNotice) under a
// key per dispute, news and admin: the same event delivered twice mails once.

const codeOf = (guid: string | null) => (guid ? confirmationCode(guid) : '—')

export function createDisputeMails(deps: {
  mail: Pick<MailService, 'queueNotice' | 'origin'>
  admins: () => Promise<{ email: string; locale: Locale }[]>
}) {
  return async function notifyDispute({ kind, dispute }: DisputeNews): Promise<void> {
    const admins = await deps.admins()
    for (const admin of admins) {
      const t = sayAll(admin.locale, DISPUTE_MESSAGES)
      const code = codeOf(dispute.orderGuid)
      const date = (epochMs: number) =>
        new Intl.DateTimeFormat(admin.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
          epochMs,
        )
      const closing =
        dispute.status === 'won'
          ? t.closed.won()
          : dispute.status === 'lost'
            ? t.closed.lost()
            : null
      const consolePage = dispute.orderGuid
        ? `${deps.mail.origin()}/ops/orders?order=${encodeURIComponent(dispute.orderGuid)}`
        : null
      await deps.mail.queueNotice({
        key: `dispute-${kind}-${dispute.disputeId}-${admin.email.toLowerCase()}`,
        kind: 'payment_dispute',
        to: admin.email,
        sensitive: false,
        view: {
          locale: admin.locale,
          subject: kind === 'opened' ? t.opened.subject({ code }) : t.closed.subject({ code }),
          heading: kind === 'opened' ? t.opened.heading() : t.closed.heading(),
          greeting: t.greeting(),
          paragraphs:
            kind === 'opened'
              ? [t.opened.intro(), t.opened.respond()]
              : [closing ?? t.closed.other({ status: dispute.status })],
          rows: [
            { label: t.order(), value: dispute.orderGuid ? code : t.unknownOrder() },
            {
              label: t.amount(),
              value: formatMoney(dispute.amountCents, {
                currency: dispute.currency,
                locale: admin.locale,
              }),
            },
            { label: t.reason(), value: dispute.reason },
            { label: t.status(), value: dispute.status },
            ...(kind === 'opened' && dispute.evidenceDueEpochMs
              ? [{ label: t.due(), value: date(dispute.evidenceDueEpochMs) }]
              : []),
          ],
          ...(consolePage ? { button: { label: t.button(), url: consolePage } } : {}),
          footer: t.footer(),
        },
      })
    }
  }
}
