import { confirmationCode } from '../../domain/confirmation.ts'
import type { Locale } from '../../domain/locale.ts'
import { formatMoney } from '../../domain/money.ts'
import type { MailService } from '../mail/service.ts'
import type { DisputeNews } from './webhooks.ts'

// The admins' mail about a chargeback (a dispute opened, and how it ended), each in the language of
// the console the admin last signed in with, handed to the mail module's outbox (queueNotice) under a
// key per dispute, news and admin: the same event delivered twice mails once.

type Texts = {
  greeting: string
  footer: string
  opened: { subject: (code: string) => string; heading: string; intro: string; respond: string }
  closed: {
    subject: (code: string) => string
    heading: string
    won: string
    lost: string
    other: (status: string) => string
  }
  order: string
  unknownOrder: string
  amount: string
  reason: string
  status: string
  due: string
  button: string
}

const TEXTS: Record<Locale, Texts> = {
  en: {
    greeting: 'Hello,',
    footer: 'Shouts operations. You receive this mail as an admin of the shop.',
    opened: {
      subject: (code) => `A payment was disputed: order ${code}`,
      heading: 'A shopper disputed a payment',
      intro:
        "The cardholder asked their bank to take back an order's payment (a chargeback). The amount is held until the bank decides.",
      respond: "Answer with evidence in Stripe's dashboard before the date below.",
    },
    closed: {
      subject: (code) => `A dispute ended: order ${code}`,
      heading: 'A dispute ended',
      won: 'The bank decided for the shop: the payment stays.',
      lost: 'The bank decided for the cardholder: the payment was taken back.',
      other: (status) => `The dispute closed with the status "${status}".`,
    },
    order: 'Order',
    unknownOrder: 'not found in the shop',
    amount: 'Amount',
    reason: 'Reason',
    status: 'Status',
    due: 'Evidence due',
    button: 'Open the order',
  },
  fr: {
    greeting: 'Bonjour,',
    footer: 'Shouts, exploitation. Vous recevez ce mail en tant qu’administrateur de la boutique.',
    opened: {
      subject: (code) => `Un paiement est contesté : commande ${code}`,
      heading: 'Un client conteste un paiement',
      intro:
        'Le titulaire de la carte a demandé à sa banque de reprendre le paiement d’une commande (rétrofacturation). Le montant est retenu jusqu’à la décision de la banque.',
      respond:
        'Répondez avec des justificatifs dans le tableau de bord Stripe avant la date ci-dessous.',
    },
    closed: {
      subject: (code) => `Une contestation est close : commande ${code}`,
      heading: 'Une contestation est close',
      won: 'La banque a donné raison à la boutique : le paiement reste acquis.',
      lost: 'La banque a donné raison au titulaire de la carte : le paiement a été repris.',
      other: (status) => `La contestation est close avec le statut « ${status} ».`,
    },
    order: 'Commande',
    unknownOrder: 'introuvable dans la boutique',
    amount: 'Montant',
    reason: 'Motif',
    status: 'Statut',
    due: 'Justificatifs attendus avant',
    button: 'Ouvrir la commande',
  },
  de: {
    greeting: 'Hallo,',
    footer: 'Shouts-Betrieb. Sie erhalten diese E-Mail als Administrator des Shops.',
    opened: {
      subject: (code) => `Eine Zahlung wurde angefochten: Bestellung ${code}`,
      heading: 'Ein Kunde hat eine Zahlung angefochten',
      intro:
        'Der Karteninhaber hat seine Bank gebeten, die Zahlung einer Bestellung zurückzubuchen (Chargeback). Der Betrag wird einbehalten, bis die Bank entscheidet.',
      respond: 'Antworten Sie vor dem unten genannten Datum mit Nachweisen im Stripe-Dashboard.',
    },
    closed: {
      subject: (code) => `Eine Anfechtung ist abgeschlossen: Bestellung ${code}`,
      heading: 'Eine Anfechtung ist abgeschlossen',
      won: 'Die Bank hat für den Shop entschieden: Die Zahlung bleibt bestehen.',
      lost: 'Die Bank hat für den Karteninhaber entschieden: Die Zahlung wurde zurückgebucht.',
      other: (status) => `Die Anfechtung wurde mit dem Status „${status}“ abgeschlossen.`,
    },
    order: 'Bestellung',
    unknownOrder: 'im Shop nicht gefunden',
    amount: 'Betrag',
    reason: 'Grund',
    status: 'Status',
    due: 'Nachweise bis',
    button: 'Bestellung öffnen',
  },
}

const codeOf = (guid: string | null) => (guid ? confirmationCode(guid) : '—')

export function createDisputeMails(deps: {
  mail: Pick<MailService, 'queueNotice' | 'origin'>
  admins: () => Promise<{ email: string; locale: Locale }[]>
}) {
  return async function notifyDispute({ kind, dispute }: DisputeNews): Promise<void> {
    const admins = await deps.admins()
    for (const admin of admins) {
      const t = TEXTS[admin.locale]
      const code = codeOf(dispute.orderGuid)
      const date = (epochMs: number) =>
        new Intl.DateTimeFormat(admin.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
          epochMs,
        )
      const closing =
        dispute.status === 'won' ? t.closed.won : dispute.status === 'lost' ? t.closed.lost : null
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
          subject: kind === 'opened' ? t.opened.subject(code) : t.closed.subject(code),
          heading: kind === 'opened' ? t.opened.heading : t.closed.heading,
          greeting: t.greeting,
          paragraphs:
            kind === 'opened'
              ? [t.opened.intro, t.opened.respond]
              : [closing ?? t.closed.other(dispute.status)],
          rows: [
            { label: t.order, value: dispute.orderGuid ? code : t.unknownOrder },
            {
              label: t.amount,
              value: formatMoney(dispute.amountCents, {
                currency: dispute.currency,
                locale: admin.locale,
              }),
            },
            { label: t.reason, value: dispute.reason },
            { label: t.status, value: dispute.status },
            ...(kind === 'opened' && dispute.evidenceDueEpochMs
              ? [{ label: t.due, value: date(dispute.evidenceDueEpochMs) }]
              : []),
          ],
          ...(consolePage ? { button: { label: t.button, url: consolePage } } : {}),
          footer: t.footer,
        },
      })
    }
  }
}
