// npm run bench:recovery: how long two instances take to finish what a killed third left behind.
// Each run starts three instances on a fresh PostgreSQL database and s3rver bucket
// (tests/scale/kill-scenario.ts), races 60 shoppers for 20 slots, uploads two 6-second videos, kills
// the instance holding a content job and orders in Processing, and times, from the kill, the last
// order out of Processing and the last video ready. Target: everything within 30 s.
// Needs TEST_DATABASE_URL (a PostgreSQL the instances share) and ffmpeg. BENCH_RUNS (3): runs.
import { POSTGRES_URL } from '../../tests/api/helpers.ts'
import { raceKillRecover, startCluster } from '../../tests/scale/kill-scenario.ts'
import { load, median, spread } from './stats.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const TARGET_MS = 30_000

const figure = (ms: number[]) =>
  `${spread(
    ms.map((x) => x / 1000),
    1,
  )} s`
const seconds = (ms: number) => (ms / 1000).toFixed(1)

if (!POSTGRES_URL) {
  console.error('bench:recovery needs TEST_DATABASE_URL: a PostgreSQL the three instances share')
  process.exit(1)
}

const orders: number[] = []
const videos: number[] = []
for (let run = 1; run <= RUNS; run++) {
  const cluster = await startCluster()
  try {
    // Far above the target: a slow run is a figure to print, not a failure.
    const result = await raceKillRecover(cluster, { withinMs: 300_000 })
    const sold = result.raced.filter((r) => r.status === 201).length
    orders.push(result.ordersMs)
    videos.push(result.videosMs)
    console.log(
      `run ${run}: orders out of Processing ${seconds(result.ordersMs)} s, videos ready ${seconds(result.videosMs)} s after the kill (${sold} raced slots sold) | load ${load()}`,
    )
  } finally {
    await cluster.close()
  }
}
const all = orders.map((ms, i) => Math.max(ms, videos[i] ?? 0))
console.log(`orders out of Processing after the kill: ${figure(orders)}`)
console.log(`videos ready after the kill: ${figure(videos)}`)
console.log(
  `everything finished after the kill: ${figure(all)} | target: within ${TARGET_MS / 1000} s: ${median(all) <= TARGET_MS ? 'holds' : 'MISSED'} | load ${load()}`,
)
