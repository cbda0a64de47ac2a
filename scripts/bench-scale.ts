// npm run bench, the several-instances lines: (1) the request pipeline's own cost: the shop's trivial endpoint
// (GET /api/v1/health, every middleware on, as in production with METRICS_TOKEN set) beside a bare Hono
// app answering the same route, in alternating rounds; (2) orders per second with one and with three
// instances (src/server/main.ts --api-only, each its own process; alternating rounds) on one PostgreSQL
// (BENCH_DATABASE_URL or TEST_DATABASE_URL; skipped without). The instances share this machine's cores
// with the load generator, so three are not expected to be faster: the point is that they are not
// slower and that nothing fails.
//
// How the orders are counted : every round places the
// same number of orders (BENCH_ROUND_ORDERS) and then waits until none is Processing, so an order
// counts once placed AND processed, and the round's time and CPU include its processing. Processing
// runs after the 201, on the instance that took the order: rounds that ended with their last 201 (1 s
// each before) left their processing to the next round, of the other mode. A fixed count rather than a
// fixed time also lets the bench prepare exactly the slots it sells (a quiet machine ran out of slots
// after 7-8 of 10 timed rounds). The mail planner is held off (MAIL_POLL_SECONDS=3600 on the three):
// it made the orders' confirmation mails (up to 100 a pass) on whichever instance polled first, at
// moments unrelated to the rounds. Both modes run on the same three processes with the same
// settings (pools of 10 each); the bench prints the servers' CPU per order (main thread and the rest),
// their context switches, and the CPU of PostgreSQL's backends for the database, per mode.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { benchContentSource, benchOrderBody, uploadBenchPhoto } from './bench-shop.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
/**
 * The order rounds: how many (alternating between the modes) and how many orders each places (the
 * same work in every round; the time it takes is the measure). The warm-up's orders are not counted.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8)
const ROUND_ORDERS = Number(process.env.BENCH_ROUND_ORDERS ?? 800)
const WARMUP_ORDERS = Number(process.env.BENCH_WARMUP_ORDERS ?? 1500)
/** The modes the order rounds alternate between: `1,3` (the default); `1` or `3` alone to profile one. */
const MODES = (process.env.BENCH_MODES ?? '1,3').split(',').map((m) => {
  if (m !== '1' && m !== '3') throw new Error(`BENCH_MODES: 1 and/or 3, not ${m}`)
  return Number(m) as 1 | 3
})
/**
 * The live event's billboards and the design each takes (the banners 'hearts', the wide screens
 * 'hearts-wide'); nyc-union-square is not available for it.
 */
const BENCH_DEVICES: [string, string][] = [
  ['paris-opera-1', 'hearts'],
  ['paris-champs-elysees', 'hearts'],
  ['paris-republique', 'hearts'],
  ['london-kings-cross', 'hearts'],
  ['berlin-alexanderplatz', 'hearts'],
  ['berlin-potsdamer-platz', 'hearts'],
  ['london-piccadilly-1', 'hearts-wide'],
  ['nyc-times-square-1', 'hearts-wide'],
]
const ROOT = new URL('..', import.meta.url).pathname
const POSTGRES = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
type Req = { method: 'GET' | 'POST'; url: string; body?: string; headers?: Record<string, string> }

/**
 * One request. A kept-alive socket the server closed as idle (its keepAliveTimeout, 5 s) while this
 * request was sent on it fails with ECONNRESET before the server read anything: sent again once on a
 * new socket, as Node's documentation advises (an order carries its Idempotency-Key). An instance
 * idle through a long round of the other mode met this.
 */
function send(req: Req, retried = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const r = http.request(
      req.url,
      {
        method: req.method,
        agent,
        headers: { 'content-type': 'application/json', ...req.headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        )
      },
    )
    r.on('error', (error: NodeJS.ErrnoException) => {
      if (r.reusedSocket && error.code === 'ECONNRESET' && !retried) {
        resolve(send(req, true))
      } else reject(error)
    })
    r.end(req.body)
  })
}

