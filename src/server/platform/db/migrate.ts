import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BUNDLED, sourcePath } from '../paths.ts'
import type { Database, Transaction } from './client.ts'
import { sql } from './sql.ts'

export const MIGRATIONS_DIR = sourcePath('server', 'platform', 'db', 'migrations')

// Versioned migrations applied in file-name order, each inside its own transaction, recorded in
// schema_migrations. An advisory lock keeps two servers starting at once on one PostgreSQL from racing.
// A migration is SQL (`NNNN_name.sql`), or, when it converts data with the code's own rules (stored
// English read back into problems, 0010), a module (`NNNN_name.ts`) exporting `migrate(tx)`: it runs
// in the same transaction, through the same statements, on PGlite and PostgreSQL alike.

const MIGRATION_FILE = /^\d{4}_[\w-]+\.(sql|ts)$/

/** A migration written as code: it gets the migration's transaction. */
export type CodeMigration = { migrate(tx: Transaction): Promise<void> }

// The code migrations by name, imported here so that the server's bundle holds them (it has no
// compiler to load a .ts file at run time). A code migration missing from this list fails loudly.
const CODE_MIGRATIONS: Record<string, () => Promise<CodeMigration>> = {
  '0010_problems.ts': () => import('./migrations/0010_problems.ts'),
  '0021_stored_problems.ts': () => import('./migrations/0021_stored_problems.ts'),
}

/** The migration files of a directory, in the order they are applied. */
export const migrationFiles = (dir: string = MIGRATIONS_DIR): string[] =>
  readdirSync(dir)
    .filter((name) => MIGRATION_FILE.test(name) && !name.endsWith('.test.ts'))
    .sort()

async function run(tx: Transaction, dir: string, name: string): Promise<void> {
  if (name.endsWith('.sql')) {
    await tx.exec(readFileSync(join(dir, name), 'utf8'))
    return
  }
  const listed = dir === MIGRATIONS_DIR ? CODE_MIGRATIONS[name] : undefined
  if (!listed && (BUNDLED || dir === MIGRATIONS_DIR)) {
    throw new Error(`migration ${name} is code but not in migrate.ts's CODE_MIGRATIONS`)
  }
  // another directory's code migrations (a test's) are loaded from their files
  const module = listed
    ? await listed()
    : ((await import(pathToFileURL(join(dir, name)).href)) as CodeMigration)
  await module.migrate(tx)
}

export async function applyMigrations(
  database: Database,
  dir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const applied: string[] = []
  // Most starts find every migration applied: one read says so, where taking the lock and looking
  // file by file cost a transaction per migration (about a second of every test server's start).
  // What the read finds pending is still applied under the lock, checked again there.
  const pending = await unappliedMigrations(database, dir)
  for (const name of pending) {
    const ran = await database.transaction(async (tx) => {
      await tx.query(sql`select pg_advisory_xact_lock(727274)`)
      await tx.exec(
        'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
      )
      const done = await tx.query(sql`select 1 from schema_migrations where name = ${name}`)
      if (done.length > 0) return false
      await run(tx, dir, name)
      await tx.query(sql`insert into schema_migrations (name) values (${name})`)
      return true
    })
    if (ran) applied.push(name)
  }
  return applied
}

async function unappliedMigrations(
  database: Pick<Database, 'query'>,
  dir: string,
): Promise<string[]> {
  const [table] = await database.query(
    sql<{ found: boolean }>`select to_regclass('schema_migrations') is not null as found`,
  )
  return table?.found ? pendingMigrations(database, dir) : migrationFiles(dir)
}

/** The migration files not yet recorded as applied. */
export async function pendingMigrations(
  database: Pick<Database, 'query'>,
  dir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const rows = await database.query(sql<{ name: string }>`select name from schema_migrations`)
  const applied = new Set(rows.map((row) => row.name))
  return migrationFiles(dir).filter((name) => !applied.has(name))
}
