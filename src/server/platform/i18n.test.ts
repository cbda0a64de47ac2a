import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOCALES } from '../../domain/locale.ts'
import { readPoEntries } from '../../locale/po-reader.ts'
import { MAIL_MESSAGES } from '../mail/messages.ts'
import { KEEPSAKE_MESSAGES } from '../share/messages.ts'
import { type ServerMessage, say, sayAll } from './i18n.ts'
import { sourcePath } from './paths.ts'

// The server's words are Lingui messages (./i18n.ts): each one its modules declare is in the server's
// catalogs with a French and a German translation, and Lingui's message format counts right.

const SERVER = sourcePath('server')

function messageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return messageFiles(path)
    return /messages.*\.ts$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

const isMessage = (node: unknown): node is ServerMessage =>
  typeof node === 'object' && node !== null && 'id' in node && 'message' in node

function messagesIn(node: unknown): ServerMessage[] {
  if (isMessage(node)) return [node]
  if (typeof node !== 'object' || node === null) return []
  return Object.values(node).flatMap(messagesIn)
}

const catalog = (locale: string) =>
  new Map(
    readPoEntries(readFileSync(sourcePath('locale', 'server', locale, 'messages.po'), 'utf8')).map(
      (e) => [e.id, e.str],
    ),
  )

const files = messageFiles(SERVER)
const declared = (
  await Promise.all(files.map(async (file) => messagesIn(Object.values(await import(file)))))
).flat()

describe("the server's messages", () => {
  it('are declared in its modules (the check itself)', () => {
    expect(files.map((f) => relative(SERVER, f))).toContain('mail/messages.ts')
    expect(declared.length).toBeGreaterThan(150)
    expect(new Set(declared.map((m) => m.id)).size).toBe(declared.length)
  })

  it('are each in the English catalog as the code writes them (npm run lingui:extract)', () => {
    const english = catalog('en')
    const stale = declared.filter((m) => english.get(m.id) !== m.message).map((m) => m.id)
    expect(stale).toEqual([])
  })

  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`are each translated into ${locale}`, () => {
      const translated = catalog(locale)
      const missing = declared.filter((m) => !translated.get(m.id)?.trim()).map((m) => m.id)
      expect(missing).toEqual([])
    })
  }

  it('count as each language does: one play, several plays', () => {
    const playedOf = (locale: string, proven: number, due: number) =>
      say(locale, MAIL_MESSAGES.playedOf, { proven, due })
    expect(playedOf('fr', 1, 3)).toBe('1 diffusion sur 3')
    expect(playedOf('fr', 3, 3)).toBe('3 diffusions sur 3')
    expect(playedOf('en', 1, 1)).toBe('1 of 1 play')
    expect(playedOf('en', 1, 3)).toBe('1 of 3 plays')
    expect(playedOf('de', 0, 1)).toBe('0 von 1 Ausstrahlung')
    const played = (count: number) =>
      sayAll('fr', KEEPSAKE_MESSAGES).played({ count, day: 'vendredi 27 novembre', time: '18:01' })
    expect(played(1)).toBe('Diffusé une fois le vendredi 27 novembre, à 18:01')
    expect(played(4)).toBe('Diffusé 4 fois le vendredi 27 novembre, d’abord à 18:01')
  })

  it('fall back to the English of a message no catalog has yet', () => {
    expect(say('fr', { id: 'not.extracted.yet', message: 'Hello {name}' }, { name: 'Ana' })).toBe(
      'Hello Ana',
    )
  })
})
