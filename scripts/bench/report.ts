// What `npm run bench` prints after its scenarios: each figure beside its target (docs/performance.md
// lists them) and whether it holds in this run, the memory of the server (its embedded database is a
// thread of the same process) and the CPU of its threads during the order rounds, and the shared
// rate limiter's cost alone.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/server/platform/db/client.ts'
import { applyMigrations } from '../../src/server/platform/db/migrate.ts'
import { createRateLimiter } from '../../src/server/platform/rate-limit.ts'
import { CONNECTIONS, type Result } from './http.ts'

/** The targets: the trivial endpoint's is today's median on the quiet machine, not to get slower. */
export const TARGETS = {
  trivialRps: 11_473,
  searchShare: 0.6,
  searchP99Ms: 15,
  pageP50Ms: 3,
  ordersPerS: 500,
  ordersP99Ms: 60,
  scheduleRps: 400,
  memoryMb: 400,
}

type Pair = { trivial: Result; mine: Result }
/** What a series of rounds cost: the server's main thread and the bench's own client, in CPU ms. */
export type CpuCost = { serverMs: number; clientMs: number; requests: number }
export const noCost = (): CpuCost => ({ serverMs: 0, clientMs: 0, requests: 0 })
type CostedPair = Pair & { cost: { trivial: CpuCost; mine: CpuCost } }

export type Figures = {
  search?: CostedPair
  event?: Pair
  pages: Result[]
  renders: Result[]
  flood?: { result: Result; paths: number; statuses: Map<number, number> }
  orders?: Pair & { cpu: Map<string, number> }
  schedule?: Pair & { plays: number }
}

export type MemoryFigures = {
  peakReset: boolean
  peakMb: number
  overallPeakMb: number
  nowMb: number
  workerPeakMb: number
  workersStarted: number
  totalPeakMb: number
}

const perRequest = (c: CpuCost) =>
  c.requests === 0
    ? 'not measured'
    : `server main thread ${((c.serverMs * 1000) / c.requests).toFixed(0)} µs, bench client ${((c.clientMs * 1000) / c.requests).toFixed(0)} µs`
const holds = (ok: boolean) => (ok ? 'holds' : 'MISSES')
const pct = (share: number) => `${(share * 100).toFixed(0)}%`

