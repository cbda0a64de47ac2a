import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from './client.ts'
import { sql } from './sql.ts'

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations')

// Versioned SQL files applied in file-name order, each inside its own transaction, recorded in
// schema_migrations. An advisory lock keeps two servers starting at once on one PostgreSQL from racing.
export async function applyMigrations(
  database: Database,
  dir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name))
    .sort()
  const applied: string[] = []
  for (const name of files) {
    const text = readFileSync(join(dir, name), 'utf8')
    const ran = await database.transaction(async (tx) => {
      await tx.query(sql`select pg_advisory_xact_lock(727274)`)
      await tx.exec(
        'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
      )
      const done = await tx.query(sql`select 1 from schema_migrations where name = ${name}`)
      if (done.length > 0) return false
      await tx.exec(text)
      await tx.query(sql`insert into schema_migrations (name) values (${name})`)
      return true
    })
    if (ran) applied.push(name)
  }
  return applied
}

/** The migration files not yet recorded as applied. */
export async function pendingMigrations(
  database: Pick<Database, 'query'>,
  dir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const files = readdirSync(dir).filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name))
  const rows = await database.query(sql<{ name: string }>`select name from schema_migrations`)
  const applied = new Set(rows.map((row) => row.name))
  return files.filter((name) => !applied.has(name)).sort()
}
