// npm run bench: throughput and latency of the real server on loopback, from one run.
// Slot search (14-day event, 15-minute slots), event fetch and order placement, each beside a trivial
// endpoint (GET /api/v1/health) measured the same way, and the server's peak memory (VmHWM).
// The server-rendered first screens (home, the location step), served from the page cache
// under 16 connections, and their render itself (the app's server build, uncached). // slot search while eight clients ask made-up page paths.
// Bounded: each scenario runs for a fixed time or request count, then the server is stopped.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { SsrModule } from '../src/contract/ssr.ts'
import { type EventTiming, slotStartEpochMs } from '../src/domain/index.ts'
import { openDatabase } from '../src/server/platform/db/client.ts'
import { applyMigrations } from '../src/server/platform/db/migrate.ts'
import { createRateLimiter } from '../src/server/platform/rate-limit.ts'
import { benchContentSource, benchOrderBody, uploadBenchPhoto } from './bench-shop.ts'

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const ROOT = new URL('..', import.meta.url).pathname

type Req = { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> }
type Result = {
  label: string
  requests: number
  errors: number
  rps: number
  p50: number
  p99: number
  statuses: Map<number, number>
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
let base = ''

function send(req: Req, through = agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base + req.path)
    const r = http.request(
      {
        agent: through,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: req.method,
        headers: {
          ...(req.body
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(req.body) }
            : {}),
          ...req.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        )
      },
    )
    r.on('error', reject)
    if (req.body) r.write(req.body)
    r.end()
  })
}

/** CONNECTIONS loops, each sending its next request when the last answered, until time or work runs out. */
type Run = { latencies: number[]; statuses: Map<number, number>; errors: number; seconds: number }

async function load(
  label: string,
  next: () => Req | null,
  expected: number,
  durationMs = DURATION_MS,
): Promise<Result> {
  return summarise(label, [await run(next, expected, durationMs)])
}

async function run(next: () => Req | null, expected: number, durationMs: number): Promise<Run> {
  const latencies: number[] = []
  const statuses = new Map<number, number>()
  let errors = 0
  const started = performance.now()
  const deadline = started + durationMs
  const worker = async () => {
    while (performance.now() < deadline) {
      const req = next()
      if (!req) return
      const t = performance.now()
      try {
        const res = await send(req)
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
        if (res.status !== expected) errors++
      } catch {
        errors++
      }
      latencies.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, worker))
  return { latencies, statuses, errors, seconds: (performance.now() - started) / 1000 }
}

function summarise(label: string, runs: Run[]): Result {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b)
  const statuses = new Map<number, number>()
  for (const r of runs) for (const [k, n] of r.statuses) statuses.set(k, (statuses.get(k) ?? 0) + n)
  const errors = runs.reduce((n, r) => n + r.errors, 0)
  const elapsed = runs.reduce((t, r) => t + r.seconds, 0)
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0
  return {
    label,
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: pct(50),
    p99: pct(99),
    statuses,
  }
}

/**
 * Starts a new peak (VmHWM) from the current RSS (Linux: `5` into /proc/PID/clear_refs), so the peak of
 * the load scenarios is told apart from the one-off preparation (content generation loads the renderer
 * and the nudity model). False when the kernel does not allow it; the peak then covers the whole run.
 */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

function memory(pid: number): { rssMb: number; peakMb: number } {
  let status = ''
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return { rssMb: 0, peakMb: 0 }
  }
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 }
}

/** The server's child processes (the content worker, when it runs). */
function childrenOf(pid: number): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === pid) found.push(Number(entry))
    } catch {}
  }
  return found
}

const fmt = (r: Result) =>
  `${r.label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99
    .toFixed(2)
    .padStart(6)} ms   (${r.requests} requests, ${r.errors} unexpected)`

/**
 * The shared rate limiter's cost per write (one upsert per limited call), measured on
 * its own embedded database: sequential hits, and 8 at once on one key (the row lock's contention).
 */
