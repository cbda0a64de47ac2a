// npm run bench: throughput and latency of the real server on loopback, from one run, each figure
// printed beside its target (report.ts). Slot search (14-day event, 15-minute slots), event
// fetch, the server-rendered first screens from the page cache and their render, slot search while
// eight clients ask made-up page paths, order placement, and a billboard's schedule, each beside the
// trivial endpoint (GET /api/v1/health) measured the same way in alternating rounds; the server's
// memory (VmRSS/VmHWM: the embedded database is a thread of the server process, so both are in it)
// and its threads' CPU during the order rounds.
// BENCH_ONLY=search,event,pages,renders,flood,orders,schedule,limiter runs some scenarios only
// (preparing still makes the orders' content and cards); BENCH_SECONDS, BENCH_CONNECTIONS.
// Bounded: each scenario runs for a fixed time or request count, then the server is stopped.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { SsrModule } from '../../src/contract/ssr.ts'
import {
  agent,
  CONNECTIONS,
  childrenOf,
  DURATION_MS,
  fmt,
  load,
  memory,
  type Req,
  type Result,
  type Run,
  resetPeak,
  run,
  send,
  setBase,
  summarise,
  threadCpuMs,
} from './http.ts'
import { prepareOrders, productionStart, startBenchServer } from './prepare.ts'
import { type CpuCost, limiterCost, noCost, report } from './report.ts'
import { benchSearchRequest } from './shop.ts'
import { load as loadAverage } from './stats.ts'

/** The production start's settings and Node options, as the bench's server got them. */
const describeStart = () => {
  const { env, nodeArgs } = productionStart()
  return [...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...nodeArgs].join(' ')
}

