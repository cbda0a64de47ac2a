// The shop's privacy page (privacy-page.ts) in plain words, in English (translations: the server's
// Lingui catalogs, src/locale/server): what docs/privacy.md says, for the shopper. Each message is a
// descriptor Lingui extracts (`npm run lingui:extract`); say() formats it.

export const PRIVACY_MESSAGES = {
  title: /*i18n*/ { id: 'privacy.title', message: 'Your data' },
  intro: /*i18n*/ {
    id: 'privacy.intro',
    message:
      'A shout is personal: a photo, a message to someone, your name and how to reach you. We keep each piece only while we need it to make and play your shout, then we forget it.',
  },
  /** The page's sections: a heading, and its lines (`{unorderedHours}`, `{orderDays}`: order/lifetime.ts). */
  sections: [
    {
      heading: /*i18n*/ { id: 'privacy.kept.heading', message: 'What we keep, and for how long' },
      lines: [
        /*i18n*/ {
          id: 'privacy.kept.upload',
          message:
            'A photo or video you upload and the shouts made of it, if you do not order: {unorderedHours, plural, one {# hour} other {# hours}}.',
        },
        /*i18n*/ {
          id: 'privacy.kept.order',
          message:
            "Your name, e-mail address, phone number, marketing choice, photo or video, message, and the mails we sent you: until {orderDays, plural, one {# day} other {# days}} after your order's last time on the billboard.",
        },
        /*i18n*/ {
          id: 'privacy.kept.alerts',
          message: 'The browsers you asked to tell you when your shout plays: until it has played.',
        },
        /*i18n*/ {
          id: 'privacy.kept.share',
          message:
            'A keepsake page you shared: until you stop sharing it, at the latest with the rest.',
        },
      ],
    },
    {
      heading: /*i18n*/ { id: 'privacy.stays.heading', message: 'What stays' },
      lines: [
        /*i18n*/ {
          id: 'privacy.stays.books',
          message:
            'What the books need: the amounts, the times bought, the payment and refund records, the card’s brand and last four digits, and the proof that your shout played.',
        },
      ],
    },
    {
      heading: /*i18n*/ { id: 'privacy.sooner.heading', message: 'Having it forgotten sooner' },
      lines: [
        /*i18n*/ {
          id: 'privacy.sooner.link',
          message:
            'Every mail about your order ends with a “Forget my data” link. Once your shout has played, its page forgets your personal data of that order at once, and one last mail to your address confirms it.',
        },
      ],
    },
  ],
  home: /*i18n*/ { id: 'privacy.home', message: 'Go to the shop' },
} as const
