import { readFileSync } from 'node:fs'
import { wordTableOf } from '../../contract/problem-words.ts'
import type { ProblemData } from '../../domain/problems.ts'
import { readPoEntries } from '../../locale/po-reader.ts'
import { sourcePath } from './paths.ts'

// The shop's Lingui catalogs (src/locale/locales/{locale}/messages.po), read by what the server
// writes in a shopper's language on its own: the mails, the house card. The server has no Lingui: a
// message is its msgstr, `{name}` filled in; a problem is the message whose id is its code (the
// catalogue's English in the English catalog, lingui.config.ts), as the app translates it.

const LOCALES_DIR = sourcePath('locale', 'locales')
const catalogs = new Map<string, Map<string, string>>()

function catalogOf(locale: string): Map<string, string> {
  let catalog = catalogs.get(locale)
  if (!catalog) {
    const text = readFileSync(`${LOCALES_DIR}/${locale}/messages.po`, 'utf8')
    catalog = new Map(readPoEntries(text).map((e) => [e.id, e.str]))
    catalogs.set(locale, catalog)
  }
  return catalog
}

/** A message's `{name}`s filled in; `{name, number}` with the locale's grouping (ICU's number). */
const fill = (
  text: string,
  values: Readonly<Record<string, string | number>>,
  locale = 'en',
): string =>
  text.replace(/\{(\w+)(, number)?\}/g, (whole, name: string, number?: string) => {
    const value = values[name]
    if (value === undefined) return whole
    return number && typeof value === 'number' ? value.toLocaleString(locale) : String(value)
  })

/** A message of the catalog of a locale by its msgid, its `{name}`s filled in (the msgid if none). */
export function translate(
  locale: string,
  msgid: string,
  values: Readonly<Record<string, string>> = {},
): string {
  return fill(catalogOf(locale).get(msgid) || msgid, values)
}

/**
 * A problem in a locale: its code's message, a key of a table of words as its word, a problem given
 * as a value as its own text. A code the catalog does not have is written as the English sent (or
 * the code).
 */
export function problemIn(locale: string, problem: ProblemData): string {
  const catalog = catalogOf(locale)
  const message = catalog.get(problem.code) || catalogOf('en').get(problem.code)
  if (!message) return problem.code
  const values: Record<string, string | number> = {}
  for (const [name, value] of Object.entries(problem.params ?? {})) {
    if (typeof value === 'object') {
      values[name] = problemIn(locale, value)
      continue
    }
    const table = wordTableOf(problem.code, name)
    values[name] =
      table && typeof value === 'string' ? translate(locale, `${table}.${value}`) : value
  }
  return fill(message, values, locale)
}
