import type { I18n, MessageDescriptor } from '@lingui/core'
import { wordTableOf } from '../../contract/problem-words'
import type { ProblemData } from '../../domain/problems'

// A problem in the reader's language, by its code: the catalogs' message whose id is the code (its
// English is the contract's catalogue's, src/contract/problems.ts, read by Lingui's extraction), with
// its values written in. The app has no sentence of its own for a problem and never matches English.

type Values = Record<string, string | number>

/**
 * The text of a problem: a value that is a key of a table of words ({agreement: 'terms'}) as its
 * translated word, a problem given as a value as its own text. Without a message for the code (a
 * newer server's code, or the part of the catalog not loaded yet), the English the server sent,
 * else the code.
 */
export function problemText(i18n: I18n, problem: ProblemData, sent?: string): string {
  if (!Object.hasOwn(i18n.messages, problem.code)) return sent ?? problem.code
  const values: Values = {}
  for (const [name, value] of Object.entries(problem.params ?? {})) {
    if (typeof value === 'object') {
      values[name] = problemText(i18n, value)
      continue
    }
    const table = wordTableOf(problem.code, name)
    const wordId = `${table}.${value}`
    values[name] = table && typeof value === 'string' ? i18n._(wordId) : value
  }
  // built apart from the call: Lingui's extractor reads an object given to i18n._ as a message
  const descriptor: MessageDescriptor = { id: problem.code, values }
  return i18n._(descriptor)
}
