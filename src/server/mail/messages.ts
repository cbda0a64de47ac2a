// Every sentence a shopper's mail says (templates.ts, make-good-lines.ts), in English: the French and
// German are in the server's Lingui catalogs (src/locale/server, src/server/platform/i18n.ts).
// Each message is a descriptor Lingui extracts (`npm run lingui:extract`); say() formats it.

export const MAIL_MESSAGES = {
  kinds: {
    confirmed: {
      subject: /*i18n*/ {
        id: 'mail.kinds.confirmed.subject',
        message: 'Your shout is confirmed ({code})',
      },
      heading: /*i18n*/ { id: 'mail.kinds.confirmed.heading', message: 'Your shout is confirmed' },
      intro: /*i18n*/ {
        id: 'mail.kinds.confirmed.intro',
        message:
          'Thank you! Your shout for {event} is booked and paid. It will play at the times below.',
      },
    },
    under_review: {
      subject: /*i18n*/ {
        id: 'mail.kinds.under_review.subject',
        message: 'We received your order ({code}): it is being reviewed',
      },
      heading: /*i18n*/ {
        id: 'mail.kinds.under_review.heading',
        message: 'Your order is being reviewed',
      },
      intro: /*i18n*/ {
        id: 'mail.kinds.under_review.intro',
        message:
          'Thank you! We received your order for {event}. Someone on our team checks it before it plays; we will e-mail you as soon as it is approved.',
      },
    },
    approved: {
      subject: /*i18n*/ {
        id: 'mail.kinds.approved.subject',
        message: 'Your shout is approved ({code})',
      },
      heading: /*i18n*/ { id: 'mail.kinds.approved.heading', message: 'Your shout is approved' },
      intro: /*i18n*/ {
        id: 'mail.kinds.approved.intro',
        message: 'Good news: your shout for {event} was approved. It will play at the times below.',
      },
    },
    cancelled: {
      subject: /*i18n*/ {
        id: 'mail.kinds.cancelled.subject',
        message: 'Your order was cancelled and refunded ({code})',
      },
      heading: /*i18n*/ { id: 'mail.kinds.cancelled.heading', message: 'Your order was cancelled' },
      intro: /*i18n*/ {
        id: 'mail.kinds.cancelled.intro',
        message:
          'We are sorry: your order for {event} was cancelled and will not play. Your payment has been refunded.',
      },
    },
    payment_failed: {
      subject: /*i18n*/ {
        id: 'mail.kinds.payment_failed.subject',
        message: 'Your order was not placed: the payment was not confirmed ({code})',
      },
      heading: /*i18n*/ {
        id: 'mail.kinds.payment_failed.heading',
        message: 'Your payment was not confirmed',
      },
      intro: /*i18n*/ {
        id: 'mail.kinds.payment_failed.intro',
        message:
          'We are sorry: your bank did not confirm the payment for your order for {event}, so the order was not placed and nothing was charged. The times are free again: you can order again.',
      },
    },
    reminder: {
      subject: /*i18n*/ {
        id: 'mail.kinds.reminder.subject',
        message: 'Your shout airs soon ({code})',
      },
      heading: /*i18n*/ { id: 'mail.kinds.reminder.heading', message: 'Your shout airs soon' },
      intro: /*i18n*/ {
        id: 'mail.kinds.reminder.intro',
        message: 'Get ready: your shout for {event} is about to play on the billboard.',
      },
    },
    played: {
      subject: /*i18n*/ { id: 'mail.kinds.played.subject', message: 'Your shout played ({code})' },
      heading: /*i18n*/ { id: 'mail.kinds.played.heading', message: 'Your shout played' },
      intro: /*i18n*/ {
        id: 'mail.kinds.played.intro',
        message: 'Your shout for {event} has played. Here is when the billboard showed it.',
      },
    },
    erased: {
      subject: /*i18n*/ {
        id: 'mail.kinds.erased.subject',
        message: 'Your personal data is forgotten ({code})',
      },
      heading: /*i18n*/ {
        id: 'mail.kinds.erased.heading',
        message: 'Your personal data is forgotten',
      },
      intro: /*i18n*/ {
        id: 'mail.kinds.erased.intro',
        message:
          'As you asked, we erased your photo or video, your message and your contact details (name, e-mail address, phone number) from your order for {event}, and blanked the mails we sent you. This is the last mail about it.',
      },
    },
    make_good: {
      subject: /*i18n*/ {
        id: 'mail.kinds.make_good.subject',
        message: 'Not every play of your shout happened: your refund ({code})',
      },
      heading: /*i18n*/ {
        id: 'mail.kinds.make_good.heading',
        message: 'Not every play of your shout happened',
      },
      intro: /*i18n*/ {
        id: 'mail.kinds.make_good.intro',
        message:
          'The billboard did not show your shout for {event} every time it was due. You do not pay for the plays that did not happen: their share of what you paid is refunded to your card.',
      },
    },
  },
  greeting: /*i18n*/ { id: 'mail.greeting', message: 'Hello {name},' },
  code: /*i18n*/ { id: 'mail.code', message: 'Confirmation code' },
  billboard: /*i18n*/ { id: 'mail.billboard', message: 'Billboard' },
  times: /*i18n*/ { id: 'mail.times', message: 'Times' },
  timeZone: /*i18n*/ {
    id: 'mail.timeZone',
    message: "Times are in the billboard's time zone ({zone}).",
  },
  total: /*i18n*/ { id: 'mail.total', message: 'Total' },
  reason: /*i18n*/ { id: 'mail.reason', message: 'Reason' },
  refunded: /*i18n*/ { id: 'mail.refunded', message: 'Refunded' },
  firstPlay: /*i18n*/ {
    id: 'mail.firstPlay',
    message: 'First play in about {minutes, plural, one {# minute} other {# minutes}}',
  },
  plays: /*i18n*/ { id: 'mail.plays', message: 'Played at' },
  noPlays: /*i18n*/ { id: 'mail.noPlays', message: 'The billboard has not reported its plays.' },
  playedCount: /*i18n*/ { id: 'mail.playedCount', message: 'Played' },
  playedOf: /*i18n*/ {
    id: 'mail.playedOf',
    message: '{proven} of {due, plural, one {# play} other {# plays}}',
  },
  missed: /*i18n*/ { id: 'mail.missed', message: 'Did not play' },
  missedSlot: /*i18n*/ {
    id: 'mail.missedSlot',
    message: '{time}: {missed} of {of, plural, one {# play} other {# plays}}',
  },
  contentAlt: /*i18n*/ { id: 'mail.contentAlt', message: 'Your shout for {event}' },
  seeOrder: /*i18n*/ { id: 'mail.seeOrder', message: 'See your order' },
  calendarNote: /*i18n*/ {
    id: 'mail.calendarNote',
    message: 'The attached calendar file (.ics) adds your times to your calendar.',
  },
  calendarSummary: /*i18n*/ { id: 'mail.calendarSummary', message: 'Your shout at {event}' },
  footer: /*i18n*/ { id: 'mail.footer', message: 'Shouts: your message on the big screen.' },
  forgetData: /*i18n*/ { id: 'mail.forgetData', message: 'Forget my data' },
  kept: /*i18n*/ {
    id: 'mail.kept',
    message:
      'We keep what the accounts need, without your name: the confirmation code, the billboard, the times booked, the amount paid or refunded and the proofs that the billboard played it. Bookkeeping law requires us to keep these records.',
  },
} as const
