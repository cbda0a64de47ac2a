// Every sentence the keepsake page says, in English (translations: the server's Lingui catalogs,
// src/locale/server). `day` and `time` are the billboard's local day and time as the language writes them.
// Each message is a descriptor Lingui extracts (`npm run lingui:extract`); say() formats it.

export const KEEPSAKE_MESSAGES = {
  title: /*i18n*/ { id: 'share.title', message: 'A shout on the billboard at {place}' },
  description: /*i18n*/ {
    id: 'share.description',
    message: '{event}: a message on the big screen at {place}.',
  },
  heading: /*i18n*/ { id: 'share.heading', message: 'On the big screen' },
  alt: /*i18n*/ { id: 'share.alt', message: 'The message shown on the billboard at {place}' },
  event: /*i18n*/ { id: 'share.event', message: 'For {event}' },
  played: /*i18n*/ {
    id: 'share.played',
    message:
      '{count, plural, =1 {Played once on {day}, at {time}} other {Played # times on {day}, first at {time}}}',
  },
  upcoming: /*i18n*/ { id: 'share.upcoming', message: 'Plays on {day} at {time}' },
  makeYourOwn: /*i18n*/ { id: 'share.makeYourOwn', message: 'Make your own shout' },
  gone: /*i18n*/ { id: 'share.gone', message: 'This page is no longer shared' },
  goneText: /*i18n*/ {
    id: 'share.goneText',
    message: 'Its owner stopped sharing it, or it is gone.',
  },
  home: /*i18n*/ { id: 'share.home', message: 'See what you can put on a billboard' },
} as const
