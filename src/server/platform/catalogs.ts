import { wordTableOf } from '../../contract/problem-words.ts'
import type { ProblemData } from '../../domain/problems.ts'
import { i18nOf, type MessageValues } from './i18n.ts'

// The shop's Lingui catalogs (src/locale/locales/{locale}/messages.po), read by what the server
// writes in a shopper's language on its own: the mails' problems, the house card. A message is found
// by its msgid and formatted by Lingui (./i18n.ts); a problem is the message whose id is its code (the
// catalogue's English in the English catalog, lingui.config.ts), as the app translates it.

/** A message of the catalog of a locale by its msgid, its values filled in (the msgid if none). */
export function translate(locale: string, msgid: string, values: MessageValues = {}): string {
  return i18nOf(locale)._(msgid, values)
}

/**
 * A problem in a locale: its code's message, a key of a table of words as its word, a problem given
 * as a value as its own text. A code the catalogs do not have is written as the code.
 */
export function problemIn(locale: string, problem: ProblemData): string {
  const i18n = i18nOf(locale)
  if (!Object.hasOwn(i18n.messages, problem.code)) return problem.code
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
  return i18n._(problem.code, values)
}
