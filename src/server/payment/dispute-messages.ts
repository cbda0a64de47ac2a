// The admins' mail about a chargeback (dispute-mails.ts), in English (translations, in the language of
// the console the admin last signed in with: the server's Lingui catalogs, src/locale/server).
// Each message is a descriptor Lingui extracts (`npm run lingui:extract`); say() formats it.

export const DISPUTE_MESSAGES = {
  greeting: /*i18n*/ { id: 'dispute.greeting', message: 'Hello,' },
  footer: /*i18n*/ {
    id: 'dispute.footer',
    message: 'Shouts operations. You receive this mail as an admin of the shop.',
  },
  opened: {
    subject: /*i18n*/ {
      id: 'dispute.opened.subject',
      message: 'A payment was disputed: order {code}',
    },
    heading: /*i18n*/ { id: 'dispute.opened.heading', message: 'A shopper disputed a payment' },
    intro: /*i18n*/ {
      id: 'dispute.opened.intro',
      message:
        "The cardholder asked their bank to take back an order's payment (a chargeback). The amount is held until the bank decides.",
    },
    respond: /*i18n*/ {
      id: 'dispute.opened.respond',
      message: "Answer with evidence in Stripe's dashboard before the date below.",
    },
  },
  closed: {
    subject: /*i18n*/ { id: 'dispute.closed.subject', message: 'A dispute ended: order {code}' },
    heading: /*i18n*/ { id: 'dispute.closed.heading', message: 'A dispute ended' },
    won: /*i18n*/ {
      id: 'dispute.closed.won',
      message: 'The bank decided for the shop: the payment stays.',
    },
    lost: /*i18n*/ {
      id: 'dispute.closed.lost',
      message: 'The bank decided for the cardholder: the payment was taken back.',
    },
    other: /*i18n*/ {
      id: 'dispute.closed.other',
      message: 'The dispute closed with the status "{status}".',
    },
  },
  order: /*i18n*/ { id: 'dispute.order', message: 'Order' },
  unknownOrder: /*i18n*/ { id: 'dispute.unknownOrder', message: 'not found in the shop' },
  amount: /*i18n*/ { id: 'dispute.amount', message: 'Amount' },
  reason: /*i18n*/ { id: 'dispute.reason', message: 'Reason' },
  status: /*i18n*/ { id: 'dispute.status', message: 'Status' },
  due: /*i18n*/ { id: 'dispute.due', message: 'Evidence due' },
  button: /*i18n*/ { id: 'dispute.button', message: 'Open the order' },
} as const
