import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

// GET /metrics in Prometheus's text format (prom-client's registry and exposition).
// The request counters are the hot path: they live in preallocated typed arrays indexed by route and
// status class, found through maps built once, so counting a request allocates nothing (prom-client's
// own counters hash a label object on every increment). They are read into the exposition only when
// scraped. Orders by state and jobs by status are counted in the database at scrape time, so every
// instance reports the shared totals; payment errors are this instance's. SSE
// clients: the server has no server-sent-event endpoint, so there is no such gauge (a constant 0 would
// say something false); docs/deploying.md's metrics list says so.

/** Latency buckets, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const

export type RouteLabel = { method: string; routePath: string; route: string }

export type ScrapeCounts = {
  ordersByState(): Promise<{ state: string; count: number }[]>
  jobsByStatus(): Promise<{ status: string; count: number }[]>
}

export type Metrics = ReturnType<typeof createMetrics>

type MetricValue = { value: number; labels: Record<string, string>; metricName?: string }

/** Made only when METRICS_TOKEN is set: without it, nothing is counted and /metrics is 404. */
export function createMetrics(counts: ScrapeCounts) {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'shouts_' })

  // Slot 0 is every request no registered route matched (route "other"). Sized by routes(), once the
  // HTTP app has registered its endpoints.
  let labels: { method: string; route: string }[] = [{ method: 'other', route: 'other' }]
  let slots = new Map<string, Map<string, number>>()
  let n = 1
  let requests = new Float64Array(n * STATUS_CLASSES.length)
  let buckets = new Float64Array(n * (BUCKETS.length + 1))
  let sums = new Float64Array(n)
  let observed = new Float64Array(n)
  const countRoutes = (routes: readonly RouteLabel[]) => {
    labels = [{ method: 'other', route: 'other' }]
    slots = new Map()
    for (const r of routes) {
      let byPath = slots.get(r.method)
      if (!byPath) {
        byPath = new Map()
        slots.set(r.method, byPath)
      }
      if (byPath.has(r.routePath)) continue
      byPath.set(r.routePath, labels.length)
      labels.push({ method: r.method, route: r.route })
    }
    n = labels.length
    requests = new Float64Array(n * STATUS_CLASSES.length)
    buckets = new Float64Array(n * (BUCKETS.length + 1))
    sums = new Float64Array(n)
    observed = new Float64Array(n)
  }

  const slotOf = (method: string, routePath: string): number =>
    slots.get(method)?.get(routePath) ?? 0

  registry.registerMetric({
    name: 'shouts_http_requests_total',
    get: async () => {
      const values: MetricValue[] = []
      for (let i = 0; i < n; i++) {
        for (let s = 0; s < STATUS_CLASSES.length; s++) {
          const value = requests[i * STATUS_CLASSES.length + s] ?? 0
          if (value > 0) {
            values.push({ value, labels: { ...labels[i], status: STATUS_CLASSES[s] as string } })
          }
        }
      }
      return {
        name: 'shouts_http_requests_total',
        help: 'HTTP requests by method, route (the API endpoint path template) and status class',
        type: 'counter',
        values,
        aggregator: 'sum',
      }
    },
  } as never)
  registry.registerMetric({
    name: 'shouts_http_request_duration_seconds',
    get: async () => {
      const values: MetricValue[] = []
      const name = 'shouts_http_request_duration_seconds'
      for (let i = 0; i < n; i++) {
        if ((observed[i] ?? 0) === 0) continue
        const base = labels[i] as { method: string; route: string }
        let cumulative = 0
        for (let b = 0; b <= BUCKETS.length; b++) {
          cumulative += buckets[i * (BUCKETS.length + 1) + b] ?? 0
          const le = b < BUCKETS.length ? String(BUCKETS[b]) : '+Inf'
          values.push({ value: cumulative, labels: { ...base, le }, metricName: `${name}_bucket` })
        }
        values.push({ value: sums[i] ?? 0, labels: { ...base }, metricName: `${name}_sum` })
        values.push({ value: observed[i] ?? 0, labels: { ...base }, metricName: `${name}_count` })
      }
      return {
        name,
        help: 'HTTP request latency by method and route',
        type: 'histogram',
        values,
        aggregator: 'sum',
      }
    },
  } as never)

  const paymentErrors = new Float64Array(2)
  new Gauge({
    name: 'shouts_payment_errors',
    help: 'Payment errors on this instance since it started: the provider failed (provider) or refused the card (declined)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.set({ kind: 'provider' }, paymentErrors[0] ?? 0)
      this.set({ kind: 'declined' }, paymentErrors[1] ?? 0)
    },
  })
  new Gauge({
    name: 'shouts_orders',
    help: 'Orders by state (the shared database)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset()
      for (const { state, count } of await counts.ordersByState()) this.set({ state }, count)
    },
  })
  new Gauge({
    name: 'shouts_content_jobs',
    help: 'Content jobs by status: queued, running, done, failed (the shared database)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset()
      for (const { status, count } of await counts.jobsByStatus()) this.set({ status }, count)
    },
  })

  // The scheduler's jobs (scheduler.ts): each run by outcome, its length, and the last that succeeded.
  const jobRuns = new Counter({
    name: 'shouts_job_runs_total',
    help: 'Runs of each background job on this instance by outcome: done, failed, or skipped (another instance holds its lease)',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  })
  const jobSeconds = new Histogram({
    name: 'shouts_job_run_duration_seconds',
    help: 'How long each background job ran on this instance (runs skipped for a lease aside)',
    labelNames: ['job'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [registry],
  })
  const jobLastDone = new Gauge({
    name: 'shouts_job_last_success_timestamp_seconds',
    help: 'When each background job last ran without failing on this instance (Unix time)',
    labelNames: ['job'],
    registers: [registry],
  })

  // argon2 work (auth/service.ts): each hash or check run, and each one turned away by a full line
  const passwordWork = new Counter({
    name: 'shouts_password_work_total',
    help: 'Password hashes (set-password) and checks (sign-in) on this instance: run, or refused because as many were running and waiting as allowed',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  })
  for (const kind of ['hash', 'check']) {
    for (const outcome of ['run', 'refused']) passwordWork.inc({ kind, outcome }, 0)
  }

  // house cards drawn for SMIL players (player/service.ts), and those turned away by a full gate
  const houseCardRenders = new Counter({
    name: 'shouts_house_card_renders_total',
    help: 'House cards drawn on this instance (a billboard, event or content not drawn yet), or refused because as many were being drawn and waiting as allowed',
    labelNames: ['outcome'],
    registers: [registry],
  })
  for (const outcome of ['run', 'refused']) houseCardRenders.inc({ outcome }, 0)

  return {
    contentType: registry.contentType,
    /** Counts one house card drawn, or refused (player/service.ts). */
    houseCardRender(outcome: 'run' | 'refused'): void {
      houseCardRenders.inc({ outcome })
    },
    /** Counts one password hash or check run, or refused (auth/service.ts). */
    passwordWork(kind: 'hash' | 'check', outcome: 'run' | 'refused'): void {
      passwordWork.inc({ kind, outcome })
    },
    /** Counts one run of a background job (scheduler.ts `observe`). */
    jobRun(job: string, outcome: 'done' | 'failed' | 'skipped', seconds: number, atMs: number) {
      jobRuns.inc({ job, outcome })
      if (outcome === 'skipped') return
      jobSeconds.observe({ job }, seconds)
      if (outcome === 'done') jobLastDone.set({ job }, atMs / 1000)
    },
    /** The routes to count by: each endpoint's method, Hono route path, and path template. */
    countRoutes,
    /** Counts one answered request: no allocation (typed arrays, maps built at start). */
    observeRequest(method: string, routePath: string, status: number, seconds: number): void {
      const i = slotOf(method, routePath)
      const s = Math.min(4, Math.max(0, Math.floor(status / 100) - 1))
      requests[i * STATUS_CLASSES.length + s] = (requests[i * STATUS_CLASSES.length + s] ?? 0) + 1
      let b = 0
      while (b < BUCKETS.length && seconds > (BUCKETS[b] as number)) b++
      const at = i * (BUCKETS.length + 1) + b
      buckets[at] = (buckets[at] ?? 0) + 1
      sums[i] = (sums[i] ?? 0) + seconds
      observed[i] = (observed[i] ?? 0) + 1
    },
    paymentError(kind: 'provider' | 'declined'): void {
      const at = kind === 'provider' ? 0 : 1
      paymentErrors[at] = (paymentErrors[at] ?? 0) + 1
    },
    /** The exposition text. */
    text: () => registry.metrics(),
  }
}