async function limiterCost(): Promise<string> {
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
    return `rate limiter (one upsert per write, PGlite): ${sequentialUs.toFixed(0)} µs a hit, ${contendedUs.toFixed(0)} µs a hit with 8 at once on one client`
  } finally {
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'shouts-bench-'))
  // BENCH_CPU_PROF=DIR writes a V8 CPU profile of the server there, to see where its time goes.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : []
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', join(ROOT, 'scripts/bench-server.ts'), dataDir],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: '',
        STRIPE_SECRET_KEY: '',
        APP_ENV: 'local',
        // The content worker leaves soon after the last render, as it would after a quiet spell.
        CONTENT_WORKER_IDLE_SECONDS: process.env.CONTENT_WORKER_IDLE_SECONDS ?? '2',
        // One load generator is one client address: the shared limiter still counts every write
        // (its cost is in the figures, and measured alone below), but does not stop the bench.
        WRITES_PER_MINUTE: '100000000',
        CONTENT_JOBS_PER_CLIENT: '100000',
        UPLOAD_BYTES_PER_CLIENT_HOUR: '1000000000000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM')
  }
  process.on('exit', stop)
  const playerTokens = new Map<string, string>()
  base = await new Promise<string>((resolve, reject) => {
    let text = ''
    child.stderr.on('data', (d: Buffer) => {
      text += d.toString()
      for (const [, id, token] of text.matchAll(/PLAYER (\S+) (\S+)\n/g)) {
        playerTokens.set(id as string, token as string)
      }
      const m = /READY (\S+)/.exec(text)
      if (m?.[1]) resolve(m[1])
    })
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${text}`)))
    // the server builds the app first when the build is missing or older than its sources
    // unref: the run must not wait out this timer at its end (it looked hung for up to two minutes)
    setTimeout(() => reject(new Error('server did not start in 300 s')), 300_000).unref()
  })
  const pid = child.pid as number
  const phases: string[] = []
  // The highest VmHWM seen over the whole run (the kernel's peak restarts when resetPeak is used).
  let overallPeak = 0
  const mark = (phase: string) => {
    const m = memory(pid)
    overallPeak = Math.max(overallPeak, m.peakMb)
    phases.push(`${phase}: ${m.rssMb.toFixed(0)} MB (peak so far ${m.peakMb.toFixed(0)})`)
  }
  console.log(
    `server ${base} (pid ${pid}), ${CONNECTIONS} connections, ${DURATION_MS / 1000} s per scenario`,
  )
  console.log(
    `load average before the run: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  // Sampled every 100 ms: the content worker's memory, and the server and worker together, whose
  // peaks VmHWM alone cannot tell (the worker comes and goes).
  const tree = { workerPeakMb: 0, totalPeakMb: 0, workers: new Set<number>() }
  const sampler = setInterval(() => {
    const server = memory(pid).rssMb
    let workers = 0
    for (const c of childrenOf(pid)) {
      tree.workers.add(c)
      const m = memory(c)
      workers += m.rssMb
      tree.workerPeakMb = Math.max(tree.workerPeakMb, m.peakMb, m.rssMb)
    }
    tree.totalPeakMb = Math.max(tree.totalPeakMb, server + workers)
  }, 100)
  sampler.unref()
  mark('after start')

  // Orders need content per billboard and a saved card each: made before the clock starts.
  const event = JSON.parse(
    (await send({ method: 'GET', path: '/api/v1/spotlight/events/share-the-love' })).body,
  )
  const devices = (
    JSON.parse(
      (await send({ method: 'GET', path: '/api/v1/spotlight/events/share-the-love/devices' })).body,
    ) as {
      devices: {
        deviceId: string
        soldOut: boolean
        unavailableForEvent: boolean
        contentWidth: number
      }[]
    }
  ).devices.filter((d) => !d.soldOut && !d.unavailableForEvent)
  const uploadId = await uploadBenchPhoto(base)
  const now = Date.now()
  const work: {
    deviceId: string
    slots: number[]
    startEpochMs: number
    key: string
    source: ReturnType<typeof benchContentSource>
  }[] = []
  for (const d of devices) {
    const source = benchContentSource(
      d.deviceId,
      d.contentWidth === 1400 ? 'hearts' : 'hearts-wide',
      uploadId,
    )
    const gen = JSON.parse(
      (
        await send({
          method: 'POST',
          path: '/api/v1/content/generate',
          body: JSON.stringify({ contentGenerationRequest: source, async: false }),
        })
      ).body,
    )
    const search = JSON.parse(
      (
        await send({
          method: 'POST',
          path: '/api/v1/spotlight/slots/search',
          body: JSON.stringify({
            deviceId: d.deviceId,
            eventSlug: 'share-the-love',
            startEpochMs: now,
            endEpochMs: now + 15 * 86_400_000,
          }),
        })
      ).body,
    ) as { openSlots: number[]; event: EventTiming; timeZoneId: string }
    // Slots starting within the next hour are left out: preparing takes a while, and a slot that has
    // started by the time its order is sent is rightly refused (a 400 that is not what is measured).
    const open = search.openSlots.filter(
      (slot) => slotStartEpochMs(search.event, search.timeZoneId, slot) >= now + 3_600_000,
    )
    for (let i = 0; i + 1 < open.length; i += 2) {
      work.push({
        deviceId: d.deviceId,
        slots: open.slice(i, i + 2),
        startEpochMs: slotStartEpochMs(search.event, search.timeZoneId, open[i] as number),
        key: gen.generatedContent.key,
        source,
      })
    }
  }
  mark('after generating content')
  const orderCount = Math.min(work.length, 2500)
  const cards: { customerId: string; checkoutSecretKey: string }[] = []
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (cards.length < orderCount) {
        const setup = JSON.parse(
          (await send({ method: 'POST', path: '/api/v1/order/payment/setup-intent' })).body,
        )
        await send({
          method: 'POST',
          path: '/api/v1/order/payment/local/confirm',
          body: JSON.stringify({
            clientSecret: setup.clientSecret,
            cardNumber: '4242424242424242',
            expMonth: 12,
            expYear: 2040,
            cvc: '123',
          }),
        })
        cards.push(setup)
      }
    }),
  )
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
  // Each billboard's content is generated once (7 renders and moderations) and its key reused by every
  // order for that billboard, as a shopper booking several slots does: the order scenario measures order
  // placement, not rendering (npm run bench:content measures that).
  const peakReset = resetPeak(pid)
  mark(peakReset ? 'peak restarted for the load scenarios' : 'peak could not be restarted')
  console.log(
    `prepared ${orderCount} paid orders over ${devices.length} billboards; ${event.slug}: 14 days of 15-minute slots`,
  )

  const health = (): Req => ({ method: 'GET', path: '/api/v1/health' })
  const searchBody = JSON.stringify({
    deviceId: 'paris-opera-1',
    eventSlug: 'share-the-love',
    startEpochMs: now - 86_400_000,
    endEpochMs: now + 15 * 86_400_000,
  })
  await load(
    'warm-up',
    () =>
      Math.random() < 0.5
        ? health()
        : { method: 'POST', path: '/api/v1/spotlight/slots/search', body: searchBody },
    200,
  )

  mark('after warm-up')
  // The machine may be shared: each endpoint is measured in short rounds alternating with the trivial
  // endpoint, so that both see the same conditions, and compared with the trivial rounds beside it.
  const ROUNDS = 10
  const paired = async (label: string, next: () => Req) => {
    const mine: Run[] = []
    const trivialRuns: Run[] = []
    for (let r = 0; r < ROUNDS; r++) {
      trivialRuns.push(await run(health, 200, DURATION_MS / ROUNDS))
      mine.push(await run(next, 200, DURATION_MS / ROUNDS))
    }
    return [
      summarise('GET /health (trivial, alternating)', trivialRuns),
      summarise(label, mine),
    ] as const
  }
  const results: Result[] = []
  const [trivial1, search] = await paired('POST /spotlight/slots/search', () => ({
    method: 'POST',
    path: '/api/v1/spotlight/slots/search',
    body: searchBody,
  }))
  results.push(trivial1, search)
  mark('after slot search')
  const [trivial2, ev] = await paired('GET /spotlight/events/{slug}', () => ({
    method: 'GET',
    path: '/api/v1/spotlight/events/share-the-love',
  }))
  results.push(trivial2, ev)

  // The first screens as a phone asks for them (Brotli accepted), from the page cache: the
  // figure the server's cost per page is judged by (target: p50 <= 5 ms under 16 connections).
  const page = (path: string) => (): Req => ({
    method: 'GET',
    path,
    headers: { 'accept-encoding': 'gzip, deflate, br' },
  })
  const pages: Result[] = []
  for (const [label, path] of [
    ['GET / (server-rendered, cached)', '/'],
    ['GET /{event}/design/location (cached)', '/share-the-love/design/location'],
    ['GET /fr/{event}/design/location (cached)', '/fr/share-the-love/design/location'],
  ] as const) {
    const [trivial, mine] = await paired(label, page(path))
    results.push(trivial, mine)
    pages.push(mine)
  }
  mark('after the cached pages')

  // The render itself, as on a cache miss: the app's server build (build/server, what the server
  // loads) renders the page in this process, CONNECTIONS renders at a time; its route loaders ask
  // the server's API over loopback (the server answers them in process, a little cheaper).
  const ssr = (await import(
    pathToFileURL(join(ROOT, 'build', 'server', 'entry-server.js')).href
  )) as SsrModule
  const renderer = ssr.createRenderer({
    api: (path, init) => fetch(`${base}${path}`, init),
    onError: (error) => console.log('render error', error),
  })
  const template = readFileSync(join(ROOT, 'dist', 'index.html'), 'utf8')
  const renders: Result[] = []
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
      renders.push(
        summarise(`${label}, ${connections} at a time`, [
          { latencies, statuses: new Map([[200, latencies.length]]), errors: failures, seconds },
        ]),
      )
    }
  }
  results.push(...renders)
  mark('after the uncached renders')

  // Eight clients ask made-up page paths (each one new) while slot search is measured
  // as above; once, each new path was rendered and compressed synchronously and cached for ever.
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
  const searchBeside = summarise('POST /spotlight/slots/search + flood', [
    await run(
      () => ({ method: 'POST', path: '/api/v1/spotlight/slots/search', body: searchBody }),
      200,
      DURATION_MS,
    ),
  ])
  flooding = false
  await flood
  floodAgent.destroy()
  results.push(searchBeside)
  mark('after the made-up-path flood')
  let o = 0
  const orderRuns: Run[] = []
  const trivial3Runs: Run[] = []
  const nextOrder = (): Req | null => {
    if (o >= orderCount) return null
    const w = work[o] as (typeof work)[number]
    const card = cards[o] as (typeof cards)[number]
    o++
    return {
      method: 'POST',
      path: '/api/v1/order/orders',
      headers: { 'idempotency-key': `bench-${o}` },
      body: benchOrderBody({
        n: o,
        deviceId: w.deviceId,
        slots: w.slots,
        contentKey: w.key,
        source: w.source,
        card,
      }),
    }
  }
  // Orders alternate with the trivial endpoint too, until the prepared orders run out.
  for (let r = 0; r < ROUNDS && o < orderCount; r++) {
    trivial3Runs.push(await run(health, 200, DURATION_MS / ROUNDS))
    orderRuns.push(await run(nextOrder, 201, DURATION_MS / ROUNDS))
  }
  const trivial3 = summarise('GET /health (trivial, alternating)', trivial3Runs)
  const orders = summarise('POST /order/orders (paid, 2 slots)', orderRuns)
  results.push(trivial3, orders)
  // Let the background processing of the orders finish before reading memory.
  await new Promise((r) => setTimeout(r, 2000))
  mark('after the order scenario')

  // A billboard's schedule for 24 hours of sold slots. The orders sell the first billboard's
  // slots first, two at a time: the first 48 orders (placed now if the scenario above did not reach
  // them, untimed) fill its first 24 hours.
  while (o < Math.min(48, orderCount)) {
    const req = nextOrder()
    if (!req) break
    await send(req)
  }
  await new Promise((r) => setTimeout(r, 2000))
  const first = work[0] as (typeof work)[number]
  const schedulePath = `/api/v1/player/${encodeURIComponent(first.deviceId)}/schedule?fromEpochMs=${first.startEpochMs}&toEpochMs=${first.startEpochMs + 86_400_000}`
  const playerHeaders = { authorization: `Bearer ${playerTokens.get(first.deviceId) ?? ''}` }
  const sample = JSON.parse(
    (await send({ method: 'GET', path: schedulePath, headers: playerHeaders })).body,
  ) as { items?: unknown[] }
  const [trivial4, schedule] = await paired('GET /player/{deviceId}/schedule (24 h)', () => ({
    method: 'GET',
    path: schedulePath,
    headers: playerHeaders,
  }))
  results.push(trivial4, schedule)
  mark('after the schedule scenario')
  const mem = memory(pid)

  console.log('')
  for (const r of results) console.log(fmt(r))
  console.log('')
  console.log(
    `slot search: ${((search.rps / trivial1.rps) * 100).toFixed(0)}% of the trivial endpoint's throughput (target >= 50%), p99 ${search.p99.toFixed(1)} ms (target < 25 ms)`,
  )
  console.log(
    `event fetch: ${((ev.rps / trivial2.rps) * 100).toFixed(0)}% of the trivial endpoint's throughput, p99 ${ev.p99.toFixed(1)} ms`,
  )
  for (const r of pages) {
    console.log(
      `page ${r.label}: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms under ${CONNECTIONS} connections (target: p50 <= 5 ms)`,
    )
  }
  for (const r of renders) {
    console.log(`${r.label}: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`)
  }
  console.log(
    `slot search while 8 clients asked ${madeUp} made-up paths (${[...floodStatuses].map(([k, n]) => `${n}x ${k}`).join(', ')}): p50 ${searchBeside.p50.toFixed(2)} ms, p99 ${searchBeside.p99.toFixed(2)} ms; alone p50 ${search.p50.toFixed(2)} ms, p99 ${search.p99.toFixed(2)} ms (it was ~400-480 ms p50)`,
  )
  console.log(
    `order placement: ${orders.rps.toFixed(0)} orders/s on the embedded database (target >= 300), ${((orders.rps / trivial3.rps) * 100).toFixed(0)}% of the trivial endpoint's throughput, p99 ${orders.p99.toFixed(1)} ms`,
  )
  console.log(
    `player schedule: ${schedule.rps.toFixed(0)} requests/s for one billboard over 24 h of sold slots (${sample.items?.length ?? 0} plays), ${((schedule.rps / trivial4.rps) * 100).toFixed(0)}% of the trivial endpoint's throughput, p99 ${schedule.p99.toFixed(1)} ms`,
  )
  console.log(
    peakReset
      ? `server memory: peak ${mem.peakMb.toFixed(0)} MB RSS during the load scenarios (VmHWM, target < 400 MB); peak over the whole run including the one-off content generation ${Math.max(overallPeak, mem.peakMb).toFixed(0)} MB; now ${mem.rssMb.toFixed(0)} MB`
      : `server memory: peak ${mem.peakMb.toFixed(0)} MB RSS over the whole run including content generation (VmHWM, target < 400 MB), now ${mem.rssMb.toFixed(0)} MB`,
  )
  clearInterval(sampler)
  console.log(
    `content worker (rendering, nudity model; ${tree.workers.size} started): peak ${tree.workerPeakMb.toFixed(0)} MB RSS; server and worker together: peak ${tree.totalPeakMb.toFixed(0)} MB (sampled every 100 ms)`,
  )
  console.log(await limiterCost())
  console.log(`  ${phases.join('\n  ')}`)
  console.log(
    `load average after the run: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const unexpected = results.reduce((n, r) => n + r.errors, 0)
  if (unexpected > 0) {
    for (const r of results)
      if (r.errors) console.log(`${r.label}: statuses ${JSON.stringify([...r.statuses])}`)
  }
  stop()
  await new Promise((r) => child.once('exit', r))
  agent.destroy()
  rmSync(dataDir, { recursive: true, force: true })
}

await main()
