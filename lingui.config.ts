import { defineConfig } from '@lingui/cli'

// One catalog per locale, loaded on demand (conventions §6). English is the source language.
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'fr', 'de'],
  catalogs: [
    {
      path: '<rootDir>/src/locale/locales/{locale}/messages',
      include: ['<rootDir>/src/app'],
      exclude: ['**/node_modules/**', '**/*.test.*'],
    },
  ],
  format: 'po',
  orderBy: 'messageId',
})