/** The first few unexpected answers (status and body), printed at the end. */
const failures: string[] = []

/** CONNECTIONS loops sending `next()` for `ms`; answers done, failed, seconds. */
async function run(next: () => Req | null, expected: number, ms: number) {
  let ok = 0
  let failed = 0
  const started = performance.now()
  const until = started + ms
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const req = next()
        if (!req) return
        const res = await send(req).catch((error: Error) => ({ status: 0, body: error.message }))
        if (res.status === expected) ok++
        else {
          failed++
          if (failures.length < 5) failures.push(`${res.status} ${res.body.slice(0, 200)}`)
        }
      }
    }),
  )
  return { ok, failed, seconds: (performance.now() - started) / 1000 }
}

function start(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  nodeArgs: string[] = [],
) {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      WRITES_PER_MINUTE: '100000000',
      CONTENT_JOBS_PER_CLIENT: '100000',
      UPLOAD_BYTES_PER_CLIENT_HOUR: '1000000000000',
      PROMO_LOOKUPS_PER_MINUTE: '100000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = new Promise<string>((resolve, reject) => {
    let text = ''
    let found = false
    // Until the address is seen the output is kept (for an error); after it, only drained.
    const look = (d: Buffer) => {
      if (found) return
      text += d.toString()
      const m = ready.exec(text)
      if (m?.[1]) {
        found = true
        text = text.slice(-2000)
        resolve(m[1])
      }
    }
    child.stdout?.on('data', look)
    child.stderr?.on('data', look)
    child.once('exit', (code) => reject(new Error(`exited (${code}): ${text.slice(-2000)}`)))
  })
  return { child, url }
}

const stopAll = async (children: ChildProcess[]) => {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve()
          c.once('exit', () => resolve())
          c.kill('SIGTERM')
        }),
    ),
  )
}

/** A process's CPU time so far (user + system), in seconds (Linux /proc; 0 elsewhere). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/**
 * BENCH_CPU_PROF=DIR: V8 CPU profiles of the servers' processes, to see where a request's time goes
 * (the order rounds' spans are written beside them, order-rounds.json).
 */
const profileArgs = () =>
  process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []

