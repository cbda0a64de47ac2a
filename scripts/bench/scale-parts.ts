// `npm run bench:scale`'s parts (scripts/bench/scale.ts runs them): its settings, the HTTP client and
// the instances it starts, and the request pipeline against a bare Hono app.
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
/**
 * The order rounds: how many (alternating between the modes) and how many orders each places (the
 * same work in every round; the time it takes is the measure). The warm-up's orders are not counted.
 */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8)
export const ROUND_ORDERS = Number(process.env.BENCH_ROUND_ORDERS ?? 800)
export const WARMUP_ORDERS = Number(process.env.BENCH_WARMUP_ORDERS ?? 1500)
/** The modes the order rounds alternate between: `1,3` (the default); `1` or `3` alone to profile one. */
export const MODES = (process.env.BENCH_MODES ?? '1,3').split(',').map((m) => {
  if (m !== '1' && m !== '3') throw new Error(`BENCH_MODES: 1 and/or 3, not ${m}`)
  return Number(m) as 1 | 3
})
/** The live event's billboards (the euro event's, in Paris and Berlin), each a banner. */
export const BENCH_DEVICES: [string, string][] = [
  ['paris-opera-1', 'hearts'],
  ['paris-champs-elysees', 'hearts'],
  ['paris-republique', 'hearts'],
  ['berlin-alexanderplatz', 'hearts'],
  ['berlin-potsdamer-platz', 'hearts'],
]
export const ROOT = new URL('../..', import.meta.url).pathname
export const POSTGRES = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL

export const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
export type Req = {
  method: 'GET' | 'POST'
  url: string
  body?: string
  headers?: Record<string, string>
}

/**
 * One request. A kept-alive socket the server closed as idle (its keepAliveTimeout, 5 s) while this
 * request was sent on it fails with ECONNRESET before the server read anything: sent again once on a
 * new socket, as Node's documentation advises (an order carries its Idempotency-Key). An instance
 * idle through a long round of the other mode met this.
 */
export function send(req: Req, retried = false): Promise<{ status: number; body: string }> {
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
export const failures: string[] = []

/** CONNECTIONS loops sending `next()` for `ms`; answers done, failed, seconds. */
export async function run(next: () => Req | null, expected: number, ms: number) {
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

export function start(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  nodeArgs: string[] = [],
) {
  // The server's output goes to a file, not a pipe the bench reads: a pipe would make the bench's own
  // process (which is also the load's client) read every access line the server writes, so the
  // servers that log would be measured with the client slowed by their log. A real shop's log is
  // read by its collector, elsewhere; the writing stays the server's cost.
  const dir = mkdtempSync(join(tmpdir(), 'shouts-bench-out-'))
  const file = join(dir, 'output.log')
  const out = openSync(file, 'w')
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
    stdio: ['ignore', out, out],
  })
  closeSync(out)
  const tail = () => {
    const text = readFileSync(file, 'utf8')
    return text.slice(-2000)
  }
  const url = new Promise<string>((resolve, reject) => {
    // Read until the address is seen; afterwards the file is only written.
    const look = setInterval(() => {
      const m = ready.exec(readFileSync(file, 'utf8'))
      if (m?.[1]) {
        clearInterval(look)
        resolve(m[1])
      }
    }, 50)
    child.once('exit', (code) => {
      clearInterval(look)
      reject(new Error(`exited (${code}): ${tail()}`))
    })
  })
  // The output file goes with the process.
  child.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  return { child, url }
}

export const stopAll = async (children: ChildProcess[]) => {
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
export function cpuSeconds(pid: number): number {
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
export const profileArgs = () =>
  process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []

/**
 * The request pipeline's throughput against the bare app's, as a share (docs/performance.md). On two
 * cores the bench's client takes one: the share says how much dearer a request of the shop is only
 * when the server, not the client, is the limit; the CPU per request printed beside it says it always.
 */
export const PIPELINE_TARGET = 1

export async function pipeline() {
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
  const bare = start(['scripts/bench/bare.ts'], {}, /READY (\S+)/, profile)
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
    `request pipeline: GET /health through the shop (JSON log line, request id, security headers, metrics on) against a bare Hono app, ${rounds} alternating rounds: median ${pct(median)} of its throughput (spread ${pct(sorted[0])}-${pct(sorted[sorted.length - 1])}; overall ${shopRps.toFixed(0)} against ${bareRps.toFixed(0)} req/s)${failed ? `, ${failed} failed` : ''}; load average ${loadBefore[0]?.toFixed(2)} before, ${loadAfter[0]?.toFixed(2)} after | target: >= ${pct(PIPELINE_TARGET)} of the bare app: ${median >= PIPELINE_TARGET ? 'holds' : 'MISSES'}`,
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
