// The embedded database answers from its own thread: a thread that dies is noticed (readiness 503,
// statements fail as on a lost connection), started again on the same files, and nothing committed is
// lost, nothing uncommitted is kept.
import { execFile as execFileCallback, spawn } from 'node:child_process'
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { pgErrorCode } from '../../src/server/platform/db/errors.ts'
import { applyMigrations } from '../../src/server/platform/db/migrate.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { PROJECT_ROOT } from '../../src/server/platform/paths.ts'
import {
  answerOf,
  client,
  daySlots,
  freshDataDir,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { until } from './instances.ts'
import { clientWith, OPS_PASSWORD } from './ops-helpers.ts'

describe('the shop when its embedded database thread dies', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer('pglite')
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('is not ready while the database is down, and sells again once it is back', async () => {
    const api = client(server.url)
    const content = await generateContent(api)
    const before = await placeOrder(
      api,
      orderBody({ slots: daySlots(3, 10, 2), content, checkout: await savedCard(api) }),
    )
    expect(before.status).toBe(201)
    await settledStatus(api, LIVE, before.body.guid)
    expect((await api.get('/readyz')).status).toBe(200)

    // The database's files replaced by a file: the thread cannot start again until they are back.
    const pgDir = join(server.dataDir, 'pg')
    renameSync(pgDir, `${pgDir}.away`)
    writeFileSync(pgDir, 'not a database')
    const embedded = server.deps.database.embedded
    if (!embedded) throw new Error('the embedded database has no thread')
    await embedded.crash()
    try {
      const down = await until(
        async () => {
          const res = await api.get<{ codes: string[] }>('/readyz')
          return res.status === 503 ? res : null
        },
        10_000,
        'readiness to answer 503',
      )
      expect(down.body.codes).toEqual(['database_unreachable'])
      // a shopper saving a card is told to try again shortly, rather than hanging or failing for good
      const setup = await api.post<{ codes: string[] }>('/order/payment/setup-intent')
      expect(setup.status).toBe(503)
      expect(setup.body.codes).toEqual(['database_unreachable'])
      expect(setup.headers.get('retry-after')).toBe('2')
      expect(embedded.threadId()).toBeNull()
    } finally {
      rmSync(pgDir)
      renameSync(`${pgDir}.away`, pgDir)
    }

    await until(
      async () => ((await api.get('/readyz')).status === 200 ? true : null),
      60_000,
      'readiness to answer 200 again',
    )
    expect(embedded.threadId()).not.toBeNull()
    // the order placed before the crash is still there, and a new one is sold
    expect((await settledStatus(api, LIVE, before.body.guid)).orderState).toBe('Confirmed')
    const after = await placeOrder(
      api,
      orderBody({ slots: daySlots(3, 20, 2), content, checkout: await savedCard(api) }),
    )
    expect(after.status).toBe(201)
    expect((await settledStatus(api, LIVE, after.body.guid)).orderState).toBe('Confirmed')
  })
})

