// The sentences of the mails of a campaign's life (mails-campaigns.ts), in English (translations: the
// server's Lingui catalogs, src/locale/server): booked, approved, on air, each day's receipt, completed.
// Each message is a descriptor Lingui extracts (`npm run lingui:extract`); say() formats it.

export const CAMPAIGN_MAIL_MESSAGES = {
  booked: {
    subject: /*i18n*/ {
      id: 'campaignMail.booked.subject',
      message: 'Your campaign "{campaign}" is booked',
    },
    heading: /*i18n*/ { id: 'campaignMail.booked.heading', message: 'Your campaign is booked' },
    intro: /*i18n*/ {
      id: 'campaignMail.booked.intro',
      message:
        'Thank you: the plays of your campaign "{campaign}" are reserved for you. Your card is charged each day only for the plays the billboards prove.',
    },
    review: /*i18n*/ {
      id: 'campaignMail.booked.review',
      message: 'We now review your ad; we write to you again once it is approved.',
    },
  },
  approved: {
    subject: /*i18n*/ {
      id: 'campaignMail.approved.subject',
      message: 'Your campaign "{campaign}" is approved',
    },
    heading: /*i18n*/ { id: 'campaignMail.approved.heading', message: 'Your ad is approved' },
    intro: /*i18n*/ {
      id: 'campaignMail.approved.intro',
      message:
        'We reviewed the ad of your campaign "{campaign}": it will play on our billboards from {start}.',
    },
  },
  live: {
    subject: /*i18n*/ {
      id: 'campaignMail.live.subject',
      message: 'Your campaign "{campaign}" is on air',
    },
    heading: /*i18n*/ { id: 'campaignMail.live.heading', message: 'Your campaign is on air' },
    intro: /*i18n*/ {
      id: 'campaignMail.live.intro',
      message:
        'The first play of your campaign "{campaign}" was proven by the billboard {billboard} at {at}.',
    },
    receipts: /*i18n*/ {
      id: 'campaignMail.live.receipts',
      message: 'You will receive a receipt each day for the plays proven that day.',
    },
  },
  receipt: {
    subject: /*i18n*/ {
      id: 'campaignMail.receipt.subject',
      message: 'Your receipt for "{campaign}", {day}',
    },
    heading: /*i18n*/ { id: 'campaignMail.receipt.heading', message: 'Your daily receipt' },
    intro: /*i18n*/ {
      id: 'campaignMail.receipt.intro',
      message: 'We charged your card for the proven plays of your campaign "{campaign}" on {day}:',
    },
    line: /*i18n*/ {
      id: 'campaignMail.receipt.line',
      message: '{plays} plays, {impressions} impressions, {amount}',
    },
    total: /*i18n*/ { id: 'campaignMail.receipt.total', message: 'Charged' },
    capped: /*i18n*/ {
      id: 'campaignMail.receipt.capped',
      message: 'This charge reaches your budget: the plays beyond it are not charged.',
    },
  },
  completed: {
    subject: /*i18n*/ {
      id: 'campaignMail.completed.subject',
      message: 'Your campaign "{campaign}" is completed',
    },
    heading: /*i18n*/ {
      id: 'campaignMail.completed.heading',
      message: 'Your campaign is completed',
    },
    flightEnded: /*i18n*/ {
      id: 'campaignMail.completed.flightEnded',
      message: 'The flight of your campaign "{campaign}" has ended. Here is what it reached.',
    },
    budgetSpent: /*i18n*/ {
      id: 'campaignMail.completed.budgetSpent',
      message:
        'The budget of your campaign "{campaign}" is spent, so it stopped playing. Here is what it reached.',
    },
    plays: /*i18n*/ { id: 'campaignMail.completed.plays', message: 'Proven plays' },
    impressions: /*i18n*/ { id: 'campaignMail.completed.impressions', message: 'Impressions' },
    spent: /*i18n*/ { id: 'campaignMail.completed.spent', message: 'Charged in all' },
    budget: /*i18n*/ { id: 'campaignMail.completed.budget', message: 'Budget' },
  },
  flight: /*i18n*/ { id: 'campaignMail.flight', message: 'Flight' },
  budget: /*i18n*/ { id: 'campaignMail.budget', message: 'Budget' },
  billboards: /*i18n*/ { id: 'campaignMail.billboards', message: 'Billboards' },
  button: /*i18n*/ { id: 'campaignMail.button', message: 'See the campaign' },
} as const
