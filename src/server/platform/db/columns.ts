import { at, epochMs, identifier, joinSql, json, type Row, type Sql, sql } from './sql.ts'

// A table's columns declared once, by the field names of the row type the code uses: the map
// writes the select list (`d.device_id as "deviceId"`), the insert list and its values, and an
// upsert's `set` from that one declaration, so a new column is one line here and the names in
// the SQL cannot drift from the type's. The map's type is tied to the row type: a field the type
// gains and the map lacks fails the typecheck.

/** How a field is kept. */
export type Column =
  /** a column whose value is sent and read as it is */
  | string
  /** a column whose parameter is cast (a null's type is not guessed from the column everywhere) */
  | { readonly column: string; readonly cast: 'int' | 'bigint' | 'float8' | 'text' }
  /** a jsonb column: read parsed, sent as JSON text (both drivers would make a JS array an array) */
  | { readonly column: string; readonly json: true }
  /** a {lat, lng} point kept in two columns */
  | { readonly lat: string; readonly lng: string }
  /**
   * a timestamptz column the code knows as epoch milliseconds: read as a float8 (whole ones with
   * `floor`), sent as its ISO text (sql.ts at, epochMs)
   */
  | { readonly column: string; readonly epochMs: true; readonly floor?: true }

export type Columns<T> = { readonly [K in keyof T]-?: Column }

export type ColumnMap<T extends Row> = {
  readonly table: string
  readonly columns: Columns<T>
  readonly fields: readonly (keyof T & string)[]
  /** `d.col as "field", ...` for the fields named (every field without a list). */
  select(options?: {
    /** the table's alias in the query */
    from?: string
    fields?: readonly (keyof T & string)[]
  }): Sql
  /**
   * `"table" (col, ...) values (value, ...)` for one row, after `insert into`, with extra columns
   * written in SQL (`{ updated_at: sql\`now()\` }`).
   */
  insert(row: T, extra?: Readonly<Record<string, Sql>>): Sql
  /** `col = excluded.col, ...` for every field but the keys, and the extra columns. */
  set(keys: readonly (keyof T & string)[], extra?: readonly string[]): Sql
  /** The insert that updates the row of the same keys instead (`on conflict (keys) do update`). */
  upsert(row: T, keys: readonly (keyof T & string)[], extra?: Readonly<Record<string, Sql>>): Sql
}

const CASTS = { int: sql`int`, bigint: sql`bigint`, float8: sql`float8`, text: sql`text` }

const columnNames = (c: Column): string[] =>
  typeof c === 'string' ? [c] : 'lat' in c ? [c.lat, c.lng] : [c.column]

function valuesOf(c: Column, value: unknown): Sql[] {
  if (typeof c === 'string') return [sql`${value}`]
  if ('lat' in c) {
    const point = value as { lat: number; lng: number }
    return [sql`${point.lat}`, sql`${point.lng}`]
  }
  if ('json' in c)
    return [sql`${value === null || value === undefined ? null : json(value)}::jsonb`]
  if ('epochMs' in c) return [at((value as number | null | undefined) ?? null)]
  return [sql`${value ?? null}::${CASTS[c.cast]}`]
}

function selected(c: Column, field: string, from: Sql): Sql {
  if (typeof c !== 'string' && 'lat' in c) {
    const [lat, lng] = [identifier(c.lat), identifier(c.lng)]
    return sql`json_build_object('lat', ${from}${lat}, 'lng', ${from}${lng}) as ${identifier(field)}`
  }
  const [name = ''] = columnNames(c)
  if (typeof c !== 'string' && 'epochMs' in c) {
    const ms = epochMs(sql`${from}${identifier(name)}`)
    return sql`${c.floor ? sql`floor(${ms})` : ms} as ${identifier(field)}`
  }
  return sql`${from}${identifier(name)} as ${identifier(field)}`
}

export function columnMap<T extends Row>(table: string, columns: Columns<T>): ColumnMap<T> {
  const fields = Object.keys(columns) as (keyof T & string)[]
  const column = (field: keyof T & string): Column => {
    const c = columns[field]
    if (c === undefined) throw new Error(`${table} has no field ${field}`)
    return c
  }
  const names = (list: readonly string[]) => joinSql(list.map(identifier))
  const map: ColumnMap<T> = {
    table,
    columns,
    fields,
    select: (options = {}) => {
      const from = options.from ? sql`${identifier(options.from)}.` : sql``
      const chosen = options.fields ?? fields
      return joinSql(chosen.map((f) => selected(column(f), f, from)))
    },
    insert: (row, extra = {}) => {
      const extraNames = Object.keys(extra)
      const cols = [...fields.flatMap((f) => columnNames(column(f))), ...extraNames]
      const values = [
        ...fields.flatMap((f) => valuesOf(column(f), row[f])),
        ...extraNames.map((name) => extra[name] ?? sql`default`),
      ]
      return sql`${identifier(table)} (${names(cols)}) values (${joinSql(values)})`
    },
    set: (keys, extra = []) => {
      const cols = [
        ...fields.filter((f) => !keys.includes(f)).flatMap((f) => columnNames(column(f))),
        ...extra,
      ]
      return joinSql(cols.map((c) => sql`${identifier(c)} = excluded.${identifier(c)}`))
    },
    upsert: (row, keys, extra = {}) => {
      const conflict = names(keys.flatMap((k) => columnNames(column(k))))
      return sql`insert into ${map.insert(row, extra)}
        on conflict (${conflict}) do update set ${map.set(keys, Object.keys(extra))}`
    },
  }
  return map
}