async function pipeline() {
  const profile = profileArgs()
  const dataDir = mkdtempSync(join(tmpdir(), 'shouts-bench-pipeline-'))
  const shop = start(
    ['src/server/main.ts', '--api-only'],
    {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      METRICS_TOKEN: 'bench-metrics-token-0123456789',
      ...JSON.parse(process.env.BENCH_SHOP_ENV ?? '{}'),
    },
    /^(?=.*"msg":"listening").*"url":"([^"]+)"/m,
    profile,
  )
  const bare = start(['scripts/bench-bare.ts'], {}, /READY (\S+)/, profile)
  const [shopUrl, bareUrl] = await Promise.all([shop.url, bare.url])
  // Alternating rounds, so both see the same machine: the ratio of each pair of rounds, then their
  // median and spread (this machine is shared; one figure alone says little).
  const rounds = 10
  const totals = { shop: { ok: 0, s: 0, failed: 0 }, bare: { ok: 0, s: 0, failed: 0 } }
  const ratios: number[] = []
  // CPU time each server spent (user + system, /proc/PID/stat), per request answered: unlike the
  // throughput, it hardly depends on what else the shared machine runs.
  const cpu = { shop: 0, bare: 0 }
  const pids = { shop: shop.child.pid as number, bare: bare.child.pid as number }
  const health = (base: string) => () => ({ method: 'GET' as const, url: `${base}/api/v1/health` })
  await run(health(shopUrl), 200, 1000)
  await run(health(bareUrl), 200, 1000)
  const loadBefore = loadavg()
  for (let r = 0; r < rounds; r++) {
    const rps = { shop: 0, bare: 0 }
    for (const [key, base] of (r % 2 === 0
      ? [
          ['bare', bareUrl],
          ['shop', shopUrl],
        ]
      : [
          ['shop', shopUrl],
          ['bare', bareUrl],
        ]) as [keyof typeof rps, string][]) {
      const cpuBefore = cpuSeconds(pids[key])
      const res = await run(health(base), 200, (SECONDS * 1000) / rounds)
      cpu[key] += cpuSeconds(pids[key]) - cpuBefore
      totals[key].ok += res.ok
      totals[key].s += res.seconds
      totals[key].failed += res.failed
      rps[key] = res.ok / res.seconds
    }
    ratios.push(rps.shop / rps.bare)
  }
  const loadAfter = loadavg()
  await stopAll([shop.child, bare.child])
  rmSync(dataDir, { recursive: true, force: true })
  const shopRps = totals.shop.ok / totals.shop.s
  const bareRps = totals.bare.ok / totals.bare.s
  const sorted = [...ratios].sort((a, b) => a - b)
  const pct = (x: number | undefined) => `${((x ?? 0) * 100).toFixed(0)}%`
  const median = ((sorted[4] ?? 0) + (sorted[5] ?? 0)) / 2
  const failed = totals.shop.failed + totals.bare.failed
  console.log(
    `request pipeline: GET /health through the shop (JSON log line, request id, security headers, metrics on) against a bare Hono app, ${rounds} alternating rounds: median ${pct(median)} of its throughput (spread ${pct(sorted[0])}-${pct(sorted[sorted.length - 1])}; overall ${shopRps.toFixed(0)} against ${bareRps.toFixed(0)} req/s) (target >= 80%)${failed ? `, ${failed} failed` : ''}; load average ${loadBefore[0]?.toFixed(2)} before, ${loadAfter[0]?.toFixed(2)} after`,
  )
  const usShop = (cpu.shop / totals.shop.ok) * 1e6
  const usBare = (cpu.bare / totals.bare.ok) * 1e6
  console.log(
    `request pipeline, CPU per request (the servers' own user + system time): shop ${usShop.toFixed(0)} µs, bare ${usBare.toFixed(0)} µs: the bare app's cost is ${pct(usBare / usShop)} of the shop's (the throughput one core would allow)`,
  )
}

/**
 * What a process has spent so far, from each of its threads' /proc entries (Linux; zeros elsewhere):
 * CPU seconds (user + system) of its main thread (JavaScript, the event loop) and of its other threads
 * (V8's garbage collector and compilers, libuv's pool), and context switches (voluntary and not).
 */
function threadsSpent(pid: number) {
  const spent = { main: 0, helpers: 0, system: 0, switches: 0 }
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const cpu = (Number(fields[11]) + Number(fields[12])) / 100
      spent.system += Number(fields[12]) / 100
      if (Number(task) === pid) spent.main += cpu
      else spent.helpers += cpu
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8')
      for (const m of status.matchAll(/ctxt_switches:\s+(\d+)/g)) spent.switches += Number(m[1])
    }
  } catch {
    // gone (or no /proc)
  }
  return spent
}

/** What a set of processes has spent so far, by pid. */
type Spent = Map<number, { cpu: number; helpers: number; system: number; switches: number }>
const spentBy = (pids: number[]): Spent =>
  new Map(
    pids.map((pid) => {
      const t = threadsSpent(pid)
      return [pid, { ...t, cpu: t.main + t.helpers }]
    }),
  )
/** From `before` to `after`; a process that began in between counts from zero. */
function spentBetween(before: Spent, after: Spent) {
  let cpu = 0
  let helpers = 0
  let system = 0
  let switches = 0
  for (const [pid, a] of after) {
    const b = before.get(pid)
    cpu += a.cpu - (b?.cpu ?? 0)
    helpers += a.helpers - (b?.helpers ?? 0)
    system += a.system - (b?.system ?? 0)
    switches += a.switches - (b?.switches ?? 0)
  }
  return { cpu, helpers, system, switches }
}

type Mode = 1 | 3
type ModeTotals = {
  rates: number[]
  /** the servers' CPU per order of each round, ms */
  cpuPerOrder: number[]
  orders: number
  seconds: number
  drainSeconds: number
  serverCpu: number
  /** of serverCpu, the threads other than the main one */
  serverHelpersCpu: number
  /** of serverCpu, the kernel's (system time) */
  serverSystemCpu: number
  serverSwitches: number
  postgresCpu: number
}

