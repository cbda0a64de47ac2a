// A statement sent to the database itself from inside one of its transactions would wait for that
// transaction's connection: forever on the embedded database (one session), and forever on
// PostgreSQL once every pooled connection is in such a transaction. It fails at once instead, with an
// error that says why, and the transaction rolls back; everything else goes on answering.
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Database,
  type OpenDatabaseOptions,
  openDatabase,
} from '../../src/server/platform/db/client.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { BACKENDS, freshDataDir, freshPostgres } from './helpers.ts'

/** A fresh database on `backend`, with a table of ids to write and count. */
async function probeDatabase(
  backend: 'pglite' | 'postgres',
  options: Pick<OpenDatabaseOptions, 'guardTransactions' | 'stalledTransactionMs'> = {},
) {
  let dataDir: string | null = null
  let drop: (() => Promise<void>) | null = null
  let db: Database
  if (backend === 'postgres') {
    const fresh = await freshPostgres()
    drop = fresh.drop
    db = await openDatabase({ dataDir: '', databaseUrl: fresh.url, ...options })
  } else {
    dataDir = await freshDataDir()
    db = await openDatabase({ dataDir, ...options })
  }
  await db.query(sql`create table probe (id int primary key)`)
  return {
    db,
    count: async () =>
      (await db.query(sql<{ n: number }>`select count(*)::int as n from probe`))[0]?.n,
    close: async () => {
      await db.close()
      await drop?.()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

describe.each(BACKENDS)('a statement outside its transaction, from inside it, on %s', (backend) => {
  let probe: Awaited<ReturnType<typeof probeDatabase>>
  let db: Database
  beforeAll(async () => {
    probe = await probeDatabase(backend)
    db = probe.db
  })
  afterAll(() => probe?.close())
  const count = () => probe.count()

  it('fails at once, rolls the transaction back, and the database goes on answering', async () => {
    const attempt = db.transaction(async (tx) => {
      await tx.query(sql`insert into probe values (1)`)
      await db.query(sql`select 1`)
    })
    await expect(attempt).rejects.toThrow(/inside one of its transactions/)
    expect(await count()).toBe(0)
  })

  it('refuses a transaction begun inside another one', async () => {
    const attempt = db.transaction(async (tx) => {
      await tx.query(sql`insert into probe values (2)`)
      await db.transaction((inner) => inner.query(sql`insert into probe values (3)`))
    })
    await expect(attempt).rejects.toThrow(/inside one of its transactions/)
    expect(await count()).toBe(0)
  })

  it('lets work a transaction started run freely once it has ended', async () => {
    let later: Promise<unknown> = Promise.resolve()
    await db.transaction(async (tx) => {
      await tx.query(sql`insert into probe values (4)`)
      later = new Promise(setImmediate).then(() => db.query(sql`insert into probe values (5)`))
    })
    await later
    expect(await count()).toBe(2)
  })
})

// Production leaves the guard out (it follows every request's promises, at a cost to every request):
// there the statement waits, and fails once the transaction it waits behind has sent nothing for the
// stall limit (a statement_timeout on the embedded database's one session; the pool's wait for a
// connection on PostgreSQL), so the transaction rolls back and the database answers again.
describe.each(BACKENDS)('without the guard, as production runs, on %s', (backend) => {
  const STALL_MS = 300
  let probe: Awaited<ReturnType<typeof probeDatabase>>
  let db: Database
  beforeAll(async () => {
    probe = await probeDatabase(backend, {
      guardTransactions: false,
      stalledTransactionMs: STALL_MS,
    })
    db = probe.db
  })
  afterAll(() => probe?.close())
  const count = () => probe.count()

  it('a statement sent from inside its transaction fails after the stall limit, not never, and its transaction writes nothing', async () => {
    // On PostgreSQL the wait is for a pooled connection: it never ends once all ten wait so. Once the
    // first gives up, its connection lets another's statement through (that one commits).
    const attempts = Array.from({ length: backend === 'postgres' ? 10 : 1 }, (_, i) =>
      db.transaction(async (tx) => {
        await tx.query(sql`insert into probe values (${i})`)
        await db.query(sql`select 1`)
      }),
    )
    const outcomes = await Promise.allSettled(attempts)
    const committed = outcomes.filter((o) => o.status === 'fulfilled').length
    expect(committed).toBeLessThan(attempts.length)
    if (backend === 'pglite') {
      expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(
        /inside one of its transactions/,
      )
    }
    expect(await count()).toBe(committed)
    await db.query(sql`delete from probe`)
    expect(await db.query(sql<{ ok: number }>`select 1 as ok`)).toEqual([{ ok: 1 }])
  })

  it('a transaction at work for longer than the stall limit is waited for', async () => {
    let waited: Promise<unknown> = Promise.resolve()
    await db.transaction(async (tx) => {
      const started = performance.now()
      await tx.query(sql`insert into probe values (100)`)
      // another statement, from outside, waits for this transaction (the embedded database's session)
      waited = db.query(sql`insert into probe values (101)`)
      for (let id = 102; performance.now() - started < STALL_MS * 3; id++) {
        await tx.query(sql`insert into probe values (${id})`)
      }
    })
    await waited
    expect(await count()).toBeGreaterThan(3)
    await db.query(sql`delete from probe`)
  })
})
