import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from './client.ts'

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
    const ran = await database.transaction(async (run) => {
      await run('select pg_advisory_xact_lock(727274)')
      await run(
        'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
      )
      const done = await run('select 1 from schema_migrations where name = $1', [name])
      if (done.length > 0) return false
      await run(text)
      await run('insert into schema_migrations (name) values ($1)', [name])
      return true
    })
    if (ran) applied.push(name)
  }
  return applied
}
