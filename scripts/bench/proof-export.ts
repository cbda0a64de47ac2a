// npm run bench:proof-export: what the console's proof-of-play CSV costs for a fleet of 200
// billboards with 96 proven plays a day each (generated), over 7, 15 and 30 days: the time to write
// the whole file and the process's peak memory (heap and resident set, sampled every 5 ms, less
// what they were before). The export streams a page of rows at a time, so the time grows with the
// rows while the memory stays flat; a buffered export would grow with both. The server runs in this
// process on a fresh embedded database (or DATABASE_URL's PostgreSQL).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { boughtOrder, client, daySlots, generateContent } from '../../tests/api/helpers.ts'

const BILLBOARDS = Number(process.env.BENCH_BILLBOARDS ?? 200)
const PLAYS_PER_DAY = Number(process.env.BENCH_PLAYS_PER_DAY ?? 96)
const DAYS = 30
const PERIODS = [7, 15, 30]
const DAY = 86_400_000
const MB = 1024 * 1024

const dataDir = mkdtempSync(join(tmpdir(), 'bench-proof-export-'))
const server = await startServer({
  port: 0,
  dataDir,
  serveApp: false,
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  env: { LOG_LEVEL: 'error', WRITES_PER_MINUTE: '100000000' },
})
try {
  const db = server.deps.database
  const api = client(server.url)
  // one real order: every generated proof names it (plays belong to an order)
  const content = await generateContent(api)
  const order = await boughtOrder(api, { slots: daySlots(2, 10, 1), content })
  const [model] = await db.query(sql<{ deviceId: string }>`
    select device_id as "deviceId" from devices order by device_id limit 1`)
  if (!model) throw new Error('no billboard in the demo catalogue')
  // the fleet: copies of a demo billboard, each with its own id
  await db.query(sql`
    insert into devices
    select (jsonb_populate_record(d, jsonb_build_object('device_id', 'bench-' || g))).*
    from devices d, generate_series(1, ${BILLBOARDS}::int) as g where d.device_id = ${model.deviceId}`)
  const to = Date.UTC(2026, 0, 31)
  const from = to - DAYS * DAY
  const started = performance.now()
  const gap = Math.floor(DAY / PLAYS_PER_DAY)
  for (let day = 0; day < DAYS; day++) {
    const dayStart = from + day * DAY
    await db.query(sql`
      insert into plays (play_id, device_id, order_guid, slot_number, play_index,
        started_at_epoch_ms, ended_at_epoch_ms)
      select 'bench-' || b || '-' || ${day}::int || '-' || n, 'bench-' || b, ${order.guid},
        100000 + ${day}::int * ${PLAYS_PER_DAY}::int + n, b,
        ${dayStart}::bigint + n * ${gap}::bigint, ${dayStart}::bigint + n * ${gap}::bigint + 15000
      from generate_series(1, ${BILLBOARDS}::int) as b, generate_series(0, ${PLAYS_PER_DAY - 1}::int) as n`)
  }
  console.log(
    `generated ${BILLBOARDS} billboards × ${DAYS} days × ${PLAYS_PER_DAY} plays = ${BILLBOARDS * DAYS * PLAYS_PER_DAY} proofs in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  console.log('days  rows      bytes      time     heap peak  rss peak  (above the start)')
  for (const days of PERIODS) {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
    global.gc?.()
    const base = process.memoryUsage()
    let heapPeak = 0
    let rssPeak = 0
    const sample = () => {
      const m = process.memoryUsage()
      heapPeak = Math.max(heapPeak, m.heapUsed - base.heapUsed)
      rssPeak = Math.max(rssPeak, m.rss - base.rss)
    }
    const sampler = setInterval(sample, 5)
    const t = performance.now()
    const found = await server.deps.ops.proofExport({ from: day(to - days * DAY), to: day(to - 1) })
    if (!found.ok) throw new Error(found.error.code)
    let bytes = 0
    let rows = -1
    for await (const chunk of found.value.chunks()) {
      bytes += Buffer.byteLength(chunk)
      for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) rows++
      sample()
    }
    const seconds = (performance.now() - t) / 1000
    clearInterval(sampler)
    console.log(
      `${String(days).padStart(4)}  ${String(rows).padStart(8)}  ${(bytes / MB).toFixed(1).padStart(6)} MB  ${seconds.toFixed(2).padStart(6)} s  ${(heapPeak / MB).toFixed(1).padStart(6)} MB  ${(rssPeak / MB).toFixed(1).padStart(6)} MB`,
    )
  }
} finally {
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
}
