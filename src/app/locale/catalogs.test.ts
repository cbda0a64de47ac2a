import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { messages } from '../../domain'

// conventions §6: a message of the English catalog without a French or German translation fails.

type Entry = { id: string; str: string }

function unquote(line: string): string {
  return JSON.parse(line.trim()) as string
}

/** Reads msgid/msgstr pairs of a .po file, continuation lines included. */
function readPo(path: string): Entry[] {
  const entries: Entry[] = []
  let id: string | null = null
  let str: string | null = null
  let target: 'id' | 'str' | null = null
  const flush = () => {
    if (id !== null && id !== '') entries.push({ id, str: str ?? '' })
    id = null
    str = null
    target = null
  }
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim()
    if (line.startsWith('msgid ')) {
      flush()
      id = unquote(line.slice(6))
      target = 'id'
    } else if (line.startsWith('msgstr ')) {
      str = unquote(line.slice(7))
      target = 'str'
    } else if (line.startsWith('"') && target) {
      if (target === 'id') id = (id ?? '') + unquote(line)
      else str = (str ?? '') + unquote(line)
    } else if (line === '') {
      flush()
    }
  }
  flush()
  return entries
}

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

  it('translates the domain messages word for word from their English source', () => {
    // lib/domain-messages.ts gives each spec message its translation; its English source must be
    // the domain's own text, or the lookup by text would miss it.
    const source = readFileSync(
      join(import.meta.dirname, '..', 'lib', 'domain-messages.ts'),
      'utf8',
    )
    const pairs = [...source.matchAll(/\[messages\.(\w+)\]: msg`([^`]*)`/g)]
    expect(pairs.length).toBeGreaterThan(20)
    for (const [, key, text] of pairs) {
      expect(messages[key as keyof typeof messages], key).toBe(text)
    }
  })
})
