import { Temporal } from 'temporal-polyfill'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import { opsBillboards } from '../../src/contract/ops/billboards.ts'
import { opsDashboard } from '../../src/contract/ops/dashboard.ts'
import { player, type ScheduleItem } from '../../src/contract/player.ts'
import { MISSED_AFTER_MS } from '../../src/domain/ad-playout.ts'
import { chargesOf } from '../../src/server/advertisers/billing/repo.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  advertiserEnv,
  campaignWithAd,
  proveAdPlay,
  SHOP,
  signedInAdvertiser,
} from './advertiser-helpers.ts'
import {
  answerOf,
  BACKENDS,
  type Client,
  client,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// Campaigns in the console: a billboard's day (GET /ops/billboards/{deviceId}/schedule) carries the
// plays campaigns hold there, named, with their proof as the player reported it; the dashboard
// (GET /ops/dashboard) carries the money the campaigns' daily charges took, per currency and day.

const PARIS = 'Europe/Paris'
const DEVICE = 'paris-opera-1'
const HOUR = 3_600_000

describe.each(BACKENDS)('campaigns in the console on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let shop: Client
  let token = ''
  let offsetMs = 0
  const now = () => Date.now() + offsetMs
  const at = (epochMs: number) => {
    offsetMs = epochMs - Date.now()
  }
  const localDay = (epochMs: number) =>
    Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(PARIS).toPlainDate()

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, { env: advertiserEnv(smtp), now })
    shop = client(server.url)
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    token = linked.value.token
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  /** A campaign of two days on two billboards, booked, approved, and its plays on DEVICE. */
  async function approvedCampaign(name: string) {
    offsetMs = 0
    const { api } = await signedInAdvertiser(server, smtp)
    const start = Math.ceil((now() + 24 * HOUR) / HOUR) * HOUR
    const flight = { fromEpochMs: start, toEpochMs: start + 48 * HOUR }
    const draft = await campaignWithAd(api, now(), {
      name,
      startEpochMs: flight.fromEpochMs,
      endEpochMs: flight.toEpochMs,
      budgetCents: 20_000,
    })
    const proposal = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${draft.campaignId}/proposal`, {}),
    )
    const saved = await savedCard(client(server.url))
    answerOf(
      advertisers.accept,
      await api.post(`/advertisers/proposals/${proposal.proposalGuid}/accept`, {
        customerId: saved.customerId,
        checkoutSecretKey: saved.checkoutSecretKey,
      }),
    )
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    const approve = await reviewer.api.post(`/ops/campaigns/${draft.campaignId}/approve`, {})
    expect(approve.status).toBe(200)
    const res = answerOf(
      player.schedule,
      await shop.get(
        `/player/${DEVICE}/schedule?fromEpochMs=${flight.fromEpochMs}&toEpochMs=${flight.toEpochMs}`,
        { authorization: `Bearer ${token}` },
      ),
    )
    const ads = res.items.filter((i) => i.campaignId === draft.campaignId)
    return { api, campaignId: draft.campaignId, flight, ads }
  }

  async function prove(ad: ScheduleItem) {
    at(ad.endEpochMs + 60_000)
    expect(await proveAdPlay(shop, { ...ad, deviceId: DEVICE }, token)).toBe(1)
  }

  it('shows a billboard’s day with each campaign play, named, proved, without proof or to come', async () => {
    const { api, campaignId, ads } = await approvedCampaign('Winter coats')
    const first = ads[0] as ScheduleItem
    // the flight's fullest day: its first may be an evening only, by the hour the test runs
    const byDay = new Map<string, ScheduleItem[]>()
    for (const ad of ads) {
      const key = localDay(ad.startEpochMs).toString()
      byDay.set(key, [...(byDay.get(key) ?? []), ad])
    }
    const ofDay = [...byDay.values()].sort((x, y) => y.length - x.length)[0] as ScheduleItem[]
    const day = localDay((ofDay[0] as ScheduleItem).startEpochMs)
    expect(ofDay.length).toBeGreaterThan(3)
    const [a, b, c] = ofDay as [ScheduleItem, ScheduleItem, ScheduleItem]
    // the first play proven; by the time the third has played, the second is without proof
    await prove(a)
    at(c.endEpochMs + 1000)
    const admin = await signedInOperator(server, 'admin', undefined, SHOP)
    const res = answerOf(
      opsBillboards.scheduleDay,
      await admin.api.get(`/ops/billboards/${DEVICE}/schedule?day=${day}`),
    )
    const shown = res.adPlays.filter((p) => p.campaignId === campaignId)
    // every play the billboard's schedule carries that day, and no other
    expect(shown.map((p) => p.startEpochMs)).toEqual(ofDay.map((p) => p.startEpochMs))
    expect(shown.map((p) => p.endEpochMs)).toEqual(ofDay.map((p) => p.endEpochMs))
    expect(shown.every((p) => p.campaignName === 'Winter coats')).toBe(true)
    const proofOf = (item: ScheduleItem) =>
      shown.find((p) => p.startEpochMs === item.startEpochMs)?.proof
    expect([proofOf(a), proofOf(b), proofOf(c)]).toEqual(['proved', 'missing', 'missing'])
    const later = ofDay.filter((p) => p.endEpochMs > now())
    expect(later.length).toBeGreaterThan(0)
    for (const p of later) expect(proofOf(p)).toBe('upcoming')
    // the day's bounds are the billboard's local midnights
    expect(res.dayStartEpochMs).toBe(day.toZonedDateTime({ timeZone: PARIS }).epochMilliseconds)
    expect(res.dayEndEpochMs).toBe(
      day.add({ days: 1 }).toZonedDateTime({ timeZone: PARIS }).epochMilliseconds,
    )
    // the day before the flight holds none of its plays
    const before = answerOf(
      opsBillboards.scheduleDay,
      await admin.api.get(
        `/ops/billboards/${DEVICE}/schedule?day=${localDay(first.startEpochMs).subtract({ days: 1 })}`,
      ),
    )
    expect(before.adPlays.filter((p) => p.campaignId === campaignId)).toEqual([])
    // paused, its plays to come do not play: the console says so
    // (the advertiser's access token lasts 15 minutes: the advertiser pauses at the real time)
    const viewedAt = now()
    offsetMs = 0
    const pause = answerOf(
      advertisers.pause,
      await api.post(`/advertisers/campaigns/${campaignId}/pause`, {}),
    )
    expect(pause.state).toBe('Paused')
    at(viewedAt)
    const paused = answerOf(
      opsBillboards.scheduleDay,
      await admin.api.get(`/ops/billboards/${DEVICE}/schedule?day=${day}`),
    )
    const pausedOf = paused.adPlays.filter((p) => p.campaignId === campaignId)
    expect(pausedOf.find((p) => p.startEpochMs === a.startEpochMs)?.proof).toBe('proved')
    for (const p of pausedOf.filter((p) => p.endEpochMs > now()))
      expect(p.proof).toBe('not-playing')
    offsetMs = 0
  })

  it('adds the money campaigns’ settled charges took to the dashboard, per currency and day', async () => {
    const admin = await signedInOperator(server, 'admin', undefined, SHOP)
    const before = answerOf(opsDashboard.dashboard, await admin.api.get('/ops/dashboard')).adRevenue
    const { campaignId, ads } = await approvedCampaign('Spring shoes')
    const first = ads[0] as ScheduleItem
    const second = ads[1] as ScheduleItem
    await prove(first)
    await prove(second)
    // charged once the plays' local day is over (and its late proofs had time to come)
    const day = localDay(first.startEpochMs)
    at(
      day.add({ days: 1 }).toZonedDateTime({ timeZone: PARIS }).epochMilliseconds + MISSED_AFTER_MS,
    )
    // not settled yet: no money on the dashboard
    const unsettled = await signedInOperator(server, 'admin', undefined, SHOP)
    const pending = answerOf(
      opsDashboard.dashboard,
      await unsettled.api.get('/ops/dashboard'),
    ).adRevenue
    expect(pending).toEqual(before)
    await server.deps.jobs.runNow('ad-settlement')
    const charges = await chargesOf(server.deps.database, campaignId)
    const charged = charges.filter((c) => c.status === 'charged')
    expect(charged.length).toBeGreaterThan(0)
    expect(charged.reduce((n, c) => n + c.amountCents, 0)).toBeGreaterThan(0)
    // every campaign's settled charges count (the first test's campaign was charged in this run too)
    const all = await server.deps.database.query(sql<{ cents: number; n: number }>`
      select coalesce(sum(amount_cents), 0)::float8 as cents, count(*)::int as n
      from ad_charges where status = 'charged'`)
    const cents = Number(all[0]?.cents)
    const res = answerOf(opsDashboard.dashboard, await unsettled.api.get('/ops/dashboard'))
    const euros = res.adRevenue.find((r) => r.currency === 'EUR')
    const was = before.find((r) => r.currency === 'EUR')
    expect(euros?.chargedCents).toBe(cents)
    expect(euros?.charges).toBe(Number(all[0]?.n))
    expect(was?.chargedCents ?? 0).toBeLessThan(cents)
    const ofDay = euros?.perDay.find((d) => d.day === day.toString())
    expect(ofDay?.cents).toBeGreaterThanOrEqual(cents)
    // a reviewer does not see money
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    expect((await reviewer.api.get('/ops/dashboard')).status).toBe(403)
    offsetMs = 0
  })
})
