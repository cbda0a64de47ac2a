// SQL as tagged templates: sql`select ... where guid = ${guid}` is a statement with its values apart
// (one style for every query, drizzle gone, the migrations the only schema). A value is
// always a parameter ($1, $2, ...), never spliced into the text; a nested sql`` fragment is spliced
// with its own values renumbered, so a query can be put together from parts (an ORDER BY chosen from a
// fixed map, a direction) without any way to put a caller's string into the text.
//
// The row type is declared by the query's author (sql<EventRow>`...`): the repos alias columns to the
// names of that type, and the API tests run every query against the migrated database on PGlite and
// PostgreSQL alike.

const FRAGMENT: unique symbol = Symbol('sql fragment')

export type Row = Record<string, unknown>

export type Sql<T extends Row = Row> = {
  readonly [FRAGMENT]: true
  readonly strings: readonly string[]
  readonly values: readonly unknown[]
  /** Only a type: the shape of a row this statement returns. */
  readonly row?: T
}

export function sql<T extends Row = Row>(
  strings: TemplateStringsArray,
  ...values: unknown[]
): Sql<T> {
  return { [FRAGMENT]: true, strings: [...strings], values }
}

const isFragment = (value: unknown): value is Sql =>
  typeof value === 'object' && value !== null && FRAGMENT in value

/** Fragments joined by a separator (a fragment too): column lists, value lists. */
export function joinSql(parts: readonly Sql[], separator: Sql = sql`, `): Sql {
  if (parts.length === 0) return sql``
  const strings: string[] = ['']
  const values: unknown[] = []
  parts.forEach((part, i) => {
    const piece = i === 0 ? part : sql`${separator}${part}`
    values.push(piece)
    strings.push('')
  })
  return { [FRAGMENT]: true, strings, values }
}

/**
 * A jsonb value: its JSON text, for a `${json(x)}::jsonb` parameter. Both drivers would turn a JS
 * array into a PostgreSQL array, so JSON is always sent as text.
 */
export const json = (value: unknown): string => JSON.stringify(value)

/** The text with $n placeholders and the values in order, as both drivers take them. */
export function compile(query: Sql): { text: string; values: unknown[] } {
  const values: unknown[] = []
  const walk = (q: Sql): string => {
    let text = q.strings[0] ?? ''
    q.values.forEach((value, i) => {
      if (isFragment(value)) text += walk(value)
      else {
        values.push(value)
        text += `$${values.length}`
      }
      text += q.strings[i + 1] ?? ''
    })
    return text
  }
  const text = walk(query)
  return { text, values }
}
