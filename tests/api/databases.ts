import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { openDatabase } from '../../src/server/platform/db/client.ts'
import {
  applyMigrations,
  MIGRATIONS_DIR,
  migrationFiles,
} from '../../src/server/platform/db/migrate.ts'
import { PROJECT_ROOT } from '../../src/server/platform/paths.ts'

// The databases the integration tests start servers on: a new embedded one per server, or a new
// database on the PostgreSQL of TEST_DATABASE_URL. Making a cluster (initdb) takes seconds and applying
// every migration more than one, on each of the suites' hundreds of starts: both are done once, by the
// real code, and copied. A copy is the same database the server would have made, so the server's own
// start still runs the migrations (finding none left) and seeds its shop with the test's clock.

export const POSTGRES_URL = process.env.TEST_DATABASE_URL
export const BACKENDS: ('pglite' | 'postgres')[] = POSTGRES_URL
  ? ['pglite', 'postgres']
  : ['pglite']

// A template is only good for the PGlite version and the migrations that made it.
const PGLITE_VERSION = (
  JSON.parse(
    readFileSync(join(PROJECT_ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string }
).version
const MIGRATIONS_HASH = (() => {
  const hash = createHash('sha256')
  for (const name of migrationFiles()) {
    hash.update(name).update(readFileSync(join(MIGRATIONS_DIR, name)))
  }
  return hash.digest('hex').slice(0, 12)
})()

/** Made in a private directory and renamed into place, so parallel test files never share a half-made one. */
function template(name: string, make: (dir: string) => Promise<void>): Promise<string> | string {
  const dir = join(tmpdir(), name)
  if (existsSync(join(dir, 'PG_VERSION'))) return dir
  return (async () => {
    const mine = mkdtempSync(`${dir}-tmp-`)
    try {
      await make(mine)
      renameSync(mine, dir)
    } catch (error) {
      rmSync(mine, { recursive: true, force: true })
      if (!existsSync(join(dir, 'PG_VERSION'))) throw error
    }
    return dir
  })()
}

const emptyCluster = () =>
  template(`shouts-pglite-template-${PGLITE_VERSION}`, async (dir) => {
    const db = new PGlite({ dataDir: dir })
    await db.waitReady
    await db.close()
  })

const migratedCluster = () =>
  template(`shouts-pglite-migrated-${PGLITE_VERSION}-${MIGRATIONS_HASH}`, async (dir) => {
    // the server's DATA_DIR holds its cluster in pg/: migrate one there, keep only the cluster
    const dataDir = `${dir}-data`
    mkdirSync(dataDir)
    try {
      cpSync(await emptyCluster(), join(dataDir, 'pg'), { recursive: true })
      const database = await openDatabase({ dataDir, guardTransactions: false })
      try {
        await applyMigrations(database)
      } finally {
        await database.close()
      }
      rmSync(dir, { recursive: true, force: true })
      renameSync(join(dataDir, 'pg'), dir)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

async function dataDirWith(cluster: string | Promise<string>): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shouts-api-'))
  cpSync(await cluster, join(dataDir, 'pg'), { recursive: true })
  return dataDir
}

/** A DATA_DIR whose embedded database is a new, empty cluster: no table, no migration applied. */
export const freshDataDir = (): Promise<string> => dataDirWith(emptyCluster())

/** A DATA_DIR whose embedded database has every migration applied and nothing else. */
export const migratedDataDir = (): Promise<string> => dataDirWith(migratedCluster())

export type TestPostgres = { url: string; drop: () => Promise<void> }

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  if (!POSTGRES_URL) throw new Error('TEST_DATABASE_URL is not set')
  const admin = new pg.Client({ connectionString: POSTGRES_URL })
  await admin.connect()
  try {
    return await work(admin)
  } finally {
    await admin.end()
  }
}

const databaseUrl = (name: string) => {
  const url = new URL(POSTGRES_URL ?? '')
  url.pathname = `/${name}`
  return url.toString()
}

async function createDatabase(from?: string): Promise<TestPostgres> {
  const name = `shouts_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
  await withAdmin((admin) =>
    admin.query(`create database ${name}${from ? ` template ${from}` : ''}`),
  )
  return {
    url: databaseUrl(name),
    drop: async () => {
      await withAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`))
    },
  }
}

/** A new, empty database on the test PostgreSQL; dropped by the returned function. */
export const freshPostgres = (): Promise<TestPostgres> => createDatabase()

let migratedTemplate: Promise<string> | undefined
/** The migrated template on the test PostgreSQL, made once under a lock that every test process takes. */
function postgresTemplate(): Promise<string> {
  migratedTemplate ??= withAdmin(async (admin) => {
    const name = `shouts_template_${MIGRATIONS_HASH}`
    await admin.query('select pg_advisory_lock(727275)')
    const found = await admin.query('select 1 from pg_database where datname = $1', [name])
    if (found.rowCount === 0) {
      const building = await createDatabase()
      try {
        // (a DATA_DIR is only read for the embedded database)
        const database = await openDatabase({
          dataDir: tmpdir(),
          databaseUrl: building.url,
          guardTransactions: false,
        })
        try {
          await applyMigrations(database)
        } finally {
          await database.close()
        }
      } catch (error) {
        await building.drop()
        throw error
      }
      const made = new URL(building.url).pathname.slice(1)
      await admin.query(`alter database ${made} rename to ${name}`)
    }
    await admin.query('select pg_advisory_unlock(727275)')
    return name
  })
  return migratedTemplate
}

/** A new database on the test PostgreSQL with every migration applied; dropped by the returned function. */
export const migratedPostgres = async (): Promise<TestPostgres> =>
  createDatabase(await postgresTemplate())
