// What `npm run bench` does before its clock starts: the real server in a child process of its own
// (scripts/bench/server.mjs, the production bundle, so that its memory is its own), and the orders
// it will place: content generated once per billboard, a saved card per order, two open slots each.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type EventTiming, slotStartEpochMs } from '../../src/domain/index.ts'
import { baseUrl, type Req, send } from './http.ts'
import { benchContentSource, benchOrderBody, uploadBenchPhoto } from './shop.ts'

const ROOT = new URL('../..', import.meta.url).pathname

export type BenchServer = {
  child: ChildProcess
  base: string
  pid: number
  /** Player tokens by billboard, for the schedule scenario. */
  playerTokens: Map<string, string>
  stop(): Promise<void>
}

/**
 * The settings and Node options `npm run start:prod` starts the server with (package.json), so that
 * the bench measures the server as production runs it.
 */
export function productionStart(root = ROOT): { env: Record<string, string>; nodeArgs: string[] } {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  const words = (pkg.scripts['start:prod'] ?? '').split(/\s+/)
  const node = words.indexOf('node')
  const env = Object.fromEntries(
    words.slice(0, node).map((word) => word.split('=') as [string, string]),
  )
  const nodeArgs = words.slice(node + 1).filter((word) => word.startsWith('--'))
  return { env, nodeArgs }
}

/**
 * The bench's server from this checkout, or from `root`, another checkout (installed and built) to
 * compare with: one from before the server ran from a bundle runs its sources through tsx, as its
 * production start did.
 */
export async function startBenchServer(dataDir: string, root = ROOT): Promise<BenchServer> {
  // BENCH_CPU_PROF=DIR writes a V8 CPU profile of the server there, to see where its time goes.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : []
  const production = productionStart(root)
  // (the other checkout may predate scripts/bench/: its server script sat in scripts/ then)
  const bundledScript = ['scripts/bench/server.mjs', 'scripts/bench-server.mjs']
    .map((path) => join(root, path))
    .find((path) => existsSync(path))
  const bundled = bundledScript !== undefined
  const entry = bundled
    ? [bundledScript]
    : ['--import', 'tsx', join(root, 'scripts/bench-server.ts')]
  const child = spawn(
    process.execPath,
    // (an older start named tsx and its script among its words: its only options)
    [...profile, ...(bundled ? production.nodeArgs : []), ...entry, dataDir],
    {
      cwd: root,
      env: {
        ...process.env,
        ...production.env,
        DATABASE_URL: '',
        STRIPE_SECRET_KEY: '',
        APP_ENV: 'local',
        // The content worker leaves soon after the last render, as it would after a quiet spell.
        CONTENT_WORKER_IDLE_SECONDS: process.env.CONTENT_WORKER_IDLE_SECONDS ?? '2',
        // One load generator is one client address: the shared limiter still counts every write
        // (its cost is in the figures, and measured alone), but does not stop the bench.
        WRITES_PER_MINUTE: '100000000',
        CONTENT_JOBS_PER_CLIENT: '100000',
        UPLOAD_BYTES_PER_CLIENT_HOUR: '1000000000000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  const stopNow = () => {
    if (child.exitCode === null) child.kill('SIGTERM')
  }
  process.on('exit', stopNow)
  const playerTokens = new Map<string, string>()
  const base = await new Promise<string>((resolve, reject) => {
    let text = ''
    child.stderr?.on('data', (d: Buffer) => {
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
  return {
    child,
    base,
    pid: child.pid as number,
    playerTokens,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      stopNow()
      await exited
    },
  }
}

export type OrderWork = {
  deviceId: string
  slots: number[]
  startEpochMs: number
  key: string
  source: ReturnType<typeof benchContentSource>
}

type Devices = {
  devices: {
    deviceId: string
    soldOut: boolean
    unavailableForEvent: boolean
    contentWidth: number
  }[]
}

/**
 * Orders to place: each billboard's content generated once (its key reused by every order for that
 * billboard, as a shopper booking several slots does: the scenario measures placing, not rendering),
 * two open slots an order, a saved card each (at most `max` orders).
 */
export async function prepareOrders(now: number, max: number) {
  const devices = (
    JSON.parse(
      (await send({ method: 'GET', path: '/api/v1/spotlight/events/share-the-love/devices' })).body,
    ) as Devices
  ).devices.filter((d) => !d.soldOut && !d.unavailableForEvent)
  const uploadId = await uploadBenchPhoto(baseUrl())
  const work: OrderWork[] = []
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
  const count = Math.min(work.length, max)
  const cards: { customerId: string; checkoutSecretKey: string }[] = []
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (cards.length < count) {
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
  let o = 0
  /** The next prepared order's request, or null once all were sent. */
  const nextOrder = (): Req | null => {
    if (o >= count) return null
    const w = work[o] as OrderWork
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
  return { devices: devices.length, work, count, nextOrder, sent: () => o }
}
