// SQL as tagged templates: sql`select ... where guid = ${guid}` is a statement with its values apart
// (one style for every query, drizzle gone, the migrations the only schema). A value is
// always a parameter ($1, $2, ...), never spliced into the text; a nested sql`` fragment is spliced
// with its own values renumbered, so a query can be put together from parts (an ORDER BY chosen from a
// fixed map, a direction) without any way to put a caller's string into the text.
//
// The row type is declared by the query's author (sql<EventRow>`...`): a table's column map
// (columns.ts) writes the aliases to the names of that type, and the API tests run every query
// against the migrated database on PGlite and PostgreSQL alike and parse the answers with the
// contract's schemas.

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

/** A timestamp as its ISO text (how both drivers take a timestamptz parameter). */
export const iso = (epochMs: number): string => new Date(epochMs).toISOString()

/** A timestamptz parameter from epoch milliseconds (null stays null). */
export const at = (epochMs: number | null): Sql =>
  sql`${epochMs === null ? null : iso(epochMs)}::timestamptz`

/** A timestamptz column (or expression) as epoch milliseconds, a float8 both drivers read as a number. */
export const epochMs = (column: Sql): Sql => sql`(extract(epoch from ${column}) * 1000)::float8`

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * A column, table or alias name spliced into the text, quoted. Only names written in the code (a
 * column map) come here, and anything but letters, digits and underscores is refused.
 */
export function identifier(name: string): Sql {
  if (!IDENTIFIER.test(name)) throw new Error(`not an SQL identifier: ${name}`)
  return { [FRAGMENT]: true, strings: [`"${name}"`], values: [] }
}

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
