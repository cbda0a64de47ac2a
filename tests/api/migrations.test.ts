// A database remembers what each migration was when it ran: a file edited afterwards stops the server at
// start, naming it, instead of leaving databases that differ by what they ran; a file given a new
// number is recognised by its old record, not run twice.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import {
  applyMigrations,
  MigrationChangedError,
  RENAMED_MIGRATIONS,
} from '../../src/server/platform/db/migrate.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { BACKENDS, freshDataDir, freshPostgres, type TestPostgres } from './databases.ts'

const exec = (database: Database, text: string) => database.transaction((tx) => tx.exec(text))

describe.each(BACKENDS)('migrations on %s', (backend) => {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function open(): Promise<Database> {
    const dataDir = await freshDataDir()
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    let postgres: TestPostgres | undefined
    if (backend === 'postgres') {
      postgres = await freshPostgres()
      const drop = postgres.drop
      cleanups.push(drop)
    }
    const database = await openDatabase({
      dataDir,
      databaseUrl: postgres?.url,
      guardTransactions: false,
    })
    cleanups.push(() => database.close())
    return database
  }

  function migrationsDir(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'shouts-migrations-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    return dir
  }

  it('runs each migration once and refuses to start when one that ran was edited', async () => {
    const database = await open()
    const dir = migrationsDir({
      '0001_first.sql': 'create table first_things (id int primary key);',
      '0002_second.sql': 'create table second_things (id int primary key);',
    })
    expect(await applyMigrations(database, dir)).toEqual(['0001_first.sql', '0002_second.sql'])
    expect(await applyMigrations(database, dir)).toEqual([])

    writeFileSync(
      join(dir, '0002_second.sql'),
      'create table second_things (id bigint primary key);',
    )
    const refused = await applyMigrations(database, dir).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(MigrationChangedError)
    expect((refused as MigrationChangedError).migrations).toEqual(['0002_second.sql'])
    expect(String((refused as Error).message)).toContain('0002_second.sql')
  })

  it('keeps the checksum of migrations that ran before checksums were kept, and checks it from then on', async () => {
    const database = await open()
    const dir = migrationsDir({
      '0001_first.sql': 'create table first_things (id int primary key);',
    })
    // a database as the code before checksums left it: the table without the column, the file applied
    await exec(
      database,
      'create table schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    )
    await exec(database, 'create table first_things (id int primary key)')
    await database.query(sql`insert into schema_migrations (name) values ('0001_first.sql')`)

    expect(await applyMigrations(database, dir)).toEqual([])
    const [row] = await database.query(
      sql<{
        checksum: string | null
      }>`select checksum from schema_migrations where name = '0001_first.sql'`,
    )
    expect(row?.checksum).toMatch(/^[0-9a-f]{64}$/)

    writeFileSync(join(dir, '0001_first.sql'), 'create table first_things (id text primary key);')
    await expect(applyMigrations(database, dir)).rejects.toBeInstanceOf(MigrationChangedError)
  })

  it('recognises a migration that was given a new number by the record of its old one', async () => {
    const [old, renamed] = Object.entries(RENAMED_MIGRATIONS)[0] ?? []
    if (!old || !renamed) throw new Error('no renamed migration to try')
    const database = await open()
    const dir = migrationsDir({ [renamed]: 'create table renamed_things (id int primary key);' })
    await exec(
      database,
      'create table schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    )
    await exec(database, 'create table renamed_things (id int primary key)')
    await database.query(sql`insert into schema_migrations (name) values (${old})`)

    // run again, the file would fail: its table exists
    expect(await applyMigrations(database, dir)).toEqual([])
    const names = await database.query(sql<{ name: string }>`select name from schema_migrations`)
    expect(names.map((row) => row.name)).toEqual([renamed])
  })
})
