// The words of the "Forget my data" page (erasure-page.ts) and of the mails' footer line, in English
// (translations: the server's Lingui catalogs, src/locale/server).
// Each message is a descriptor Lingui extracts (`npm run lingui:extract`); say() formats it.

export const ERASURE_MESSAGES = {
  link: /*i18n*/ { id: 'erasure.link', message: 'Forget my data' },
  title: /*i18n*/ { id: 'erasure.title', message: 'Forget my data' },
  ask: /*i18n*/ {
    id: 'erasure.ask',
    message: 'Do you want the shop to forget your personal data of order {code} now?',
  },
  what: /*i18n*/ {
    id: 'erasure.what',
    message:
      'Your name, e-mail address, phone number, photo or video and message are deleted, and the mails we sent you are blanked. This cannot be undone.',
  },
  kept: /*i18n*/ {
    id: 'erasure.kept',
    message:
      'What the books need stays: the amounts, the times bought and whether the shout played.',
  },
  confirm: /*i18n*/ { id: 'erasure.confirm', message: 'Forget my data' },
  wait: /*i18n*/ {
    id: 'erasure.wait',
    message:
      'Your shout still has to play: its data is needed until then. You can have it forgotten from {when}.',
  },
  busy: /*i18n*/ {
    id: 'erasure.busy',
    message: 'Your order is being processed right now. Please try again in a minute.',
  },
  forgotten: /*i18n*/ {
    id: 'erasure.forgotten',
    message: 'Your personal data of this order is forgotten.',
  },
  gone: /*i18n*/ { id: 'erasure.gone', message: 'This link no longer works' },
  goneText: /*i18n*/ {
    id: 'erasure.goneText',
    message: 'It is unknown or has expired. The data of an order is forgotten by itself in time.',
  },
  home: /*i18n*/ { id: 'erasure.home', message: 'Go to the shop' },
} as const
