import { wordTableOf } from '../../../contract/problem-words.ts'
import { PROBLEMS, type ProblemCode, WORDS } from '../../../contract/problems.ts'
import type { ProblemData, ProblemParams } from '../../../domain/problems.ts'
import type { Transaction } from './client.ts'
import { json, type Sql } from './sql.ts'

// Reading back what the shop once stored in English (decision 021: stored failures are problems),
// for the migrations that convert it (0010 content's, 0021 the orders'): each text is matched
// against the catalogue's templates into its code and params, once; a text no template makes is
// kept whole as plain_text. Only migrations use this: the code never reads English back.

// Templates that match any text say nothing of where it came from: never matched against.
const UNMATCHABLE = new Set<ProblemCode>(['plain_text', 'invalid_input', 'field_invalid'])

type Template = { code: ProblemCode; pattern: RegExp; names: string[]; literal: number }

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const TEMPLATES: Template[] = (Object.keys(PROBLEMS) as ProblemCode[])
  .filter((code) => !UNMATCHABLE.has(code))
  .map((code) => {
    const en = PROBLEMS[code].en
    const names: string[] = []
    const source = en
      .split(/(\{\w+(?:, \w+)?\})/)
      .map((part) => {
        const name = /^\{(\w+)(?:, \w+)?\}$/.exec(part)?.[1]
        if (!name) return escapeRegExp(part)
        names.push(name)
        return '(.+?)'
      })
      .join('')
    return {
      code,
      pattern: new RegExp(`^${source}$`, 's'),
      names,
      literal: en.replace(/\{\w+(?:, \w+)?\}/g, '').length,
    }
  })
  .filter((t) => t.literal >= 6)
  // the most specific first: the longest literal text, before shorter ones it could contain
  .sort((a, b) => b.literal - a.literal)

/** A word written back into its key ('terms and conditions' -> 'terms'), when the param has a table. */
function keyOfWord(code: ProblemCode, name: string, value: string): string {
  const table = wordTableOf(code, name)
  if (!table || !Object.hasOwn(WORDS, table)) return value
  const words: Record<string, string> = WORDS[table as keyof typeof WORDS]
  return Object.entries(words).find(([, word]) => word === value)?.[0] ?? value
}

/** The problem an English text of the shop was made from, or null when no template makes it. */
export function problemOfText(text: string): ProblemData | null {
  for (const template of TEMPLATES) {
    const match = template.pattern.exec(text)
    if (!match) continue
    if (template.names.length === 0) return { code: template.code }
    const params: Record<string, ProblemParams[string]> = {}
    template.names.forEach((name, i) => {
      const value = match[i + 1] ?? ''
      if (/^\d+$/.test(value)) params[name] = Number(value)
      else params[name] = problemOfText(value) ?? keyOfWord(template.code, name, value)
    })
    return { code: template.code, params }
  }
  return null
}

/** A stored failure: its problem, or the text kept whole. */
export const storedProblem = (text: string): ProblemData =>
  problemOfText(text) ?? { code: 'plain_text', params: { text } }

export const plainTextOf = (column: string) =>
  `case when ${column} is null then null else jsonb_build_object('code', 'plain_text', 'params', jsonb_build_object('text', ${column})) end`

export type StoredText = { key: string; text: string; actor?: string; state?: string }

/**
 * A text column becomes jsonb: each stored text is read back with `convert`. `read` answers the
 * rows (key, text) once the column holds plain_text; `write` stores a row's problem.
 */
export async function convertColumn(
  tx: Transaction,
  table: string,
  column: string,
  read: Sql<StoredText>,
  write: (key: string, value: string) => Sql,
  convert: (row: StoredText) => unknown,
): Promise<void> {
  await tx.exec(
    `alter table ${table} alter column ${column} type jsonb using ${plainTextOf(column)}`,
  )
  for (const row of await tx.query(read)) await tx.query(write(row.key, json(convert(row))))
}
