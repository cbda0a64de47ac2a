import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import {
  agent,
  BENCH_DEVICES,
  CONNECTIONS,
  failures,
  MODES,
  POSTGRES,
  pipeline,
  profileArgs,
  type Req,
  ROUND_ORDERS,
  ROUNDS,
  run,
  SECONDS,
  send,
  start,
  stopAll,
  WARMUP_ORDERS,
} from './scale-parts.ts'
import { benchContentSource, benchOrderBody, uploadBenchPhoto } from './shop.ts'

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
