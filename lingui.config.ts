import { basename } from 'node:path'
import { extractor as babelExtractor } from '@lingui/cli/api'
import { defineConfig, type ExtractorType } from '@lingui/conf'
import { PROBLEM_PARTS, WORDS } from './src/contract/problems.ts'

// The problems' English is written once, in the contract's catalogue (src/contract/problems.ts, whose
// codes are written in its parts, src/contract/problems-*.ts). This extractor reads each file: each code is a message whose id is the code and whose English is
// the catalogue's text ({name} placeholders as Lingui's), each word of WORDS a message whose id is
// `table.key`. The app translates a problem by its code (src/app/lib/problem-text.ts), with no copy
// of the sentence of its own. Listed before Babel's: the first extractor that matches a file reads it.
const problemsExtractor: ExtractorType = {
  match: (filename) => /src\/contract\/problems(-[a-z]+)?\.ts$/.test(filename),
  extract(filename, code, onMessageExtracted) {
    const lines = code.split('\n')
    const lineOf = (key: string) =>
      lines.findIndex((line) => line.trimStart().startsWith(`${key}:`)) + 1
    const part = basename(filename)
    const entries: Readonly<Record<string, { status: number; en: string }>> = Object.hasOwn(
      PROBLEM_PARTS,
      part,
    )
      ? PROBLEM_PARTS[part as keyof typeof PROBLEM_PARTS]
      : {}
    for (const [id, entry] of Object.entries(entries)) {
      onMessageExtracted({
        id,
        message: entry.en,
        origin: [filename, lineOf(id)],
        comment: `the problem ${id} (HTTP ${entry.status})`,
      })
    }
    if (part !== 'problems.ts') return
    for (const [table, words] of Object.entries(WORDS)) {
      for (const [key, word] of Object.entries(words)) {
        onMessageExtracted({
          id: `${table}.${key}`,
          message: word,
          origin: [filename, lineOf(table)],
          comment: `a word of problems' sentences: ${table} ${key}`,
        })
      }
    }
  },
}

// the catalogue and its parts
const PROBLEM_FILES = ['problems.ts', ...Object.keys(PROBLEM_PARTS)].map(
  (file) => `<rootDir>/src/contract/${file}`,
)

// One catalog per locale, loaded on demand (conventions §6). English is the source language.
// The operations console (src/app/ops) has a catalog of its own, loaded only by the
// console, so the shop's catalogs (and its first screen) carry none of its texts. Both have the
// problems of the catalogue: either can show any of them. The server has one too (src/locale/server:
// its mails, push notifications, share pages, invoices, declared as `/*i18n*/ { id, message }`
// descriptors in its `*messages*.ts` files), which no page loads; the server reads it beside the
// shop's (src/server/platform/i18n.ts).
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'fr', 'de'],
  catalogs: [
    {
      path: '<rootDir>/src/locale/locales/{locale}/messages',
      include: ['<rootDir>/src/app', ...PROBLEM_FILES],
      exclude: ['**/node_modules/**', '**/*.test.*', '<rootDir>/src/app/ops/**'],
    },
    {
      path: '<rootDir>/src/locale/ops/{locale}/messages',
      // the campaign states' names too, which the advertisers' pages share with the console
      include: [
        '<rootDir>/src/app/ops',
        '<rootDir>/src/app/lib/campaign-states.ts',
        ...PROBLEM_FILES,
      ],
      exclude: ['**/node_modules/**', '**/*.test.*'],
    },
    {
      path: '<rootDir>/src/locale/server/{locale}/messages',
      include: ['<rootDir>/src/server/**/*messages*.ts'],
      exclude: ['**/node_modules/**', '**/*.test.*'],
    },
  ],
  extractors: [problemsExtractor, babelExtractor],
  format: 'po',
  orderBy: 'messageId',
})
