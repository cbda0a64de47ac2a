import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROBLEMS, type ProblemCode, WORDS } from '../../src/contract/problems.ts'
import { readPoEntries } from '../../src/locale/po-reader.ts'

// A problem's English is written once: in the contract's catalogue (src/contract/problems.ts). The
// server writes it at its HTTP edge, the app and the mails translate by code through the Lingui
// catalogs (which hold it as the English message of the code). So no sentence of the catalogue may
// be written anywhere else in src/ or sw/: a copy would drift, or be matched against. Excepted: the
// .po catalogs (their English is extracted from the catalogue), and the unit tests beside the code,
// which state what a reader sees word for word to check the catalogue against the spec.

const ROOT = join(import.meta.dirname, '..', '..')
// the catalogue and the parts its codes are written in
const CATALOGUE = /^src\/contract\/problems(-[a-z]+)?\.ts$/

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(join(ROOT, path)).isDirectory()) return filesUnder(path)
    return [path]
  })
}

const SOURCES = ['src', 'sw']
  .flatMap(filesUnder)
  .filter((path) => /\.(ts|tsx|js|mjs|md|html|sql)$/.test(path))
  .filter(
    (path) => !/\.test\.tsx?$/.test(path) && !CATALOGUE.test(path) && !path.endsWith('.gen.ts'),
  )

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// a value written into a copy: `{name}`, a template literal's `${…}`, or strings joined around it
const VALUE = String.raw`(?:\{\w+\}|\$\{[^}]*\}|['"\x60]\s*\+[^+]*\+\s*['"\x60])`

/**
 * How a copy of a text would read: the text, each placeholder written as a value. A text of fewer than
 * three words is looked for in quotes only (a phrase that short is found in prose otherwise); a text
 * that is only placeholders ('{text}') has nothing to copy.
 */
function copyPatterns(text: string): RegExp[] {
  const parts = text.split(/\{\w+(?:, \w+)?\}/)
  const words = (parts.join(' ').match(/[A-Za-z]+/g) ?? []).length
  if (words === 0) return []
  const pattern = parts.map(escapeRegExp).join(VALUE)
  return [new RegExp(words >= 3 ? pattern : `['"\x60>]${pattern}['"\x60<]`)]
}

const codes = Object.keys(PROBLEMS) as ProblemCode[]

describe('one English sentence per problem', () => {
  it('finds a copied sentence (the check itself)', () => {
    const found = (template: string, source: string) =>
      copyPatterns(template).some((pattern) => pattern.test(source))
    const slot = 'Slot {slot} is not part of this event'
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a copy written as a template literal
    expect(found(slot, 'const m = `Slot ${n} is not part of this event`')).toBe(true)
    expect(found(slot, "msg({ message: 'Slot {slot} is not part of this event' })")).toBe(true)
    expect(found(slot, "'Slot ' + n + ' is not part of this event'")).toBe(true)
    expect(found(slot, 'This billboard is not part of this event.')).toBe(false)
    expect(found('Event not found', "title: 'Event not found'")).toBe(true)
    expect(found('Bad hour', "throw new Error('Bad hour')")).toBe(true)
    expect(found('Bad hour', 'a bad hour for the shop')).toBe(false)
    expect(copyPatterns('{text}')).toEqual([])
  })

  it('writes no sentence of the catalogue anywhere else in src/ or sw/', () => {
    expect(SOURCES.length).toBeGreaterThan(200)
    const texts = SOURCES.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')] as const)
    const copies: string[] = []
    for (const code of codes) {
      for (const pattern of copyPatterns(PROBLEMS[code].en)) {
        for (const [path, text] of texts) {
          const copy = pattern.exec(text)
          if (copy) copies.push(`${code}: ${path}: ${copy[0]}`)
        }
      }
    }
    expect(copies).toEqual([])
  })

  it('gives no two codes the same text', () => {
    const seen = new Map<string, ProblemCode>()
    const shared: string[] = []
    for (const code of codes) {
      const other = seen.get(PROBLEMS[code].en)
      if (other) shared.push(`${other} and ${code}: ${PROBLEMS[code].en}`)
      seen.set(PROBLEMS[code].en, code)
    }
    expect(shared).toEqual([])
  })

  // The catalogs get the English by extraction (lingui.config.ts); `lingui:extract --overwrite` keeps
  // the English catalogs' copy the catalogue's, which this checks after every edit of it.
  for (const catalog of ['src/locale/locales/en/messages.po', 'src/locale/ops/en/messages.po']) {
    it(`has the catalogue's English in ${catalog}, as extracted`, () => {
      const english = new Map(
        readPoEntries(readFileSync(join(ROOT, catalog), 'utf8')).map((e) => [e.id, e.str]),
      )
      const stale = codes.filter((code) => english.get(code) !== PROBLEMS[code].en)
      const words = Object.entries(WORDS).flatMap(([table, entries]) =>
        Object.entries(entries)
          .filter(([key, word]) => english.get(`${table}.${key}`) !== word)
          .map(([key]) => `${table}.${key}`),
      )
      expect([...stale, ...words], 'npm run lingui:extract').toEqual([])
    })
  }
})
