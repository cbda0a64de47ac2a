// npm run bench:ads: campaigns on air. (1) A billboard's 24-hour schedule carrying both its sold
// shouts and an approved campaign's plays (req/s and p99, in rounds alternating with the trivial
// endpoint); (2) the daily settlement of 1,000 live campaigns' proven plays (the `ad-settlement`
// job's run time), checked to charge each campaign once, and to charge nothing when run again.
// The server runs in this process on a fresh embedded database, with a clock the script moves, so
// the load generator shares its event loop: the schedule's throughput is a lower bound.
// BENCH_RUNS (3): rounds of each; BENCH_SECONDS, BENCH_CONNECTIONS as `npm run bench`.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Temporal } from 'temporal-polyfill'
import { startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { campaignWithAd } from '../../tests/api/advertiser-helpers.ts'
import { client, savedCard } from '../../tests/api/helpers.ts'
import { benchAdvertiser } from './advertiser.ts'
import { DURATION_MS, fmt, type Req, run, send, setBase, summarise } from './http.ts'
import { prepareOrders } from './prepare.ts'
import { load, spread } from './stats.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
// BENCH_ONLY=settlement skips the schedule (the settlement always runs)
const wants = (part: string) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY === part

const CAMPAIGNS = 1000
const PLAYS_PER_CAMPAIGN = 10
const HOUR = 3_600_000
const PARIS = 'Europe/Paris'

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'shouts-bench-ads-'))
  let aheadMs = 0
  const server = await startServer({
    port: 0,
    dataDir,
    serveApp: false,
    now: () => Date.now() + aheadMs,
    env: { LOG_LEVEL: 'error', WRITES_PER_MINUTE: '100000000' },
  })
  const db = server.deps.database
  setBase(server.url)
  console.log(`load average before: ${load()}`)

  // ---- an advertiser, signed up and verified (the link of its stored mail), signed in
  const { api, email } = await benchAdvertiser(server)
  const [account] = await db.query(sql<{ id: string }>`
    select account_id as id from advertiser_accounts where email = ${email}`)

  async function scheduleFigures() {
    // ---- (1) 24 hours of shouts on the first billboard, and a campaign's plays in its free time
    const now = Date.now()
    const orders = await prepareOrders(now, 80)
    const first = orders.work[0]
    if (!first || !account) throw new Error('nothing to sell')
    while (orders.sent() < orders.count) {
      const req = orders.nextOrder()
      if (!req) break
      await send(req)
    }
    const [priced] = await db.query(sql<{ currency: string }>`
      select ad_currency as currency from devices where device_id = ${first.deviceId}`)
    const fromMs = Math.ceil((now + 5 * HOUR) / HOUR) * HOUR
    const draft = await campaignWithAd(api, now, {
      startEpochMs: fromMs,
      endEpochMs: fromMs + 24 * HOUR,
      deviceIds: [first.deviceId],
      dayparts: ['EarlyMorning', 'Morning', 'Afternoon', 'Evening'],
      budgetCents: 10_000_000,
      currency: priced?.currency ?? 'EUR',
    })
    let proposal: { status: number; body: { proposalGuid: string; totalPlays: number } } | null =
      null
    for (let i = 0; i < 300; i++) {
      proposal = await api.post(`/advertisers/campaigns/${draft.campaignId}/proposal`, {})
      if (proposal.status === 201) break
      await new Promise((r) => setTimeout(r, 200))
    }
    if (proposal?.status !== 201) throw new Error(`proposal: ${JSON.stringify(proposal?.body)}`)
    const card = await savedCard(client(server.url))
    const accepted = await api.post(`/advertisers/proposals/${proposal.body.proposalGuid}/accept`, {
      customerId: card.customerId,
      checkoutSecretKey: card.checkoutSecretKey,
    })
    if (accepted.status !== 200) throw new Error(`accept: ${JSON.stringify(accepted.body)}`)
    console.log(`campaign: ${proposal.body.totalPlays} plays over 24 h on ${first.deviceId}`)
    await db.query(
      sql`update campaigns set state = 'Approved' where campaign_id = ${draft.campaignId}`,
    )
    const linked = await server.deps.player.link(first.deviceId)
    if (!linked.ok) throw new Error('no player link')
    const headers = { authorization: `Bearer ${linked.value.token}` }
    const path = `/api/v1/player/${encodeURIComponent(first.deviceId)}/schedule?fromEpochMs=${fromMs}&toEpochMs=${fromMs + 24 * HOUR}`
    const sample = JSON.parse((await send({ method: 'GET', path, headers })).body) as {
      items: { campaignId?: string; orderGuid?: string }[]
    }
    const ads = sample.items.filter((i) => i.campaignId).length
    const shouts = sample.items.filter((i) => i.orderGuid).length
    console.log(`schedule: 24 h, ${shouts} shout plays and ${ads} campaign plays`)
    // as the web player's browser asks: gzip accepted
    const schedule = (): Req => ({
      method: 'GET',
      path,
      headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' },
    })
    const health = (): Req => ({ method: 'GET', path: '/api/v1/health' })
    const rps: number[] = []
    const p99: number[] = []
    const share: number[] = []
    for (let r = 0; r < RUNS; r++) {
      const mine = []
      const trivial = []
      for (let i = 0; i < 5; i++) {
        trivial.push(await run(health, 200, DURATION_MS / 5))
        mine.push(await run(schedule, 200, DURATION_MS / 5))
      }
      const m = summarise('GET schedule (24 h, shouts + ads)', mine)
      const t = summarise('GET /health (alternating)', trivial)
      console.log(`  run ${r + 1}: ${fmt(m)}\n         ${fmt(t)}`)
      rps.push(m.rps)
      p99.push(m.p99)
      share.push((100 * m.rps) / t.rps)
    }
    return { rps, p99, share, shouts, ads }
  }

  const schedule = wants('schedule') ? await scheduleFigures() : null
  // ---- (2) 1,000 live campaigns, each with its own saved card and proven plays a day
  const devices = (
    await db.query(sql<{ id: string }>`select device_id as id from devices order by device_id`)
  ).map((d) => d.id)
  if (!account) throw new Error('no account')
  const ids: string[] = []
  const cards: { customerId: string; checkoutSecretKey: string }[] = []
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (cards.length < CAMPAIGNS) cards.push(await savedCard(client(server.url)))
    }),
  )
  const day0 = Temporal.Now.plainDateISO(PARIS).add({ days: 10 })
  const flightStart = day0.toZonedDateTime({ timeZone: PARIS }).epochMilliseconds
  for (let c = 0; c < CAMPAIGNS; c++) {
    const id = randomUUID()
    ids.push(id)
    const k = cards[c] as { customerId: string; checkoutSecretKey: string }
    await db.query(sql`
      insert into campaigns (campaign_id, account_id, name, budget_cents, currency, start_epoch_ms,
        end_epoch_ms, device_ids, dayparts, state, checkout_secret_key, customer_id, created_at,
        updated_at)
      values (${id}, ${account.id}, ${`Bench ${c}`}, 1000000, 'USD', ${flightStart},
        ${flightStart + 30 * 86_400_000}, ${devices}::text[], '{Morning}'::text[], 'Live',
        ${k.checkoutSecretKey}, ${k.customerId}, now(), now())`)
  }
  const seconds: number[] = []
  for (let r = 0; r < RUNS; r++) {
    // every campaign proves PLAYS_PER_CAMPAIGN plays on day r, at cells of its own
    const day = day0.add({ days: r })
    const dayStart = day.toZonedDateTime({ timeZone: PARIS }).epochMilliseconds
    const rows = ids.flatMap((id, c) =>
      Array.from({ length: PLAYS_PER_CAMPAIGN }, (_, p) => {
        const cell = c * PLAYS_PER_CAMPAIGN + p
        const device = devices[cell % devices.length] as string
        const start = dayStart + 8 * HOUR + Math.floor(cell / devices.length) * 15_000
        return { id, device, start }
      }),
    )
    for (let i = 0; i < rows.length; i += 1000) {
      const part = rows.slice(i, i + 1000)
      await db.query(sql`
        insert into ad_plays (device_id, start_epoch_ms, end_epoch_ms, campaign_id, cost_cents,
          impressions, reserved_at, proven_at_epoch_ms)
        select d, s, s + 15000, c, 25, 60, now(), s + 20
        from unnest(${part.map((x) => x.device)}::text[], ${part.map((x) => x.start)}::bigint[],
          ${part.map((x) => x.id)}::text[]) as q(d, s, c)`)
    }
    // the day is over on every billboard (from Berlin to New York), its late proofs had time to come
    aheadMs =
      day.add({ days: 1 }).toZonedDateTime({ timeZone: PARIS }).epochMilliseconds +
      16 * HOUR -
      Date.now()
    const t = performance.now()
    const outcome = await server.deps.jobs.runNow('ad-settlement')
    const s = (performance.now() - t) / 1000
    const [after] = await db.query(sql<{ charges: number; charged: number; spent: number }>`
      select count(*)::int as charges, count(*) filter (where status = 'charged')::int as charged,
        (select sum(spent_cents)::float8 from campaigns where name like 'Bench %') as spent
      from ad_charges where day = ${day.toString()}`)
    const again = performance.now()
    await server.deps.jobs.runNow('ad-settlement')
    const [twice] = await db.query(sql<{ charges: number; spent: number }>`
      select count(*)::int as charges,
        (select sum(spent_cents)::float8 from campaigns where name like 'Bench %') as spent
      from ad_charges`)
    const expectSpent = (r + 1) * CAMPAIGNS * PLAYS_PER_CAMPAIGN * 25
    const statuses = await db.query(sql<{ status: string; n: number; error: string | null }>`
      select status, count(*)::int as n, min(error::text) as error from ad_charges group by status`)
    const once =
      outcome === 'done' &&
      after?.charges === CAMPAIGNS &&
      after.charged === CAMPAIGNS &&
      after.spent === expectSpent &&
      twice?.charges === (r + 1) * CAMPAIGNS &&
      twice.spent === expectSpent
    console.log(
      `  run ${r + 1}: settled ${CAMPAIGNS} campaigns (${CAMPAIGNS * PLAYS_PER_CAMPAIGN} proven plays) in ${s.toFixed(2)} s; ` +
        `${after?.charged} charged once each: ${once ? 'yes' : 'NO'}; run again: ${((performance.now() - again) / 1000).toFixed(2)} s, nothing more charged`,
    )
    if (!once) {
      console.log(`  charges: ${JSON.stringify(statuses)}`)
      process.exitCode = 1
    }
    seconds.push(s)
  }

  console.log('')
  if (schedule) {
    const { rps, p99, share, shouts, ads } = schedule
    console.log(
      `schedule, 24 h of ${shouts} shout plays + ${ads} campaign plays: ${spread(rps)} req/s, p99 ${spread(p99, 1)} ms, ${spread(share)} % of the trivial endpoint`,
    )
  }
  console.log(
    `daily settlement of ${CAMPAIGNS} campaigns: ${spread(seconds, 2)} s (${spread(
      seconds.map((x) => (x * 1000) / CAMPAIGNS),
      2,
    )} ms a campaign), each charged once`,
  )
  console.log(`median (min–max) of ${RUNS} runs; load average after: ${load()}`)
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
}

await main()