/**
 * Orders per second with one and with three instances, on one database and the same three processes:
 * rounds alternate between sending every order to one instance (each in turn) and spreading them over
 * the three, so that both see the same machine, the same database and the same table sizes. A round
 * places ROUND_ORDERS orders, then waits until none is left Processing: an order counts once it is
 * placed AND processed (Confirmed), and the servers' and PostgreSQL's CPU of the round is read then,
 * so each mode pays for exactly its own orders (see the header). Each order comes from a client address of its own (X-Forwarded-For behind
 * TRUST_PROXY=1), as shoppers do: from one address, every order's rate-limit hit would queue on that
 * address's one row. The mail planner is held off (MAIL_POLL_SECONDS=3600): the mails the orders owe
 * are made by whichever instance polls first, at a moment unrelated to the rounds.
 */
async function ordersPerSecond() {
  if (!POSTGRES) return null
  const instances = 3
  const name = `shouts_bench_${process.pid}`
  const admin = new pg.Client({ connectionString: POSTGRES })
  // a dropped connection ends the run with its error, not as an uncaught event
  admin.on('error', (error) => console.error('bench database connection:', error))
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = new URL(POSTGRES)
  url.pathname = `/${name}`
  const work = mkdtempSync(join(tmpdir(), 'shouts-bench-scale-'))
  const started = Array.from({ length: instances }, (_, i) =>
    start(
      ['src/server/main.ts', '--api-only'],
      {
        DATA_DIR: join(work, `i${i}`),
        DATABASE_URL: url.toString(),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        STRIPE_SECRET_KEY: '',
        APP_ENV: 'local',
        TRUST_PROXY: '1',
        MAIL_POLL_SECONDS: '3600',
        ...JSON.parse(process.env.BENCH_INSTANCE_ENV ?? '{}'),
      },
      /^(?=.*"msg":"listening").*"url":"([^"]+)"/m,
      [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), ...profileArgs()],
    ),
  )
  const db = new pg.Client({ connectionString: url.toString() })
  db.on('error', (error) => console.error('bench database connection:', error))
  try {
    const bases = await Promise.all(started.map((s) => s.url))
    const first = bases[0] as string
    await db.connect()
    // Content for every billboard of the live event, and their slots: every order takes one slot,
    // each slot once. One billboard has about 1,250 slots in the event's 14 days; eight billboards
    // leave every round slots to sell on a quiet machine.
    const uploadId = await uploadBenchPhoto(first)
    const now = Date.now()
    const perDevice = await Promise.all(
      BENCH_DEVICES.map(async ([deviceId, generatorId]) => {
        const source = benchContentSource(deviceId, generatorId, uploadId)
        const gen = JSON.parse(
          (
            await send({
              method: 'POST',
              url: `${first}/api/v1/content/generate`,
              body: JSON.stringify({ contentGenerationRequest: source, async: false }),
            })
          ).body,
        ) as { generatedContent: { key: string } }
        const search = JSON.parse(
          (
            await send({
              method: 'POST',
              url: `${first}/api/v1/spotlight/slots/search`,
              body: JSON.stringify({
                deviceId,
                eventSlug: 'share-the-love',
                // spec §5: a slot is sold until 5 hours before it plays
                startEpochMs: now + 6 * 3_600_000,
                endEpochMs: now + 15 * 86_400_000,
              }),
            })
          ).body,
        ) as { openSlots: number[] }
        return search.openSlots.map((slot) => ({ slot, source, key: gen.generatedContent.key }))
      }),
    )
    // interleaved, so that every round takes slots of every billboard
    const open = Array.from({ length: Math.max(...perDevice.map((d) => d.length)) }, (_, i) =>
      perDevice.flatMap((d) => (d[i] ? [d[i]] : [])),
    ).flat()
    const needed = WARMUP_ORDERS + ROUNDS * ROUND_ORDERS
    if (open.length < needed) {
      throw new Error(
        `${open.length} open slots, ${needed} needed: lower BENCH_ROUND_ORDERS or BENCH_WARMUP_ORDERS`,
      )
    }
    const slots = open.slice(0, needed)
    // A saved card per order (the local provider), made before the clock starts, by the three in
    // turn: thousands of requests warm an instance's code, and one instance warmer than the others
    // would favour whichever mode sends it more orders.
    const cards: { customerId: string; checkoutSecretKey: string }[] = []
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (cards.length < slots.length) {
          const base = bases[cards.length % instances] as string
          const setup = JSON.parse(
            (await send({ method: 'POST', url: `${base}/api/v1/order/payment/setup-intent` })).body,
          )
          await send({
            method: 'POST',
            url: `${base}/api/v1/order/payment/local/confirm`,
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
    let o = 0
    // spread 1: every order to one instance (`single`, a different one each 1-instance round, so
    // that no instance is favoured); spread 3: the orders in turn to the three. `count` orders, then
    // the round ends.
    const next = (count: number, spread: number, single = 0) => {
      const until = Math.min(o + count, slots.length)
      return (): Req | null => {
        if (o >= until) return null
        const i = o++
        const card = cards[i] as (typeof cards)[number]
        const bought = slots[i] as (typeof slots)[number]
        return {
          method: 'POST',
          url: `${bases[spread === 1 ? single : i % spread]}/api/v1/order/orders`,
          headers: {
            'idempotency-key': `bench-scale-${i}`,
            'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
          },
          body: benchOrderBody({
            n: i,
            deviceId: bought.source.deviceId,
            slots: [bought.slot],
            contentKey: bought.key,
            source: bought.source,
            card,
          }),
        }
      }
    }
    /** Waits until no order is Processing (every order placed so far processed); answers when. */
    const drained = async () => {
      for (let wait = 0; wait < 1500; wait++) {
        const [row] = (
          await db.query<{ n: number }>(
            `select count(*)::int as n from orders where state = 'Processing'`,
          )
        ).rows
        if (!row?.n) return performance.now()
        await new Promise((r) => setTimeout(r, 20))
      }
      throw new Error('orders still Processing after 30 s')
    }
    // Warm-up (not counted), spread over the three: every instance's order path compiled by V8's
    // optimising tier (a few hundred orders each) and its pool opened. A short warm-up left two of the
    // three instances colder than the first one, which took every order of the 1-instance rounds.
    await run(next(WARMUP_ORDERS, 3), 201, 600_000)
    await drained()
    // The servers' CPU time (all three, user + system) per order, in each mode: the same work costing
    // more CPU over three processes would show here, unlike a mere share of the two cores. The same
    // for the database's backends serving this database (PostgreSQL runs on this machine).
    const serverPids = started.map((x) => x.child.pid as number)
    const backendPids = async () =>
      (
        await db.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        )
      ).rows.map((r) => r.pid)
    const modes = MODES
    const totals = Object.fromEntries(
      modes.map((m) => [
        m,
        {
          rates: [],
          cpuPerOrder: [],
          orders: 0,
          seconds: 0,
          drainSeconds: 0,
          serverCpu: 0,
          serverHelpersCpu: 0,
          serverSystemCpu: 0,
          serverSwitches: 0,
          postgresCpu: 0,
        } as ModeTotals,
      ]),
    ) as Record<Mode, ModeTotals>
    let failed = 0
    // Each round's span on the monotonic clock (µs), as V8's profiles and `perf record -k mono` stamp
    // their samples: written to BENCH_ROUND_SPANS (a file) or beside BENCH_CPU_PROF's profiles
    const spans: { mode: Mode; startUs: number; endUs: number }[] = []
    const monotonicUs = () => Number(process.hrtime.bigint() / 1000n)
    for (let r = 0; r < ROUNDS; r++) {
      const spread = modes[r % modes.length] as Mode
      const single = Math.floor(r / modes.length) % instances
      const startUs = monotonicUs()
      const servers = spentBy(serverPids)
      const backends = spentBy(await backendPids())
      const res = await run(next(ROUND_ORDERS, spread, single), 201, 600_000)
      const placedAt = performance.now()
      const endedAt = await drained()
      const serversSpent = spentBetween(servers, spentBy(serverPids))
      const backendsSpent = spentBetween(backends, spentBy(await backendPids()))
      spans.push({ mode: spread, startUs, endUs: monotonicUs() })
      const seconds = res.seconds + (endedAt - placedAt) / 1000
      const t = totals[spread]
      t.rates.push(res.ok / seconds)
      t.cpuPerOrder.push((serversSpent.cpu / res.ok) * 1000)
      t.orders += res.ok
      t.seconds += seconds
      t.drainSeconds += (endedAt - placedAt) / 1000
      t.serverCpu += serversSpent.cpu
      t.serverHelpersCpu += serversSpent.helpers
      t.serverSystemCpu += serversSpent.system
      t.serverSwitches += serversSpent.switches
      t.postgresCpu += backendsSpent.cpu
      failed += res.failed
    }
    // Every order placed must end Confirmed (processed by whichever instance holds it).
    const rows = await db.query<{ state: string; n: number }>(
      'select state, count(*)::int as n from orders group by state',
    )
    const states = Object.fromEntries(rows.rows.map((row) => [row.state, row.n]))
    const spansFile =
      process.env.BENCH_ROUND_SPANS ??
      (process.env.BENCH_CPU_PROF && join(process.env.BENCH_CPU_PROF, 'order-rounds.json'))
    if (spansFile) writeFileSync(spansFile, JSON.stringify(spans))
    return { totals, failed, states }
  } finally {
    await db.end().catch(() => undefined)
    await stopAll(started.map((s) => s.child))
    rmSync(work, { recursive: true, force: true })
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
}

console.log(
  `several instances: ${CONNECTIONS} connections, ${SECONDS} s per pipeline scenario, ${cpus().length} cores shared by the instances, PostgreSQL and the load`,
)
// BENCH_ONLY=pipeline or BENCH_ONLY=orders runs one of the two.
const only = process.env.BENCH_ONLY
if (only !== 'orders') await pipeline()
if (only === 'pipeline') {
  // the orders skipped
} else if (!POSTGRES) {
  console.log(
    'orders/s with 1 and 3 instances: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)',
  )
} else {
  const r = await ordersPerSecond()
  if (r) {
    const median = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b)
      const mid = Math.floor(sorted.length / 2)
      return sorted.length % 2
        ? (sorted[mid] ?? 0)
        : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
    }
    const line = (mode: Mode) => {
      const t = r.totals[mode]
      const sorted = [...t.rates].sort((a, b) => a - b)
      const perOrder = (x: number) => ((x / t.orders) * 1000).toFixed(2)
      return `${mode} instance${mode === 1 ? '' : 's'}: median ${median(t.rates).toFixed(0)} orders/s (spread ${sorted[0]?.toFixed(0)}-${sorted[sorted.length - 1]?.toFixed(0)}, ${t.rates.length} rounds, ${t.orders} orders, ${((t.drainSeconds / t.seconds) * 100).toFixed(0)} % of the time waiting for the last to be processed); CPU per order: servers ${perOrder(t.serverCpu)} ms (${perOrder(t.serverSystemCpu)} of it in the kernel, ${perOrder(t.serverHelpersCpu)} off the main threads; by round ${t.cpuPerOrder.map((x) => x.toFixed(2)).join(', ')}), PostgreSQL ${perOrder(t.postgresCpu)} ms; servers' context switches per order ${(t.serverSwitches / t.orders).toFixed(1)}`
    }
    console.log(
      `orders placed and processed (Confirmed) on PostgreSQL, alternating rounds of ${ROUND_ORDERS} orders on one database (after ${WARMUP_ORDERS} not counted): ${MODES.map(line).join('; ')}. ${r.failed} failed; then ${JSON.stringify(r.states)}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    )
  }
}
if (failures.length > 0) console.log(`unexpected answers (the first ${failures.length}):`, failures)
agent.destroy()