const ROOT = new URL('../..', import.meta.url).pathname
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null
const wants = (scenario: string) => !ONLY || ONLY.has(scenario)
// The server's first orders prepare its statements and wake its JIT: timed, but apart from the rounds
// (as the warm-up of the other scenarios is).
const ORDER_WARM_UP = 100

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'shouts-bench-'))
  const server = await startBenchServer(dataDir)
  setBase(server.base)
  const { pid } = server
  const phases: string[] = []
  // The highest VmHWM seen over the whole run (the kernel's peak restarts when resetPeak is used).
  let overallPeak = 0
  const mark = (phase: string) => {
    const m = memory(pid)
    overallPeak = Math.max(overallPeak, m.peakMb)
    phases.push(`${phase}: ${m.rssMb.toFixed(0)} MB (peak so far ${m.peakMb.toFixed(0)})`)
  }
  console.log(
    `server ${server.base} (pid ${pid}, started as \`npm run start:prod\` starts it: ${describeStart()}), ${CONNECTIONS} connections, ${DURATION_MS / 1000} s per scenario`,
  )
  const loadBefore = loadAverage()
  console.log(`load average before the run: ${loadBefore}`)
  // Sampled every 100 ms: the content worker's memory, and the server and worker together, whose
  // peaks VmHWM alone cannot tell (the worker comes and goes).
  const tree = { workerPeakMb: 0, totalPeakMb: 0, workers: new Set<number>() }
  const sampler = setInterval(() => {
    const own = memory(pid).rssMb
    let workers = 0
    for (const c of childrenOf(pid)) {
      tree.workers.add(c)
      const m = memory(c)
      workers += m.rssMb
      tree.workerPeakMb = Math.max(tree.workerPeakMb, m.peakMb, m.rssMb)
    }
    tree.totalPeakMb = Math.max(tree.totalPeakMb, own + workers)
  }, 100)
  sampler.unref()
  mark('after start')

  const now = Date.now()
  const orders = await prepareOrders(now, ORDER_WARM_UP + 2500)
  mark('after preparing content and cards')
  // The load scenarios render nothing: they start once the content worker has gone idle and left.
  const idleStarted = performance.now()
  while (childrenOf(pid).length > 0 && performance.now() - idleStarted < 60_000) {
    await new Promise((r) => setTimeout(r, 100))
  }
  mark(
    childrenOf(pid).length === 0
      ? `content worker left after ${((performance.now() - idleStarted) / 1000).toFixed(1)} s idle`
      : 'content worker still running after 60 s',
  )
  const peakReset = resetPeak(pid)
  mark(peakReset ? 'peak restarted for the load scenarios' : 'peak could not be restarted')
  console.log(
    `prepared ${orders.count} paid orders over ${orders.devices} billboards; share-the-love: 14 days of 15-minute slots`,
  )

  const health = (): Req => ({ method: 'GET', path: '/api/v1/health' })
  const searchReq = benchSearchRequest(now)
  await load('warm-up', () => (Math.random() < 0.5 ? health() : searchReq()), 200)
  mark('after warm-up')

  // The machine may be shared: each endpoint is measured in short rounds alternating with the trivial
  // endpoint, so that both see the same conditions, and compared with the trivial rounds beside it.
  const ROUNDS = 10
  // The CPU each request cost the server's main thread and this client, read around each round: a
  // share of the trivial endpoint says little when one of the two is the limit.
  const measured = async (next: () => Req, into: Run[], cost: CpuCost) => {
    const server = threadCpuMs(pid).get('main') ?? 0
    const client = process.cpuUsage()
    const done = await run(next, 200, DURATION_MS / ROUNDS)
    const clientUsed = process.cpuUsage(client)
    cost.serverMs += (threadCpuMs(pid).get('main') ?? 0) - server
    cost.clientMs += (clientUsed.user + clientUsed.system) / 1000
    cost.requests += done.latencies.length
    into.push(done)
  }
  const paired = async (label: string, next: () => Req) => {
    const mine: Run[] = []
    const trivialRuns: Run[] = []
    const cost = { trivial: noCost(), mine: noCost() }
    for (let r = 0; r < ROUNDS; r++) {
      await measured(health, trivialRuns, cost.trivial)
      await measured(next, mine, cost.mine)
    }
    return {
      trivial: summarise('GET /health (trivial, alternating)', trivialRuns),
      mine: summarise(label, mine),
      cost,
    }
  }
  const results: Result[] = []
  const figures: Parameters<typeof report>[0] = { pages: [], renders: [] }

  if (wants('search')) {
    const pair = await paired('POST /spotlight/slots/search', searchReq)
    results.push(pair.trivial, pair.mine)
    figures.search = pair
    mark('after slot search')
  }
  if (wants('event')) {
    const pair = await paired('GET /spotlight/events/{slug}', () => ({
      method: 'GET',
      path: '/api/v1/spotlight/events/share-the-love',
    }))
    results.push(pair.trivial, pair.mine)
    figures.event = pair
  }

  if (wants('pages')) {
    // The first screens as a phone asks for them (Brotli accepted), from the page cache.
    const page = (path: string) => (): Req => ({
      method: 'GET',
      path,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    for (const [label, path] of [
      ['GET / (server-rendered, cached)', '/'],
      ['GET /{event}/design/location (cached)', '/share-the-love/design/location'],
      ['GET /fr/{event}/design/location (cached)', '/fr/share-the-love/design/location'],
    ] as const) {
      const pair = await paired(label, page(path))
      results.push(pair.trivial, pair.mine)
      figures.pages.push(pair.mine)
    }
    mark('after the cached pages')
  }

  if (wants('renders')) {
    // The render itself, as on a cache miss: the app's server build renders the page in this
    // process; its route loaders ask the server's API over loopback.
    const ssr = (await import(
      pathToFileURL(join(ROOT, 'build', 'server', 'entry-server.js')).href
    )) as SsrModule
    const renderer = ssr.createRenderer({
      api: (path, init) => fetch(`${server.base}${path}`, init),
      onError: (error) => console.log('render error', error),
    })
    const template = readFileSync(join(ROOT, 'dist', 'index.html'), 'utf8')
    for (const [label, path, locale] of [
      ['render / (uncached)', '/', 'en'],
      ['render /{event}/design/location (uncached)', '/share-the-love/design/location', 'en'],
    ] as const) {
      for (const connections of [1, CONNECTIONS]) {
        const latencies: number[] = []
        let failures = 0
        const started = performance.now()
        const deadline = started + DURATION_MS / 2
        await Promise.all(
          Array.from({ length: connections }, async () => {
            while (performance.now() < deadline) {
              const t0 = performance.now()
              const result = await renderer.render({ path, locale, template })
              latencies.push(performance.now() - t0)
              if (result.kind !== 'page' || result.status !== 200) failures++
            }
          }),
        )
        const seconds = (performance.now() - started) / 1000
        figures.renders.push(
          summarise(`${label}, ${connections} at a time`, [
            { latencies, statuses: new Map([[200, latencies.length]]), errors: failures, seconds },
          ]),
        )
      }
    }
    results.push(...figures.renders)
    mark('after the uncached renders')
  }

  if (wants('flood')) {
    // Eight clients ask made-up page paths (each one new) while slot search is measured.
    const floodAgent = new http.Agent({ keepAlive: true, maxSockets: 8 })
    let flooding = true
    let madeUp = 0
    const floodStatuses = new Map<number, number>()
    const shapes = [
      (n: number) => `/made-up-${n}`,
      (n: number) => `/made-up-${n}/design/location`,
      (n: number) => `/fr/made-up-${n}?device=${n}`,
      (n: number) => `/a/b/c/${n}`,
    ]
    const flood = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (flooding) {
          const n = madeUp++
          const shape = shapes[n % shapes.length] as (n: number) => string
          const { status } = await send(
            { method: 'GET', path: shape(n), headers: { 'accept-encoding': 'gzip, deflate, br' } },
            floodAgent,
          )
          floodStatuses.set(status, (floodStatuses.get(status) ?? 0) + 1)
        }
      }),
    )
    const beside = summarise('POST /spotlight/slots/search + flood', [
      await run(searchReq, 200, DURATION_MS),
    ])
    flooding = false
    await flood
    floodAgent.destroy()
    results.push(beside)
    figures.flood = { result: beside, paths: madeUp, statuses: floodStatuses }
    mark('after the made-up-path flood')
  }

  if (wants('orders')) {
    // Orders alternate with the trivial endpoint too, until the prepared orders run out; the CPU of
    // the server's threads is read around the order rounds only.
    const orderRuns: Run[] = []
    const trivialRuns: Run[] = []
    const cpu: Map<string, number> = new Map()
    const warmUp = await run(
      () => (orders.sent() < ORDER_WARM_UP ? orders.nextOrder() : null),
      201,
      60_000,
    )
    results.push(summarise(`POST /order/orders, the first ${ORDER_WARM_UP} (warm-up)`, [warmUp]))
    for (let r = 0; r < ROUNDS && orders.sent() < orders.count; r++) {
      trivialRuns.push(await run(health, 200, DURATION_MS / ROUNDS))
      const before = threadCpuMs(pid)
      orderRuns.push(await run(orders.nextOrder, 201, DURATION_MS / ROUNDS))
      for (const [name, ms] of threadCpuMs(pid)) {
        cpu.set(name, (cpu.get(name) ?? 0) + ms - (before.get(name) ?? 0))
      }
    }
    const pair = {
      trivial: summarise('GET /health (trivial, alternating)', trivialRuns),
      mine: summarise('POST /order/orders (paid, 2 slots)', orderRuns),
    }
    results.push(pair.trivial, pair.mine)
    figures.orders = { ...pair, cpu }
    // Let the background processing of the orders finish before reading memory.
    await new Promise((r) => setTimeout(r, 2000))
    mark('after the order scenario')
  }

  if (wants('schedule')) {
    // A billboard's schedule for 24 hours of sold slots. The orders sell the first billboard's
    // slots first, two at a time: the first 48 orders (placed now if the scenario above did not reach
    // them, untimed) fill its first 24 hours.
    while (orders.sent() < Math.min(48, orders.count)) {
      const req = orders.nextOrder()
      if (!req) break
      await send(req)
    }
    await new Promise((r) => setTimeout(r, 2000))
    const first = orders.work[0]
    if (first) {
      const schedulePath = `/api/v1/player/${encodeURIComponent(first.deviceId)}/schedule?fromEpochMs=${first.startEpochMs}&toEpochMs=${first.startEpochMs + 86_400_000}`
      const headers = {
        authorization: `Bearer ${server.playerTokens.get(first.deviceId) ?? ''}`,
      }
      const sample = JSON.parse(
        (await send({ method: 'GET', path: schedulePath, headers })).body,
      ) as { items?: unknown[] }
      const pair = await paired('GET /player/{deviceId}/schedule (24 h)', () => ({
        method: 'GET',
        path: schedulePath,
        headers,
      }))
      results.push(pair.trivial, pair.mine)
      figures.schedule = { ...pair, plays: sample.items?.length ?? 0 }
      mark('after the schedule scenario')
    }
  }
  const mem = memory(pid)
  clearInterval(sampler)

  console.log('')
  for (const r of results) console.log(fmt(r))
  console.log('')
  report(figures, {
    peakReset,
    peakMb: mem.peakMb,
    overallPeakMb: Math.max(overallPeak, mem.peakMb),
    nowMb: mem.rssMb,
    workerPeakMb: tree.workerPeakMb,
    workersStarted: tree.workers.size,
    totalPeakMb: tree.totalPeakMb,
  })
  if (wants('limiter')) console.log(await limiterCost())
  console.log(`  ${phases.join('\n  ')}`)
  console.log(`load average before the run: ${loadBefore}; after: ${loadAverage()}`)
  for (const r of results) {
    if (r.errors) console.log(`${r.label}: statuses ${JSON.stringify([...r.statuses])}`)
  }
  await server.stop()
  agent.destroy()
  rmSync(dataDir, { recursive: true, force: true })
}

await main()
