import { defineConfig } from '@lingui/cli'

// One catalog per locale, loaded on demand (conventions §6). English is the source language.
// The operations console (src/app/ops) has a catalog of its own, loaded only by the
// console, so the shop's catalogs (and its first screen) carry none of its texts.
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'fr', 'de'],
  catalogs: [
    {
      path: '<rootDir>/src/locale/locales/{locale}/messages',
      include: ['<rootDir>/src/app'],
      exclude: ['**/node_modules/**', '**/*.test.*', '<rootDir>/src/app/ops/**'],
    },
    {
      path: '<rootDir>/src/locale/ops/{locale}/messages',
      include: ['<rootDir>/src/app/ops'],
      exclude: ['**/node_modules/**', '**/*.test.*'],
    },
  ],
  format: 'po',
  orderBy: 'messageId',
})
