import { createHash } from 'node:crypto'
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

// Each number names one migration (a lint test holds it). Two pairs once shared a number and ran in
// alphabetical order; their second files were given the next free numbers, which keeps that order. A
// database that applied a file under its old name has its record renamed, not the file run again.
export const RENAMED_MIGRATIONS: Readonly<Record<string, string>> = {
  '0024_ad_settlement.sql': '0027_ad_settlement.sql',
  '0032_erasure_signed_links.sql': '0033_erasure_signed_links.sql',
}

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

/** A migration file's checksum: kept when it is applied, compared at every start. */
const checksumOf = (dir: string, name: string): string =>
  createHash('sha256')
    .update(readFileSync(join(dir, name)))
    .digest('hex')

/** A migration edited after it ran: the database no longer matches what its files say. */
export class MigrationChangedError extends Error {
  constructor(readonly migrations: string[]) {
    super(
      `migrations changed after they were applied: ${migrations.join(', ')}; write a new migration instead of editing one that ran`,
    )
  }
}

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
  const files = migrationFiles(dir)
  // Most starts find every migration applied and checksummed: one read says so, where taking the lock
  // and looking file by file cost a transaction per migration (about a second of every test server's
  // start). What the read finds to do is done under the lock, checked again there.
  const recorded = await recordedMigrations(database)
  if (recorded) checkUnchanged(recorded, files, dir)
  const settled =
    recorded !== null &&
    files.every((name) => recorded.get(name)) &&
    !Object.keys(RENAMED_MIGRATIONS).some((old) => recorded.has(old))
  if (!settled) await bookkeep(database, files, dir)
  const applied: string[] = []
  const pending = settled ? [] : await pendingMigrations(database, dir)
  for (const name of pending) {
    const ran = await database.transaction(async (tx) => {
      await tx.query(sql`select pg_advisory_xact_lock(727274)`)
      const done = await tx.query(sql`select 1 from schema_migrations where name = ${name}`)
      if (done.length > 0) return false
      await run(tx, dir, name)
      await tx.query(
        sql`insert into schema_migrations (name, checksum) values (${name}, ${checksumOf(dir, name)})`,
      )
      return true
    })
    if (ran) applied.push(name)
  }
  return applied
}

/** Each applied migration with its checksum (null when it ran before checksums were kept), or null before the first. */
async function recordedMigrations(
  database: Pick<Database, 'query'>,
): Promise<Map<string, string | null> | null> {
  const [table] = await database.query(
    sql<{ found: boolean }>`select to_regclass('schema_migrations') is not null as found`,
  )
  if (!table?.found) return null
  // read through to_jsonb so that a table made before the checksum column answers too
  const rows = await database.query(
    sql<{
      name: string
      checksum: string | null
    }>`select name, to_jsonb(m)->>'checksum' as checksum from schema_migrations m`,
  )
  return new Map(rows.map((row) => [row.name, row.checksum]))
}

function checkUnchanged(
  recorded: ReadonlyMap<string, string | null>,
  files: readonly string[],
  dir: string,
): void {
  const changed = files.filter((name) => {
    const kept = recorded.get(name)
    return kept ? kept !== checksumOf(dir, name) : false
  })
  if (changed.length > 0) throw new MigrationChangedError(changed)
}

/** The table, its checksum column, renamed files' records and the checksums of migrations that ran before them. */
async function bookkeep(database: Database, files: readonly string[], dir: string): Promise<void> {
  await database.transaction(async (tx) => {
    await tx.query(sql`select pg_advisory_xact_lock(727274)`)
    await tx.exec(
      'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    )
    await tx.exec('alter table schema_migrations add column if not exists checksum text')
    for (const [old, name] of Object.entries(RENAMED_MIGRATIONS)) {
      await tx.query(sql`update schema_migrations set name = ${name} where name = ${old}`)
    }
    const unsummed = await tx.query(
      sql<{ name: string }>`select name from schema_migrations where checksum is null`,
    )
    for (const { name } of unsummed) {
      if (!files.includes(name)) continue
      await tx.query(
        sql`update schema_migrations set checksum = ${checksumOf(dir, name)} where name = ${name}`,
      )
    }
  })
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
