import { describe, expect, it } from 'vitest'
import { createReadiness, type ReadinessProbes } from './service.ts'

// Readiness reports every failing check, and turns not ready when the shutdown begins.
const healthy: ReadinessProbes = {
  database: async () => {},
  pendingMigrations: async () => [],
  writeStorage: async () => {},
}

describe('readiness', () => {
  it('is ready when the database answers, migrations are applied and storage takes a write', async () => {
    expect(await createReadiness(healthy).check()).toEqual({
      ok: true,
      value: { status: 'ready', checks: { database: 'ok', migrations: 'ok', storage: 'ok' } },
    })
  })

  it('names each failing check', async () => {
    const broken = createReadiness({
      database: async () => {},
      pendingMigrations: async () => ['0009_next.sql'],
      writeStorage: async () => {
        throw new Error('EROFS')
      },
    })
    expect(await broken.check()).toEqual({
      ok: false,
      problems: [
        { code: 'migrations_pending', pending: ['0009_next.sql'] },
        { code: 'storage_unwritable' },
      ],
    })
    const noDatabase = createReadiness({
      ...healthy,
      database: () => Promise.reject(new Error('ECONNREFUSED')),
    })
    expect(await noDatabase.check()).toEqual({
      ok: false,
      problems: [{ code: 'database_unreachable' }],
    })
  })

  it('checks a failed storage again, and trusts a good one for a while', async () => {
    let writes = 0
    let fails = true
    const readiness = createReadiness({
      ...healthy,
      writeStorage: async () => {
        writes++
        if (fails) throw new Error('EACCES')
      },
    })
    expect((await readiness.check()).ok).toBe(false)
    fails = false
    expect((await readiness.check()).ok).toBe(true)
    expect((await readiness.check()).ok).toBe(true)
    expect(writes).toBe(2)
  })

  it('is not ready once the shutdown began', async () => {
    const readiness = createReadiness(healthy)
    readiness.shutDown()
    expect(await readiness.check()).toEqual({ ok: false, problems: [{ code: 'shutting_down' }] })
  })
})
