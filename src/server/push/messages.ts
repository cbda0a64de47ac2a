// Every sentence a play alert says, in English (translations: the server's Lingui catalogs, src/locale/server).
// `time` is the billboard's local time, `billboard` its place as the catalogue names it.
// Each message is a descriptor Lingui extracts (`npm run lingui:extract`); say() formats it.

export const PUSH_MESSAGES = {
  soon: {
    title: /*i18n*/ { id: 'push.soon.title', message: 'Your shout plays at {time}' },
    body: /*i18n*/ { id: 'push.soon.body', message: 'On {billboard} — look up!' },
  },
  played: {
    title: /*i18n*/ { id: 'push.played.title', message: 'It played!' },
    body: /*i18n*/ {
      id: 'push.played.body',
      message: 'Your shout played at {time} on {billboard}.',
    },
  },
} as const
