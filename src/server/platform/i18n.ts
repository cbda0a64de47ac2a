import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type I18n, type Messages, setupI18n } from '@lingui/core'
import type { Locale } from '../../domain/locale.ts'
import { readPoEntries } from '../../locale/po-reader.ts'
import { BUNDLE_DIR, BUNDLED, sourcePath } from './paths.ts'

// What the server writes in a reader's language on its own (mails, push notifications, share
// pages, invoices, the house card, problems) is formatted by Lingui, from the Lingui catalogs: the
// shop's (src/locale/locales: its problems and words, which the house card shows too) and the
// server's own (src/locale/server: every message the server declares, lingui.config.ts). A message is
// declared where it is used as a descriptor marked for extraction (`/*i18n*/ { id, message }`, the
// English its source), so translators work in the .po files only, and Lingui's message format
// (plurals, selects, numbers) reads right in every language.
//
// The bundle loads the catalogs `npm run build` compiled (scripts/build-server.ts: build/node/locale);
// the sources (tests, tools) read the .po files, which Lingui compiles as it first uses a message
// (its development compiler: under NODE_ENV=production @lingui/core has none, and a process run from
// the sources so would print a message with a plural as written; production runs the bundle).

/** A message the server says: its id in the catalogs, and its English. */
export type ServerMessage = { readonly id: string; readonly message: string }

/** The values a message is filled with: `{name}`, `{n, plural, …}`, `{x, select, …}`, `{x, number}`. */
export type MessageValues = Readonly<Record<string, string | number>>

/** The catalogs the server reads, under src/locale, later ones over earlier ones. */
const CATALOG_DIRS = ['locales', 'server'] as const

/** Where the build writes the compiled catalogs of the bundle, one JSON file per locale. */
export const COMPILED_CATALOGS_DIR = join(BUNDLE_DIR, 'locale')

/**
 * A locale's messages as the .po files write them, by id (a message's own id, or its English
 * msgid): English where the locale has no translation.
 */
export function sourceMessages(locale: string): Record<string, string> {
  const messages: Record<string, string> = {}
  for (const dir of CATALOG_DIRS) {
    const read = (name: string) => {
      const file = sourcePath('locale', dir, name, 'messages.po')
      return existsSync(file) ? readPoEntries(readFileSync(file, 'utf8')) : []
    }
    const translated = new Map(read(locale).map((e) => [e.id, e.str]))
    for (const entry of read('en')) {
      const english = entry.str || (entry.explicitId ? '' : entry.id)
      messages[entry.id] = translated.get(entry.id) || english
    }
  }
  return messages
}

const instances = new Map<string, I18n>()

/** The Lingui instance of a locale, its catalogs loaded once. */
export function i18nOf(locale: Locale | string): I18n {
  let i18n = instances.get(locale)
  if (!i18n) {
    const compiled = join(COMPILED_CATALOGS_DIR, `${locale}.json`)
    const messages: Messages =
      BUNDLED && existsSync(compiled)
        ? (JSON.parse(readFileSync(compiled, 'utf8')) as Messages)
        : sourceMessages(locale)
    i18n = setupI18n({ locale, messages: { [locale]: messages } })
    instances.set(locale, i18n)
  }
  return i18n
}

/** A message in a locale, its values filled in by Lingui's message format. */
export function say(
  locale: Locale | string,
  message: ServerMessage,
  values?: MessageValues,
): string {
  return i18nOf(locale)._(message.id, values, { message: message.message })
}

/** A tree of messages as functions that say each in one locale. */
export type Said<T> = T extends ServerMessage
  ? (values?: MessageValues) => string
  : { readonly [K in keyof T]: Said<T[K]> }

const isMessage = (node: object): node is ServerMessage =>
  typeof (node as ServerMessage).id === 'string' &&
  typeof (node as ServerMessage).message === 'string'

/** Every message of a tree (a module's `*_MESSAGES`), each a function saying it in a locale. */
export function sayAll<T extends object>(locale: Locale | string, messages: T): Said<T> {
  const walk = (node: object): unknown => {
    if (isMessage(node)) return (values?: MessageValues) => say(locale, node, values)
    if (Array.isArray(node)) return node.map(walk)
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]))
  }
  return walk(messages) as Said<T>
}
