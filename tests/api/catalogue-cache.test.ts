import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoCatalogue } from '../../src/server/catalogue/demo-catalogue.ts'
import { createCatalogueService, importCatalogue } from '../../src/server/catalogue/service.ts'
import { createSoldSlots } from '../../src/server/order/sold-slots.ts'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { applyMigrations } from '../../src/server/platform/db/migrate.ts'
import { sql } from '../../src/server/platform/db/sql.ts'

// The catalogue's rows are kept a couple of seconds (catalogue/service.ts): slot searches and orders
// then cost no catalogue query. When a row expires under load, the requests asking at that moment
// share one query instead of each sending its own (16 connections sent 16 at every expiry).
let dir: string
let database: Database
let statements = 0
let clock = Date.now()
let catalogue: ReturnType<typeof createCatalogueService>

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'shouts-catalogue-cache-'))
  database = await openDatabase({ dataDir: dir })
  await applyMigrations(database)
  await importCatalogue(database, demoCatalogue(clock))
  // the real database, counted: every statement the service sends goes through here
  const counted: Database = {
    kind: database.kind,
    transaction: (fn) => database.transaction(fn),
    close: () => database.close(),
    query: (statement) => {
      statements++
      return database.query(statement)
    },
  }
  catalogue = createCatalogueService({
    db: counted,
    soldSlots: createSoldSlots(database, () => clock),
    redeemed: async () => false,
    now: () => clock,
    publicBaseUrl: undefined,
  })
})
afterAll(async () => {
  await database?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('the catalogue cache', () => {
  it('asks the database once for sixteen requests at once, and again only once expired', async () => {
    const [first] = await database.query<{ slug: string }>(sql`select slug from events limit 1`)
    const slug = first?.slug as string
    statements = 0
    const events = await Promise.all(Array.from({ length: 16 }, () => catalogue.reads.event(slug)))
    expect(events.every((e) => e?.slug === slug)).toBe(true)
    expect(statements).toBe(1)
    await catalogue.reads.event(slug)
    expect(statements).toBe(1)
    clock += 60_000
    await Promise.all(Array.from({ length: 16 }, () => catalogue.reads.event(slug)))
    expect(statements).toBe(2)
  })

  it('does not keep a row read before the catalogue was forgotten (an import)', async () => {
    const [first] = await database.query<{ slug: string; name: string }>(
      sql`select slug, name from events limit 1`,
    )
    const slug = first?.slug as string
    clock += 60_000
    const before = catalogue.reads.event(slug)
    await database.query(sql`update events set name = 'Renamed by an import' where slug = ${slug}`)
    catalogue.forgetCatalogue()
    await before
    expect((await catalogue.reads.event(slug))?.name).toBe('Renamed by an import')
    await database.query(sql`update events set name = ${first?.name ?? ''} where slug = ${slug}`)
  })
})
