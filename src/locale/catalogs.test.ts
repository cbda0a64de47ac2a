import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type PoEntry, readPoEntries } from './po-reader'

// conventions §6: a message of the English catalog without a French or German translation fails.

/** Reads msgid/msgstr pairs of a .po file, continuation lines included. */
const readPo = (path: string): PoEntry[] => readPoEntries(readFileSync(path, 'utf8'))

const dir = join(import.meta.dirname, 'locales')
const english = readPo(join(dir, 'en', 'messages.po'))
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]).sort()

describe('catalogs', () => {
  it('has English messages', () => {
    expect(english.length).toBeGreaterThan(100)
  })

  for (const locale of ['fr', 'de']) {
    it(`translates every English message into ${locale}`, () => {
      const translated = new Map(readPo(join(dir, locale, 'messages.po')).map((e) => [e.id, e.str]))
      const missing = english.filter((e) => !translated.get(e.id)?.trim()).map((e) => e.id)
      expect(missing).toEqual([])
    })

    it(`keeps the placeholders of every message in ${locale}`, () => {
      const translated = new Map(readPo(join(dir, locale, 'messages.po')).map((e) => [e.id, e.str]))
      const broken = english
        .filter((e) => {
          const str = translated.get(e.id)
          return str !== undefined && placeholders(str).join() !== placeholders(e.id).join()
        })
        .map((e) => e.id)
      expect(broken).toEqual([])
    })
  }
})
