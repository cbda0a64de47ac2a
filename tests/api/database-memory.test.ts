// The embedded database's thread keeps nothing of an answer once it has handed it over: a server
// that runs for months answers millions of statements within the same memory.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { openPgliteThread } from '../../src/server/platform/db/pglite-thread.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { freshDataDir } from './helpers.ts'

it('the embedded database answers 20,000 statements of 20 rows within a 48 MB heap', async () => {
  const dataDir = await freshDataDir()
  let lost = 0
  const db = await openPgliteThread({
    pgDir: join(dataDir, 'pg'),
    settings: ['shared_buffers=8MB'],
    socketPath: null,
    stallMs: 10_000,
    // a thread whose heap outgrows this dies, and its statements fail as on a lost connection
    heapLimitMb: 48,
    events: { lost: () => void lost++ },
  })
  try {
    let rows = 0
    for (let i = 0; i < 20_000; i++) {
      const answer = await db.query(
        sql<{ n: number }>`select n, repeat('x', 50) as filler from generate_series(1, 20) n`,
      )
      rows += answer.length
    }
    expect(rows).toBe(400_000)
    expect(lost).toBe(0)
  } finally {
    await db.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 120_000)
