// The words the server writes around a content page (pages.ts), in English (translations: the
// server's Lingui catalogs, src/locale/server). The pages' own text is content, edited in the console.

export const PAGE_MESSAGES = {
  home: /*i18n*/ { id: 'pages.home', message: 'Back to the shop' },
} as const
