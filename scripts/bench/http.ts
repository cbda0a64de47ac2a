// The load generator of `npm run bench`: CONNECTIONS kept-alive connections, each sending its next
// request when the last answered, for a time or until the work runs out; latencies and statuses per
// run; the memory of a process from /proc.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'

export const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)

export type Req = {
  method: 'GET' | 'POST'
  path: string
  body?: string
  headers?: Record<string, string>
}
export type Result = {
  label: string
  requests: number
  errors: number
  rps: number
  p50: number
  p99: number
  statuses: Map<number, number>
}
export type Run = {
  latencies: number[]
  statuses: Map<number, number>
  errors: number
  seconds: number
}

export const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
let base = ''
/** The server every request goes to (set once it is up). */
export function setBase(url: string): void {
  base = url
}
export const baseUrl = (): string => base

export function send(req: Req, through = agent): Promise<{ status: number; body: string }> {
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
        // The body is decoded only when read: a load run never reads it (900 KB schedules).
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            get body() {
              return Buffer.concat(chunks).toString()
            },
          }),
        )
      },
    )
    r.on('error', reject)
    if (req.body) r.write(req.body)
    r.end()
  })
}

/** CONNECTIONS loops, each sending its next request when the last answered, until time or work runs out. */
export async function run(
  next: () => Req | null,
  expected: number,
  durationMs: number,
  connections = CONNECTIONS,
): Promise<Run> {
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
  await Promise.all(Array.from({ length: connections }, worker))
  return { latencies, statuses, errors, seconds: (performance.now() - started) / 1000 }
}

export async function load(
  label: string,
  next: () => Req | null,
  expected: number,
  durationMs = DURATION_MS,
): Promise<Result> {
  return summarise(label, [await run(next, expected, durationMs)])
}

export function summarise(label: string, runs: Run[]): Result {
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

export const fmt = (r: Result) =>
  `${r.label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99
    .toFixed(2)
    .padStart(6)} ms   (${r.requests} requests, ${r.errors} unexpected)`

/**
 * Starts a new peak (VmHWM) from the current RSS (Linux: `5` into /proc/PID/clear_refs), so the peak of
 * the load scenarios is told apart from the one-off preparation (content generation loads the renderer
 * and the nudity model). False when the kernel does not allow it; the peak then covers the whole run.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

export function memory(pid: number): { rssMb: number; peakMb: number } {
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
export function childrenOf(pid: number): number[] {
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

/** CPU time of each thread of a process (Linux: /proc/PID/task), in ms, by the thread's name. */
export function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>()
  let tasks: string[] = []
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return out
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const ms = (Number(fields[11]) + Number(fields[12])) * 10
      const key = tid === String(pid) ? 'main' : name
      out.set(key, (out.get(key) ?? 0) + ms)
    } catch {}
  }
  return out
}
