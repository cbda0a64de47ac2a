// A statement sent to the database itself from inside one of its transactions would wait for that
// transaction's connection: forever on the embedded database (one session), and forever on
// PostgreSQL once every pooled connection is in such a transaction. It fails at once instead, with an
// error that says why, and the transaction rolls back; everything else goes on answering.
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { BACKENDS, freshDataDir, freshPostgres } from './helpers.ts'

describe.each(BACKENDS)('a statement outside its transaction, from inside it, on %s', (backend) => {
  let db: Database
  let dataDir: string | null = null
  let drop: (() => Promise<void>) | null = null
  beforeAll(async () => {
    if (backend === 'postgres') {
      const fresh = await freshPostgres()
      drop = fresh.drop
      db = await openDatabase({ dataDir: '', databaseUrl: fresh.url })
    } else {
      dataDir = await freshDataDir()
      db = await openDatabase({ dataDir })
    }
    await db.query(sql`create table tx_probe (id int primary key)`)
  })
  afterAll(async () => {
    await db?.close()
    await drop?.()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  const count = async () =>
    (await db.query(sql<{ n: number }>`select count(*)::int as n from tx_probe`))[0]?.n

  it('fails at once, rolls the transaction back, and the database goes on answering', async () => {
    const attempt = db.transaction(async (tx) => {
      await tx.query(sql`insert into tx_probe values (1)`)
      await db.query(sql`select 1`)
    })
    await expect(attempt).rejects.toThrow(/inside one of its transactions/)
    expect(await count()).toBe(0)
  })

  it('refuses a transaction begun inside another one', async () => {
    const attempt = db.transaction(async (tx) => {
      await tx.query(sql`insert into tx_probe values (2)`)
      await db.transaction((inner) => inner.query(sql`insert into tx_probe values (3)`))
    })
    await expect(attempt).rejects.toThrow(/inside one of its transactions/)
    expect(await count()).toBe(0)
  })

  it('lets work a transaction started run freely once it has ended', async () => {
    let later: Promise<unknown> = Promise.resolve()
    await db.transaction(async (tx) => {
      await tx.query(sql`insert into tx_probe values (4)`)
      later = new Promise(setImmediate).then(() => db.query(sql`insert into tx_probe values (5)`))
    })
    await later
    expect(await count()).toBe(2)
  })
})
