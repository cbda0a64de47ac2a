// What the admins' billboard alerts say, in English (translations, in the operator's language
// (operators.locale): the server's Lingui catalogs, src/locale/server).
// Each message is a descriptor Lingui extracts (`npm run lingui:extract`); say() formats it.

export const OUTAGE_MESSAGES = {
  offline: {
    subject: /*i18n*/ { id: 'outage.offline.subject', message: 'Billboard offline: {place}' },
    heading: /*i18n*/ { id: 'outage.offline.heading', message: 'A billboard stopped reporting' },
    intro: /*i18n*/ {
      id: 'outage.offline.intro',
      message:
        '{place} has stopped reporting, and it has sold plays in the next hour. Check its player and its connection.',
    },
  },
  online: {
    subject: /*i18n*/ { id: 'outage.online.subject', message: 'Billboard back online: {place}' },
    heading: /*i18n*/ { id: 'outage.online.heading', message: 'The billboard is back' },
    intro: /*i18n*/ { id: 'outage.online.intro', message: '{place} reports again.' },
  },
  greeting: /*i18n*/ { id: 'outage.greeting', message: 'Hello,' },
  billboard: /*i18n*/ { id: 'outage.billboard', message: 'Billboard' },
  lastReport: /*i18n*/ { id: 'outage.lastReport', message: 'Last report' },
  playsAhead: /*i18n*/ { id: 'outage.playsAhead', message: 'Sold plays in the next hour' },
  dark: /*i18n*/ { id: 'outage.dark', message: 'Dark for' },
  missed: /*i18n*/ { id: 'outage.missed', message: 'Sold plays missed' },
  duration: /*i18n*/ {
    id: 'outage.duration',
    message: '{hours, plural, =0 {{minutes} min} other {# h {minutes} min}}',
  },
  button: /*i18n*/ { id: 'outage.button', message: 'Open the Billboards page' },
  footer: /*i18n*/ { id: 'outage.footer', message: 'Shouts console: sent to every admin.' },
} as const
