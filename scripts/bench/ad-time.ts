// npm run bench:ad-time: what the advertisers' expensive calls cost, and what they do to everyone
// else. Three calls, each over five billboards and a 92-day window: the inventory
// (GET /advertisers/inventory), a proposal (POST …/proposal), and a budget raise of an approved
// campaign (PATCH budgetCents: more plays). Each is timed alone (its cost), then BENCH_PARALLEL (6)
// at once while /livez is asked every 5 ms on its own connection: the /livez p99 and max beside the
// call's figures, with the longest stall of the event loop (perf_hooks). The server runs in this
// process on a fresh embedded database, so a stall of its event loop is one of the probe's too.
// BENCH_RUNS (3): rounds of each.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import type { Campaign, Proposal } from '../../src/contract/advertisers.ts'
import { startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { campaignWithAd } from '../../tests/api/advertiser-helpers.ts'
import { client, savedCard } from '../../tests/api/helpers.ts'
import { benchAdvertiser } from './advertiser.ts'
import { load, median, spread } from './stats.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 6)
const HOUR = 3_600_000
const DAY = 24 * HOUR
const FLIGHT_DAYS = 92
const BILLBOARDS = 5

type Figures = { alone: number[]; together: number[]; livezP99: number[]; livezMax: number[] }
const figures = (): Figures => ({ alone: [], together: [], livezP99: [], livezMax: [] })

// The probe runs in a worker thread: its own event loop keeps asking while the server's is busy, so a
// stall shows as the latency of the /livez call that waited for it.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads')
const http = require('node:http')
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const latencies = []
let stop = false
parentPort.on('message', () => { stop = true })
const once = () => new Promise((resolve) => {
  const t = performance.now()
  const done = () => { latencies.push(performance.now() - t); resolve() }
  http.get(workerData.url, { agent }, (res) => { res.resume(); res.on('end', done) }).on('error', done)
})
;(async () => {
  while (!stop) { await once(); await new Promise((r) => setTimeout(r, 5)) }
  agent.destroy()
  parentPort.postMessage(latencies)
})()
`

/** /livez asked every 5 ms on its own connection, from another thread, until `done` settles. */
async function probeLivez(url: string, done: Promise<unknown>): Promise<number[]> {
  const worker = new Worker(PROBE, { eval: true, workerData: { url: `${url}/api/v1/livez` } })
  const answered = new Promise<number[]>((resolve) => worker.once('message', resolve))
  await done.catch(() => {})
  worker.postMessage('stop')
  const latencies = await answered
  await worker.terminate()
  return latencies.sort((a, b) => a - b)
}

const p99 = (sorted: number[]) =>
  sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0

/** Times `call` alone, then PARALLEL at once under the /livez probe; `call` answers its status. */
async function measure(
  url: string,
  label: string,
  into: Figures,
  call: (i: number) => Promise<number>,
  expected: number[],
): Promise<void> {
  const statuses: number[] = []
  const t = performance.now()
  statuses.push(await call(0))
  into.alone.push(performance.now() - t)
  const loop = monitorEventLoopDelay({ resolution: 1 })
  loop.enable()
  const started = performance.now()
  const all = Promise.all(
    Array.from({ length: PARALLEL }, async (_, i) => statuses.push(await call(i + 1))),
  )
  const livez = await probeLivez(url, all)
  await all
  into.together.push(performance.now() - started)
  loop.disable()
  into.livezP99.push(p99(livez))
  into.livezMax.push(livez.at(-1) ?? 0)
  const unexpected = statuses.filter((s) => !expected.includes(s))
  console.log(
    `  ${label.padEnd(22)} alone ${(into.alone.at(-1) ?? 0).toFixed(0).padStart(5)} ms; ` +
      `${PARALLEL} at once ${(into.together.at(-1) ?? 0).toFixed(0).padStart(5)} ms, ` +
      `/livez p99 ${p99(livez).toFixed(1)} ms max ${(livez.at(-1) ?? 0).toFixed(1)} ms ` +
      `(${livez.length} asked), longest stall ${(loop.max / 1e6).toFixed(1)} ms` +
      (unexpected.length ? `; UNEXPECTED statuses ${unexpected.join(',')}` : ''),
  )
  if (unexpected.length) process.exitCode = 1
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'shouts-bench-ad-time-'))
  const server = await startServer({
    port: 0,
    dataDir,
    serveApp: false,
    env: {
      LOG_LEVEL: 'error',
      WRITES_PER_MINUTE: '100000000',
      AD_PLANNING_PER_MINUTE: '100000000',
    },
  })
  const db = server.deps.database
  console.log(`load average before: ${load()}`)

  // ---- an advertiser, signed up and verified (the link of its stored mail), signed in
  const { api } = await benchAdvertiser(server)

  const deviceIds = (
    await db.query(sql<{ id: string }>`
      select device_id as id from devices where ad_currency = 'EUR' order by device_id
      limit ${BILLBOARDS}`)
  ).map((d) => d.id)
  if (deviceIds.length < BILLBOARDS) throw new Error(`only ${deviceIds.length} EUR billboards`)
  const now = Date.now()
  const from = Math.ceil((now + 5 * HOUR) / HOUR) * HOUR
  const flight = { startEpochMs: from, endEpochMs: from + FLIGHT_DAYS * DAY }
  const everyDaypart = ['EarlyMorning', 'Morning', 'Afternoon', 'Evening'] as const
  const draft = (budgetCents: number) => ({
    ...flight,
    deviceIds,
    dayparts: [...everyDaypart],
    budgetCents,
    currency: 'EUR',
  })

  const [forSale] = await db.query(sql<{ n: number }>`
    select count(*)::int as n from devices where impressions_per_play is not null
      and ad_cpm_cents is not null and ad_currency is not null`)
  const idle = await probeLivez(server.url, new Promise((r) => setTimeout(r, 2000)))
  console.log(
    `/livez idle: p99 ${p99(idle).toFixed(1)} ms, max ${(idle.at(-1) ?? 0).toFixed(1)} ms`,
  )
  const inventory = figures()
  const proposal = figures()
  const raise = figures()
  const campaigns: Campaign[] = []
  for (let i = 0; i <= PARALLEL; i++) campaigns.push(await campaignWithAd(api, now, draft(400_000)))

  // approved campaigns, each holding a first proposal's plays, raised in the runs: more plays each
  const booked: string[] = []
  for (let i = 0; i < RUNS * (PARALLEL + 1); i++) {
    const made = await campaignWithAd(api, now, draft(100_000))
    const p = await api.post<Proposal>(`/advertisers/campaigns/${made.campaignId}/proposal`, {})
    const card = await savedCard(client(server.url))
    const accepted = await api.post(`/advertisers/proposals/${p.body.proposalGuid}/accept`, {
      customerId: card.customerId,
      checkoutSecretKey: card.checkoutSecretKey,
    })
    if (accepted.status !== 200) throw new Error(`accept: ${JSON.stringify(accepted.body)}`)
    await db.query(
      sql`update campaigns set state = 'Approved' where campaign_id = ${made.campaignId}`,
    )
    booked.push(made.campaignId)
  }
  // the ads' renditions made before anything is measured (their images are work of their own)
  await server.deps.jobs.runNow('ad-renditions')
  await new Promise((r) => setTimeout(r, 2000))

  for (let r = 0; r < RUNS; r++) {
    console.log(`run ${r + 1}`)
    await measure(
      server.url,
      `inventory ${FLIGHT_DAYS} d`,
      inventory,
      async () =>
        (
          await api.get(
            `/advertisers/inventory?fromEpochMs=${flight.startEpochMs}&toEpochMs=${flight.endEpochMs}`,
          )
        ).status,
      [200],
    )
    await measure(
      server.url,
      `proposal ${BILLBOARDS}×${FLIGHT_DAYS} d`,
      proposal,
      async (i) =>
        (
          await api.post<Proposal>(
            `/advertisers/campaigns/${(campaigns[i] as Campaign).campaignId}/proposal`,
            {},
          )
        ).status,
      [201],
    )
    await measure(
      server.url,
      'budget raise',
      raise,
      async (i) =>
        (
          await api.patch<Campaign>(`/advertisers/campaigns/${booked[r * (PARALLEL + 1) + i]}`, {
            budgetCents: 200_000,
          })
        ).status,
      [200],
    )
  }

  console.log('')
  const line = (label: string, f: Figures) =>
    console.log(
      `${label.padEnd(38)} ${spread(f.alone).padStart(16)} ms alone, ${PARALLEL} at once ${spread(f.together)} ms; ` +
        `/livez p99 ${spread(f.livezP99, 1)} ms, max ${median(f.livezMax).toFixed(1)} ms`,
    )
  line(`inventory, ${forSale?.n} billboards × ${FLIGHT_DAYS} days`, inventory)
  line(`proposal, ${BILLBOARDS} billboards × ${FLIGHT_DAYS} days`, proposal)
  line(`budget raise, ${BILLBOARDS} billboards × ${FLIGHT_DAYS} days`, raise)
  console.log(`/livez idle: p99 ${p99(idle).toFixed(1)} ms`)
  console.log(`median (min–max) of ${RUNS} runs; load average after: ${load()}`)
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
}

await main()
