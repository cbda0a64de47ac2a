import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DeviceSchema } from '../../src/contract/catalogue.ts'
import { DEVICES } from '../../src/server/catalogue/columns.ts'
import type { Column } from '../../src/server/platform/db/columns.ts'
import { MIGRATIONS_DIR, migrationFiles } from '../../src/server/platform/db/migrate.ts'

// docs/architecture.md, "A new billboard field": one migration, one line of the billboards' column
// map, the contract, the format, the page and their tests. The SQL is written from the map, and the
// typecheck holds the map to the file format's fields and the contract's; this test holds the rest of
// the list together: the migrations' columns are the map's, and the two documents name every field.

const root = join(import.meta.dirname, '..', '..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')

/** The columns the migrations give `devices`: its create statement and every `add column`. */
function migratedColumns(table: string): string[] {
  const columns: string[] = []
  for (const name of migrationFiles().filter((file) => file.endsWith('.sql'))) {
    const text = readFileSync(join(MIGRATIONS_DIR, name), 'utf8').replace(/--.*$/gm, '')
    const created = new RegExp(`create table ${table} \\(([\\s\\S]*?)\\n\\);`).exec(text)
    for (const line of created?.[1]?.split(',\n') ?? []) {
      const column = /^\s*([a-z_]+)\s/.exec(line)?.[1]
      if (column && column !== 'constraint' && column !== 'primary') columns.push(column)
    }
    for (const altered of text.matchAll(new RegExp(`alter table ${table}\\b([^;]*);`, 'g'))) {
      for (const added of (altered[1] ?? '').matchAll(/add column (?:if not exists )?([a-z_]+)/g)) {
        columns.push(added[1] ?? '')
      }
    }
  }
  return columns
}

const columnsOf = (c: Column): string[] =>
  typeof c === 'string' ? [c] : 'lat' in c ? [c.lat, c.lng] : [c.column]

describe('a billboard field', () => {
  it('is a column of the migrations and a line of the column map, one for one', () => {
    const mapped = Object.values<Column>(DEVICES.columns).flatMap(columnsOf)
    // updated_at is the import's own, written beside the map
    const migrated = migratedColumns('devices').filter((column) => column !== 'updated_at')
    expect(migrated.length).toBeGreaterThan(10)
    expect([...mapped].sort()).toEqual([...migrated].sort())
  })

  it('given to shoppers is one the column map reads', () => {
    // what the shop works out per answer: the event's own availability, the country's ISO code
    const derived = new Set(['unavailableForEvent', 'countryCode'])
    const shown = Object.keys(DeviceSchema.entries).filter((f) => !derived.has(f))
    expect(shown.filter((field) => !DEVICES.fields.includes(field as never))).toEqual([])
  })

  it('is documented in the catalogue format, and the contract’s ones in the API reference', () => {
    const format = read('docs/catalogue-format.md')
    expect(DEVICES.fields.filter((field) => !format.includes(`"${field}"`))).toEqual([])
    const deviceLine = read('docs/api-v1.md')
      .split('\n')
      .find((line) => line.startsWith('`Device`:'))
    const named = Object.keys(DeviceSchema.entries).filter((f) => !deviceLine?.includes(f))
    expect(named).toEqual([])
  })
})