describe('the embedded database across a crash of its thread', () => {
  let dataDir: string
  let db: Database
  beforeAll(async () => {
    dataDir = await freshDataDir()
    db = await openDatabase({ dataDir })
    await applyMigrations(db)
    await db.query(sql`create table crash_probe (id int primary key, note text)`)
  })
  afterAll(async () => {
    await db?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('keeps what was committed and drops the transaction the crash cut', async () => {
    await db.query(sql`insert into crash_probe values (1, 'committed')`)
    const embedded = db.embedded
    if (!embedded) throw new Error('the embedded database has no thread')
    let crashed = false
    const cut = db.transaction(async (tx) => {
      await tx.query(sql`insert into crash_probe values (2, 'cut')`)
      await embedded.crash()
      crashed = true
      await tx.query(sql`insert into crash_probe values (3, 'after')`)
    })
    const error = await cut.then(
      () => null,
      (e: unknown) => e,
    )
    expect(crashed).toBe(true)
    // as a PostgreSQL connection lost mid-transaction: SQLSTATE class 08
    expect(pgErrorCode(error)).toBe('08006')
    const rows = await until(
      () =>
        db
          .query(sql<{ id: number; note: string }>`select id, note from crash_probe order by id`)
          .then(
            (r) => r,
            () => null,
          ),
      60_000,
      'the database to answer again',
    )
    expect(rows).toEqual([{ id: 1, note: 'committed' }])
  })
})

describe('the embedded database under many transactions at once', () => {
  let dataDir: string
  let db: Database
  beforeAll(async () => {
    dataDir = await freshDataDir()
    db = await openDatabase({ dataDir })
    await db.query(sql`create table turn_probe (id int primary key, seen int not null)`)
  })
  afterAll(async () => {
    await db?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('runs each one alone and commits them all, statements outside any waiting their turn', async () => {
    // Every transaction waits for the one before it; all wake at once when it ends, and only one
    // may take the session: two taking it would see each other's rows or fail as "not open".
    const transactions = Array.from({ length: 12 }, (_, id) =>
      db.transaction(async (tx) => {
        const [before] = await tx.query(
          sql<{ n: number }>`select count(*)::int as n from turn_probe`,
        )
        await tx.query(sql`insert into turn_probe values (${id}, ${before?.n ?? -1})`)
        const [after] = await tx.query(
          sql<{ n: number }>`select count(*)::int as n from turn_probe`,
        )
        expect(after?.n).toBe((before?.n ?? 0) + 1)
      }),
    )
    const outside = Array.from({ length: 12 }, () =>
      db.query(sql<{ n: number }>`select count(*)::int as n from turn_probe`),
    )
    await Promise.all([...transactions, ...outside])
    const rows = await db.query(sql<{ seen: number }>`select seen from turn_probe order by seen`)
    // each transaction saw exactly the ones committed before it: 0, 1, 2, ... 11
    expect(rows.map((r) => r.seen)).toEqual(Array.from({ length: 12 }, (_, i) => i))
  })
})

const execFile = promisify(execFileCallback)

describe('the command-line tools while the server holds the embedded database', () => {
  let server: TestServer
  let dir: string
  beforeAll(async () => {
    server = await startTestServer('pglite')
    dir = mkdtempSync(join(tmpdir(), 'shouts-tools-'))
  })
  afterAll(async () => {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  /** `npm run <tool> -- ARGS` on the server's DATA_DIR; resolves with its last line. */
  const tool = async (script: string, ...args: string[]) => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      DATA_DIR: server.dataDir,
      PORT: String(server.port),
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
      PUBLIC_BASE_URL: '',
    }
    const { stdout } = await execFile(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: PROJECT_ROOT,
      env,
    })
    return stdout.trim().split('\n').at(-1) as string
  }

  it('imports a catalogue, adds an operator and links a player while the server sells', async () => {
    const api = client(server.url)
    const file = join(dir, 'catalogue.json')
    writeFileSync(file, JSON.stringify(lyonCatalogue))
    expect(await tool('src/server/catalogue/import-cli.ts', file)).toContain('imported 1 device(s)')
    // the server's catalogue cache lets it through within its two seconds
    const event = await until(
      async () => {
        const res = await api.get('/spotlight/events/fete-des-lumieres')
        return res.status === 200 ? answerOf(spotlight.event, res) : null
      },
      10_000,
      'the imported event to be served',
    )
    expect(event.name).toBe('Fête des Lumières')

    const link = new URL(
      await tool('src/server/auth/operator-cli.ts', 'add', 'ana@shouts.example', '--role', 'admin'),
    )
    const ops = clientWith(server.url, { origin: server.url })
    const set = await ops.post('/ops/set-password', {
      token: link.searchParams.get('token'),
      password: OPS_PASSWORD,
    })
    expect(set.status).toBe(204)

    const player = new URL(await tool('src/server/player/link-cli.ts', 'lyon-bellecour'))
    const token = player.searchParams.get('token') as string
    const from = Date.now()
    const schedule = await api.get(
      `/player/lyon-bellecour/schedule?fromEpochMs=${from}&toEpochMs=${from + 3_600_000}`,
      { authorization: `Bearer ${token}` },
    )
    expect(schedule.status).toBe(200)
  })

  it('rolls back what a tool killed mid-transaction wrote, and goes on answering', async () => {
    const api = client(server.url)
    const guest = spawn(
      process.execPath,
      ['--import', 'tsx', 'tests/api/fixtures/guest-transaction.ts'],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    const exited = new Promise((resolve) => guest.once('exit', resolve))
    await new Promise<void>((resolve, reject) => {
      let out = ''
      guest.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        if (out.includes('"begun"')) resolve()
      })
      guest.once('exit', (code) => reject(new Error(`the tool exited (${code}) before it began`)))
    })
    guest.kill('SIGKILL')
    await exited
    const devices = await until(
      async () => {
        const res = await api.get(`/spotlight/events/${LIVE}/devices`)
        return res.status === 200 ? answerOf(spotlight.devices, res).devices : null
      },
      10_000,
      'the server to answer',
    )
    expect(devices.length).toBeGreaterThan(0)
    const written = await server.deps.database.query(sql<{ n: number }>`
      select count(*)::int as n from devices where location = 'written by a tool that died'`)
    expect(written).toEqual([{ n: 0 }])
  })

  it('still refuses a second server on the same files', async () => {
    const second = await execFile(
      process.execPath,
      ['--import', 'tsx', 'src/server/main.ts', '--api-only'],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: '', PORT: '0' },
      },
    ).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    )
    expect(second?.code).not.toBe(0)
    expect(second?.stderr).toContain(`is in use by process ${process.pid}`)
  })
})

const lyonCatalogue = {
  devices: [
    {
      deviceId: 'lyon-bellecour',
      location: 'Place Bellecour, south side',
      city: 'Lyon',
      country: 'France',
      timeZoneId: 'Europe/Paris',
      coordinates: { lat: 45.7578, lng: 4.832 },
      trafficDirection: 'North',
      imageUrl: '/catalogue/lyon-bellecour.jpg',
      contentWidth: 1400,
      contentHeight: 400,
    },
  ],
  templates: [],
  events: [
    {
      slug: 'fete-des-lumieres',
      name: 'Fête des Lumières',
      startDateHourLocalInclusive: '2030-12-05_00',
      endDateHourLocalExclusive: '2030-12-09_00',
      slotWidthMS: 900000,
      devices: [{ deviceId: 'lyon-bellecour' }],
      templates: [],
    },
  ],
  promos: [],
}
