// BENCH_AGAINST=DIR npm run bench:against: the trivial endpoint (GET /api/v1/health), or slot search
// with BENCH_AGAINST_ENDPOINT=search, of this checkout's server against another checkout's (DIR,
// installed and built: an earlier commit in a git worktree), on the same machine in the same
// minutes. A figure taken on another day, or on another machine, says little about a change: this
// VM's own throughput varies by up to 2x from one hour to the next. Both servers run at once, each as
// its own production start ran it (scripts/bench/prepare.ts), and are measured in turns: BENCH_ROUNDS
// pairs (9) of BENCH_SECONDS each (5), the order within a pair swapped every round, so that neither
// always goes first. Prints each server's median and spread and the median of the pairs' ratios,
// with the load average before and after.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { DURATION_MS, type Req, run, setBase, summarise, threadCpuMs } from './http.ts'
import { type BenchServer, startBenchServer } from './prepare.ts'
import { benchSearchRequest } from './shop.ts'
import { load, median, spread } from './stats.ts'

const against = process.env.BENCH_AGAINST
if (!against) {
  process.stderr.write(
    'usage: BENCH_AGAINST=DIR npm run bench:against (DIR: another checkout, installed and built)\n',
  )
  process.exit(2)
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9)
// BENCH_AGAINST_ENDPOINT=search times slot search (the bench's own search) instead.
const ENDPOINTS = {
  trivial: (): Req => ({ method: 'GET', path: '/api/v1/health' }),
  search: benchSearchRequest(Date.now()),
}
const endpoint = (process.env.BENCH_AGAINST_ENDPOINT ?? 'trivial') as keyof typeof ENDPOINTS
const next = ENDPOINTS[endpoint]
if (!next) {
  process.stderr.write(`BENCH_AGAINST_ENDPOINT: one of ${Object.keys(ENDPOINTS).join(', ')}\n`)
  process.exit(2)
}

// The CPU each request cost the server's main thread, by server: steadier than throughput when the
// machine's speed changes from one round to the next.
const cpuPerRequest = new Map<BenchServer, number[]>()
const rpsOf = async (server: BenchServer) => {
  setBase(server.base)
  const cpuBefore = threadCpuMs(server.pid).get('main') ?? 0
  const done = await run(next, 200, DURATION_MS)
  const cpu = (threadCpuMs(server.pid).get('main') ?? 0) - cpuBefore
  const r = summarise(endpoint, [done])
  if (r.errors > 0) throw new Error(`${server.base}: ${r.errors} unexpected answers`)
  const costs = cpuPerRequest.get(server) ?? []
  costs.push((cpu * 1000) / Math.max(1, r.requests))
  cpuPerRequest.set(server, costs)
  return r.rps
}

async function main() {
  const dirs = [
    mkdtempSync(join(tmpdir(), 'shouts-against-')),
    mkdtempSync(join(tmpdir(), 'shouts-against-')),
  ]
  const before = load()
  // one after the other: each server's start (migrations, the first build's check) has the machine
  const other = await startBenchServer(dirs[0] as string, resolve(against as string))
  const mine = await startBenchServer(dirs[1] as string)
  try {
    // warm both (V8's optimisation of the request path), then the rounds
    await rpsOf(other)
    await rpsOf(mine)
    cpuPerRequest.clear()
    const ours: number[] = []
    const theirs: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        theirs.push(await rpsOf(other))
        ours.push(await rpsOf(mine))
      } else {
        ours.push(await rpsOf(mine))
        theirs.push(await rpsOf(other))
      }
    }
    const ratios = ours.map((o, i) => (o / (theirs[i] as number)) * 100)
    process.stdout.write(
      [
        `${endpoint === 'trivial' ? 'the trivial endpoint' : 'slot search'}, ${ROUNDS} rounds of ${DURATION_MS / 1000} s each, in turns; load average before ${before}, after ${load()}`,
        `  ${against}: ${spread(theirs)} req/s`,
        `  this checkout: ${spread(ours)} req/s`,
        `  by round (${against} / this checkout): ${theirs.map((t, i) => `${t.toFixed(0)}/${(ours[i] as number).toFixed(0)}`).join(' ')}`,
        `  this checkout against it, round by round: ${spread(ratios)} % (median ${median(ratios) >= 100 ? 'not slower' : 'slower'})`,
        `  the server's main thread, CPU per request: ${against} ${spread(cpuPerRequest.get(other) ?? [])} µs, this checkout ${spread(cpuPerRequest.get(mine) ?? [])} µs`,
        '',
      ].join('\n'),
    )
  } finally {
    await Promise.all([other.stop(), mine.stop()])
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}

await main()
