import { describe, expect, it } from 'vitest'
import { ERROR_CODES, type ErrorCode } from '../../contract/error-codes'
import de from '../../locale/locales/de/messages.po?raw'
import fr from '../../locale/locales/fr/messages.po?raw'
import { readPoEntries } from '../../locale/po-reader'
import source from './error-messages.ts?raw'

// Every code the server may send (the registry, src/contract/error-codes.ts) has its English
// in the app's table word for word, and a French and a German translation. Lingui macros cannot be
// imported in Vitest (docs/development.md), so the test reads the table's source.
const table = new Map(
  [
    ...source.matchAll(
      /^ {2}(\w+): msg\(\{\s*message:\s*(?:'([^']*)'|"((?:[^"\\]|\\.)*)"),?\s*\}\)/gm,
    ),
  ].map((m) => [m[1], m[2] ?? (m[3] ?? '').replace(/\\"/g, '"')]),
)
const catalogs = {
  fr: new Map(readPoEntries(fr).map((e) => [e.id, e.str])),
  de: new Map(readPoEntries(de).map((e) => [e.id, e.str])),
}
const codes = Object.keys(ERROR_CODES) as ErrorCode[]
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('error messages', () => {
  it('has every code of the registry in its table, with the registry English word for word', () => {
    expect(codes.length).toBeGreaterThan(100)
    const wrong = codes.filter((code) => table.get(code) !== ERROR_CODES[code])
    expect(wrong).toEqual([])
    expect([...table.keys()].filter((code) => !(String(code) in ERROR_CODES))).toEqual([])
  })

  for (const locale of ['fr', 'de'] as const) {
    it(`translates every code into ${locale}, with the same placeholders`, () => {
      const missing = codes.filter((code) => !catalogs[locale].get(ERROR_CODES[code])?.trim())
      expect(missing).toEqual([])
      const broken = codes.filter(
        (code) =>
          placeholders(catalogs[locale].get(ERROR_CODES[code]) ?? '').join() !==
          placeholders(ERROR_CODES[code]).join(),
      )
      expect(broken).toEqual([])
    })
  }
})
