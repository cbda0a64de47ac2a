import { describe, expect, it } from 'vitest'
import de from './locales/de/messages.po?raw'
import en from './locales/en/messages.po?raw'
import fr from './locales/fr/messages.po?raw'
import opsDe from './ops/de/messages.po?raw'
import opsEn from './ops/en/messages.po?raw'
import opsFr from './ops/fr/messages.po?raw'
import { englishOf, readPoEntries } from './po-reader'
import serverDe from './server/de/messages.po?raw'
import serverEn from './server/en/messages.po?raw'
import serverFr from './server/fr/messages.po?raw'
import { frenchTypography } from './typography'

// conventions §6: a message of the English catalog without a French or German translation fails.

// The catalogs as text (Vite's ?raw): the test reads them as the server does, with no Lingui loader.
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]).sort()

// The shop's catalogs, the operators' console's and the server's (catalogs of their own,
// lingui.config.ts: the server's mails, push notifications, share pages and invoices)
const catalogs = [
  { name: 'shop', en, fr, de, least: 100 },
  { name: 'console', en: opsEn, fr: opsFr, de: opsDe, least: 40 },
  { name: 'server', en: serverEn, fr: serverFr, de: serverDe, least: 150 },
]

for (const catalog of catalogs) {
  const english = readPoEntries(catalog.en)
  const translations = { fr: readPoEntries(catalog.fr), de: readPoEntries(catalog.de) }

  describe(`the ${catalog.name}'s catalogs`, () => {
    it('has English messages', () => {
      expect(english.length).toBeGreaterThan(catalog.least)
    })

    it('writes every French message with French typography (./typography.ts)', () => {
      const untypeset = translations.fr
        .filter((e) => e.str !== frenchTypography(e.str))
        .map((e) => `${e.str} -> ${frenchTypography(e.str)}`)
      expect(untypeset).toEqual([])
    })

    for (const locale of ['fr', 'de'] as const) {
      it(`translates every English message into ${locale}`, () => {
        const translated = new Map(translations[locale].map((e) => [e.id, e.str]))
        const missing = english.filter((e) => !translated.get(e.id)?.trim()).map((e) => e.id)
        expect(missing).toEqual([])
      })

      it(`keeps the placeholders of every message in ${locale}`, () => {
        const translated = new Map(translations[locale].map((e) => [e.id, e.str]))
        const broken = english
          .filter((e) => {
            const str = translated.get(e.id)
            return (
              str !== undefined && placeholders(str).join() !== placeholders(englishOf(e)).join()
            )
          })
          .map((e) => e.id)
        expect(broken).toEqual([])
      })
    }
  })
}