export function report(f: Figures, mem: MemoryFigures): void {
  const trivials = [f.search, f.event, f.orders, f.schedule]
    .filter((p): p is Pair => p !== undefined)
    .map((p) => p.trivial.rps)
  if (trivials.length > 0) {
    const sorted = [...trivials].sort((a, b) => a - b)
    const median = sorted[Math.floor(sorted.length / 2)] as number
    console.log(
      `trivial endpoint: ${median.toFixed(0)} req/s (median of its ${trivials.length} alternating series) | target: not slower than ${TARGETS.trivialRps} req/s, today's median on the quiet machine: ${holds(median >= TARGETS.trivialRps)}`,
    )
    // that figure was taken on another machine, on another day: the same minutes on this one say more
    if (median < TARGETS.trivialRps) {
      console.log(
        '  (this machine may be slower than the one that measured it: BENCH_AGAINST=DIR npm run bench:against times an earlier checkout beside this one)',
      )
    }
  }
  if (f.search) {
    const share = f.search.mine.rps / f.search.trivial.rps
    const ok = share >= TARGETS.searchShare && f.search.mine.p99 <= TARGETS.searchP99Ms
    console.log(
      `slot search: ${f.search.mine.rps.toFixed(0)} req/s, ${pct(share)} of the trivial endpoint, p99 ${f.search.mine.p99.toFixed(1)} ms | target: >= ${pct(TARGETS.searchShare)}, p99 <= ${TARGETS.searchP99Ms} ms: ${holds(ok)}`,
    )
    console.log(
      `  CPU per request, ${perRequest(f.search.cost.mine)}; the trivial endpoint's, ${perRequest(f.search.cost.trivial)}`,
    )
  }
  if (f.event) {
    console.log(
      `event fetch: ${pct(f.event.mine.rps / f.event.trivial.rps)} of the trivial endpoint's throughput, p99 ${f.event.mine.p99.toFixed(1)} ms`,
    )
  }
  for (const r of f.pages) {
    console.log(
      `page ${r.label}: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms under ${CONNECTIONS} connections | target: p50 <= ${TARGETS.pageP50Ms} ms: ${holds(r.p50 <= TARGETS.pageP50Ms)}`,
    )
  }
  for (const r of f.renders) {
    console.log(`${r.label}: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`)
  }
  if (f.flood) {
    const statuses = [...f.flood.statuses].map(([k, n]) => `${n}x ${k}`).join(', ')
    const alone = f.search
      ? `; alone p50 ${f.search.mine.p50.toFixed(2)} ms, p99 ${f.search.mine.p99.toFixed(2)} ms`
      : ''
    console.log(
      `slot search while 8 clients asked ${f.flood.paths} made-up paths (${statuses}): p50 ${f.flood.result.p50.toFixed(2)} ms, p99 ${f.flood.result.p99.toFixed(2)} ms${alone}`,
    )
  }
  if (f.orders) {
    const o = f.orders.mine
    const ok = o.rps >= TARGETS.ordersPerS && o.p99 <= TARGETS.ordersP99Ms
    console.log(
      `order placement: ${o.rps.toFixed(0)} orders/s on the embedded database, p99 ${o.p99.toFixed(1)} ms, ${pct(o.rps / f.orders.trivial.rps)} of the trivial endpoint | target: >= ${TARGETS.ordersPerS}/s, p99 <= ${TARGETS.ordersP99Ms} ms: ${holds(ok)}`,
    )
    const main = f.orders.cpu.get('main') ?? 0
    const rest = [...f.orders.cpu].filter(([k]) => k !== 'main').reduce((t, [, ms]) => t + ms, 0)
    if (o.requests > 0) {
      console.log(
        `  the server's CPU per order during the rounds: ${((main * 1000) / o.requests).toFixed(0)} µs on its main thread, ${((rest * 1000) / o.requests).toFixed(0)} µs on its other threads (the database's, V8's, libuv's)`,
      )
    }
  }
  if (f.schedule) {
    const s = f.schedule.mine
    console.log(
      `player schedule: ${s.rps.toFixed(0)} req/s for one billboard over 24 h of sold slots (${f.schedule.plays} plays), p99 ${s.p99.toFixed(1)} ms, ${pct(s.rps / f.schedule.trivial.rps)} of the trivial endpoint | target: >= ${TARGETS.scheduleRps} req/s: ${holds(s.rps >= TARGETS.scheduleRps)}`,
    )
  }
  const peak = mem.peakReset ? mem.peakMb : mem.overallPeakMb
  console.log(
    `server and its embedded database (one process): peak ${peak.toFixed(0)} MB RSS ${mem.peakReset ? 'during the load scenarios' : 'over the whole run'} (VmHWM), ${mem.overallPeakMb.toFixed(0)} MB over the whole run with the content generation, now ${mem.nowMb.toFixed(0)} MB | target: < ${TARGETS.memoryMb} MB: ${holds(peak < TARGETS.memoryMb)}`,
  )
  console.log(
    `content worker (rendering, nudity model; ${mem.workersStarted} started): peak ${mem.workerPeakMb.toFixed(0)} MB RSS; server and worker together: peak ${mem.totalPeakMb.toFixed(0)} MB (sampled every 100 ms)`,
  )
}

/**
 * The shared rate limiter's cost per hit taken alone (setup intents, uploads...; an order's hit
 * rides with the order's own statement), on an embedded database of its own: sequential hits, and 8
 * at once on one key (the row lock's contention).
 */
export async function limiterCost(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'shouts-bench-limiter-'))
  const database = await openDatabase({ dataDir: dir })
  try {
    await applyMigrations(database)
    const limiter = createRateLimiter({ database, now: Date.now })
    const rule = { bucket: 'bench', limit: 1_000_000, windowMs: 60_000 }
    for (let i = 0; i < 200; i++) await limiter.take(rule, `warm-${i % 20}`)
    const n = 3000
    let started = performance.now()
    for (let i = 0; i < n; i++) await limiter.take(rule, `client-${i % 500}`)
    const sequentialUs = ((performance.now() - started) * 1000) / n
    started = performance.now()
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < n / 8; i++) await limiter.take(rule, 'one-client')
      }),
    )
    const contendedUs = ((performance.now() - started) * 1000) / n
    return `rate limiter alone (one upsert, PGlite): ${sequentialUs.toFixed(0)} µs a hit, ${contendedUs.toFixed(0)} µs a hit with 8 at once on one client`
  } finally {
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
