import { Temporal } from 'temporal-polyfill'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import { opsCampaigns } from '../../src/contract/ops/campaigns.ts'
import type { ScheduleItem } from '../../src/contract/player.ts'
import { MISSED_AFTER_MS } from '../../src/domain/ad-playout.ts'
import { chargesOf } from '../../src/server/advertisers/billing/repo.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  type AdvertiserClient,
  advertiserEnv,
  campaignWithAd,
  mailTo,
  proveAdPlay,
  type ScheduledAd,
  SHOP,
  STRONG_PASSWORD,
  scheduledAdsOf,
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

// The daily charge of proven plays (the `ad-settlement` job): each billboard-local day's proven
// plays are charged once its day is over, under one key per campaign and day, whatever the runs;
// unproven plays are not charged; a declined card pauses the campaign and mails the advertiser.

const PARIS = 'Europe/Paris'
const DEVICES = ['paris-opera-1', 'paris-republique'] as const
const HOUR = 3_600_000
/** The stand-in's card that saves but is declined when charged. */
const DECLINED_CARD = '4000000000000341'

describe.each(BACKENDS)('the daily charge of proven plays on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let shop: Client
  const tokens = new Map<string, string>()
  let offsetMs = 0
  const now = () => Date.now() + offsetMs
  const at = (epochMs: number) => {
    offsetMs = epochMs - Date.now()
  }

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, { env: advertiserEnv(smtp), now })
    shop = client(server.url)
    for (const deviceId of DEVICES) {
      const linked = await server.deps.player.link(deviceId)
      if (!linked.ok) throw new Error('link failed')
      tokens.set(deviceId, linked.value.token)
    }
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  /** A campaign of two days on two billboards, booked with this card and approved. */
  async function approved(card?: string) {
    offsetMs = 0
    const { api, email } = await signedInAdvertiser(server, smtp)
    // from a Paris midnight a day or two ahead: its first day is a whole day whatever the hour the
    // suite runs (from the next hour, it was an evening's few plays late in Paris's day)
    const start = Temporal.Instant.fromEpochMilliseconds(now() + 24 * HOUR)
      .toZonedDateTimeISO(PARIS)
      .toPlainDate()
      .add({ days: 1 })
      .toZonedDateTime({ timeZone: PARIS }).epochMilliseconds
    const flight = { fromEpochMs: start, toEpochMs: start + 48 * HOUR }
    const draft = await campaignWithAd(api, now(), {
      startEpochMs: flight.fromEpochMs,
      endEpochMs: flight.toEpochMs,
      budgetCents: 20_000,
    })
    const proposal = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${draft.campaignId}/proposal`, {}),
    )
    const saved = await savedCard(client(server.url), card)
    answerOf(
      advertisers.accept,
      await api.post(`/advertisers/proposals/${proposal.proposalGuid}/accept`, {
        customerId: saved.customerId,
        checkoutSecretKey: saved.checkoutSecretKey,
      }),
    )
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    expect((await reviewer.api.post(`/ops/campaigns/${draft.campaignId}/approve`, {})).status).toBe(
      200,
    )
    const costOf = new Map(
      proposal.lines.map((l) => [l.deviceId, l.plays ? l.costCents / l.plays : 0]),
    )
    return { campaignId: draft.campaignId, flight, costOf, email, api }
  }

  const adsOf = (campaignId: string, flight: { fromEpochMs: number; toEpochMs: number }) =>
    scheduledAdsOf(shop, tokens, campaignId, flight)

  /** Each play proven a minute after it ended, or at `atMs` (a proof that comes late). */
  async function prove(ads: readonly ScheduledAd[], atMs?: number) {
    for (const ad of ads) {
      at(atMs ?? ad.endEpochMs + 60_000)
      expect(await proveAdPlay(shop, ad, tokens.get(ad.deviceId) as string)).toBe(1)
    }
  }

  const localDay = (epochMs: number) =>
    Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(PARIS).toPlainDate()
  /** When the local day of this instant is over, and its late proofs had time to come. */
  const closed = (epochMs: number) =>
    localDay(epochMs).add({ days: 1 }).toZonedDateTime({ timeZone: PARIS }).epochMilliseconds +
    MISSED_AFTER_MS
  const heldOf = async (campaignId: string) =>
    (
      await server.deps.database.query(sql<{
        deviceId: string
        startEpochMs: number
        costCents: number
      }>`
        select device_id as "deviceId", start_epoch_ms as "startEpochMs",
          cost_cents as "costCents" from ad_plays
        where campaign_id = ${campaignId} order by device_id, start_epoch_ms`)
    ).map((r) => ({
      deviceId: r.deviceId,
      startEpochMs: Number(r.startEpochMs),
      costCents: Number(r.costCents),
      key: `${r.deviceId} ${Number(r.startEpochMs)}`,
    }))
  const campaignRow = async (campaignId: string) => {
    const [row] = await server.deps.database.query(sql<{ state: string; spentCents: number }>`
      select state, spent_cents::float8 as "spentCents" from campaigns
      where campaign_id = ${campaignId}`)
    return row
  }

  it('charges each day’s proven plays once the day is over, once whatever the runs', async () => {
    const { campaignId, flight, costOf } = await approved()
    const ads = await adsOf(campaignId, flight)
    const firstDay = localDay((ads[0] as ScheduleItem).startEpochMs).toString()
    const dayOne = ads.filter((a) => localDay(a.startEpochMs).toString() === firstDay)
    const later = ads.filter((a) => localDay(a.startEpochMs).toString() !== firstDay)
    expect(dayOne.length).toBeGreaterThan(2)
    expect(later.length).toBeGreaterThan(0)
    // two of the first day's plays proven (the others left dark), then one of the next day's
    type Ad = ScheduleItem & { deviceId: string }
    const [a, b, c] = [dayOne[0], dayOne[1], later[0]] as [Ad, Ad, Ad]
    const proven = [a, b, c]
    await prove(proven.slice(0, 2))
    const cost = (a: { deviceId: string }) => costOf.get(a.deviceId) ?? 0

    // the first day is not over yet: nothing charged
    at(closed((dayOne[0] as ScheduleItem).startEpochMs) - 60_000)
    await server.deps.jobs.runNow('ad-settlement')
    expect(await chargesOf(server.deps.database, campaignId)).toEqual([])

    at(closed((dayOne[0] as ScheduleItem).startEpochMs))
    await server.deps.jobs.runNow('ad-settlement')
    await server.deps.jobs.runNow('ad-settlement')
    const first = await chargesOf(server.deps.database, campaignId)
    expect(first).toMatchObject([
      {
        day: firstDay,
        plays: 2,
        status: 'charged',
        amountCents: cost(a) + cost(b),
      },
    ])
    expect((await campaignRow(campaignId))?.spentCents).toBe(first[0]?.amountCents)

    await prove(proven.slice(2))
    // after the flight: the second day charged, the unproven plays never
    at(flight.toEpochMs + 26 * HOUR)
    await server.deps.jobs.runNow('ad-settlement')
    const all = await chargesOf(server.deps.database, campaignId)
    expect(all.map((c) => [c.plays, c.status])).toEqual([
      [2, 'charged'],
      [1, 'charged'],
    ])
    const total = all.reduce((n, c) => n + c.amountCents, 0)
    expect(total).toBe(proven.reduce((n, a) => n + cost(a), 0))
    expect(total).toBeLessThanOrEqual(20_000)
    expect((await campaignRow(campaignId))?.spentCents).toBe(total)
  })

  /** The advertiser signed in again at the clock's time (an access token lasts 15 minutes). */
  async function signedInNow(api: AdvertiserClient, email: string) {
    const session = answerOf(
      advertisers.signIn,
      await api.post('/advertisers/session', {
        email,
        password: STRONG_PASSWORD,
      }),
    )
    api.token = session.accessToken
  }
  const sum = (cents: readonly number[]) => cents.reduce((n, c) => n + c, 0)

  it('charges only the proven plays of a campaign cancelled mid-flight', async () => {
    const { campaignId, flight, costOf, email, api } = await approved()
    const ads = await adsOf(campaignId, flight)
    // two plays proven, a third played to a dark screen, then the advertiser cancels
    const [a, b] = ads as [ScheduleItem & { deviceId: string }, ScheduleItem & { deviceId: string }]
    await prove([a, b])
    const cancelledAt = Math.max(b.endEpochMs, (ads[2] as ScheduleItem).endEpochMs) + 60_000
    at(cancelledAt)
    await signedInNow(api, email)
    const cancelled = answerOf(
      advertisers.cancel,
      await api.post(`/advertisers/campaigns/${campaignId}/cancel`, {}),
    )
    expect(cancelled.state).toBe('Cancelled')
    // the plays still to come are freed; what ran stays, to be paid if proven
    expect((await heldOf(campaignId)).every((p) => p.startEpochMs < cancelledAt)).toBe(true)

    at(flight.toEpochMs + 26 * HOUR)
    await server.deps.jobs.runNow('ad-settlement')
    const charges = await chargesOf(server.deps.database, campaignId)
    expect(charges.every((c) => c.status === 'charged')).toBe(true)
    expect(sum(charges.map((c) => c.plays))).toBe(2)
    const proven = (costOf.get(a.deviceId) ?? 0) + (costOf.get(b.deviceId) ?? 0)
    expect(sum(charges.map((c) => c.amountCents))).toBe(proven)
    expect(await campaignRow(campaignId)).toMatchObject({ state: 'Cancelled', spentCents: proven })
    offsetMs = 0
  })

  it('refuses to lower the budget below what the proven plays cost before their day is charged', async () => {
    const { campaignId, flight, costOf, email, api } = await approved()
    const [a, b] = (await adsOf(campaignId, flight)) as ScheduledAd[]
    if (!a || !b) throw new Error('no ads')
    await prove([a, b])
    await signedInNow(api, email)
    const { committedCents } = answerOf(
      advertisers.campaign,
      await api.get(`/advertisers/campaigns/${campaignId}`),
    )
    const owed = (costOf.get(a.deviceId) ?? 0) + (costOf.get(b.deviceId) ?? 0)
    const refused = await api.patch<{ codes: string[] }>(`/advertisers/campaigns/${campaignId}`, {
      budgetCents: committedCents + owed - 1,
    })
    expect(refused.body.codes).toEqual(['campaign_budget_below_spent'])
    answerOf(
      advertisers.updateCampaign,
      await api.patch(`/advertisers/campaigns/${campaignId}`, {
        budgetCents: committedCents + owed,
      }),
    )
    offsetMs = 0
  })

  it('never charges more than the budget when late proofs come after the budget was lowered', async () => {
    const { campaignId, flight, costOf, email, api } = await approved()
    const ads = await adsOf(campaignId, flight)
    // two plays have run, their billboard's proofs not in yet; the advertiser lowers the budget
    // to what is left to play (the plays that ran are neither spent nor still to come)
    const loweredAt = (ads[1] as ScheduleItem).endEpochMs + 60_000
    const ran = ads.filter((a) => a.startEpochMs < loweredAt)
    const toCome = ads.filter((a) => a.startEpochMs >= loweredAt)
    expect(ran.length).toBeGreaterThan(0)
    at(loweredAt)
    await signedInNow(api, email)
    const before = answerOf(
      advertisers.campaign,
      await api.get(`/advertisers/campaigns/${campaignId}`),
    )
    const budgetCents = before.spentCents + before.committedCents
    answerOf(
      advertisers.updateCampaign,
      await api.patch(`/advertisers/campaigns/${campaignId}`, {
        budgetCents,
      }),
    )
    // then the late proofs come (within the two hours), and every later play is proven
    await prove(ran, loweredAt + 30 * 60_000)
    await prove(toCome)
    const provenCents = sum(ads.map((a) => costOf.get(a.deviceId) ?? 0))
    expect(provenCents).toBeGreaterThan(budgetCents)

    at(flight.toEpochMs + 26 * HOUR)
    await server.deps.jobs.runNow('ad-settlement')
    await server.deps.jobs.runNow('ad-settlement')
    const charges = await chargesOf(server.deps.database, campaignId)
    expect(charges.every((c) => c.status === 'charged')).toBe(true)
    expect(sum(charges.map((c) => c.amountCents))).toBe(budgetCents)
    expect((await campaignRow(campaignId))?.spentCents).toBe(budgetCents)
    offsetMs = 0
  })

  it('catches up a dark billboard’s missed plays in the time left, never beyond the budget', async () => {
    const { campaignId, flight } = await approved()
    const before = await heldOf(campaignId)
    const ads = await adsOf(campaignId, flight)
    // the billboards stayed dark: by mid-flight no play was proven
    const darkUntil = flight.fromEpochMs + 24 * HOUR
    at(darkUntil)
    await server.deps.jobs.runNow('ad-pacing')
    const after = await heldOf(campaignId)
    const missed = before.filter((p) => p.startEpochMs + MISSED_AFTER_MS <= darkUntil)
    expect(missed.length).toBeGreaterThan(0)
    // the missed plays are freed (never charged), as many are held again later in the flight
    for (const p of missed) expect(after).not.toContainEqual(p)
    expect(after).toHaveLength(before.length)
    const fresh = after.filter((p) => !before.some((q) => q.key === p.key))
    expect(fresh).toHaveLength(missed.length)
    for (const p of fresh) {
      expect(p.startEpochMs).toBeGreaterThanOrEqual(darkUntil + 15 * 60_000)
      expect(p.startEpochMs + 15_000).toBeLessThanOrEqual(flight.toEpochMs)
    }
    expect(after.reduce((n, p) => n + p.costCents, 0)).toBeLessThanOrEqual(20_000)
    // and the billboards' schedules show them, at their ad cells
    const shown = await adsOf(campaignId, flight)
    expect(shown).toHaveLength(ads.length)
    expect(shown.map((a) => `${a.deviceId} ${a.startEpochMs}`).sort()).toEqual(
      after.map((p) => p.key).sort(),
    )
    // a second run finds nothing more to do
    await server.deps.jobs.runNow('ad-pacing')
    expect(await heldOf(campaignId)).toEqual(after)
    offsetMs = 0
  })

  it('pauses the campaign when the card is declined, and says why to the advertiser and the console', async () => {
    const { campaignId, flight, email, api } = await approved(DECLINED_CARD)
    const ads = await adsOf(campaignId, flight)
    await prove([ads[0] as ScheduleItem & { deviceId: string }])
    expect((await campaignRow(campaignId))?.state).toBe('Live')
    at(closed((ads[0] as ScheduleItem).startEpochMs))
    await server.deps.jobs.runNow('ad-settlement')
    expect((await chargesOf(server.deps.database, campaignId)).map((c) => c.status)).toEqual([
      'failed',
    ])
    expect(await campaignRow(campaignId)).toMatchObject({ state: 'Paused', spentCents: 0 })
    const mail = await mailTo(smtp, email, /could not charge your card/)
    expect(mail.subject).toContain('is paused')
    // the campaign page says why it is paused; the console shows the declined day's charge (read
    // back at the real time, when the advertiser's access token is still good)
    offsetMs = 0
    const seen = answerOf(
      advertisers.campaign,
      await api.get(`/advertisers/campaigns/${campaignId}`),
    )
    expect(seen).toMatchObject({ state: 'Paused', pausedReason: 'charge_failed' })
    const admin = await signedInOperator(server, 'admin', undefined, SHOP)
    const ops = answerOf(opsCampaigns.campaign, await admin.api.get(`/ops/campaigns/${campaignId}`))
    const first = ads[0] as ScheduleItem & { deviceId: string }
    expect(ops).toMatchObject({
      pausedReason: 'charge_failed',
      charges: [
        {
          day: localDay(first.startEpochMs).toString(),
          plays: 1,
          amountCents: (await heldOf(campaignId)).find(
            (p) => p.deviceId === first.deviceId && p.startEpochMs === first.startEpochMs,
          )?.costCents,
          currency: 'EUR',
          status: 'failed',
        },
      ],
    })
    expect(ops.history.at(-1)).toMatchObject({ state: 'Paused', reason: 'charge_failed' })
    // a failed charge is not tried again
    at(closed(first.startEpochMs))
    await server.deps.jobs.runNow('ad-settlement')
    expect((await chargesOf(server.deps.database, campaignId)).map((c) => c.status)).toEqual([
      'failed',
    ])
    // resumed, then paused by its advertiser: the page no longer blames the card
    offsetMs = 0
    expect((await api.post(`/advertisers/campaigns/${campaignId}/resume`, {})).status).toBe(200)
    const resumed = answerOf(
      advertisers.campaign,
      await api.get(`/advertisers/campaigns/${campaignId}`),
    )
    expect(resumed).toMatchObject({ state: 'Live', pausedReason: null })
    expect((await api.post(`/advertisers/campaigns/${campaignId}/pause`, {})).status).toBe(200)
    const paused = answerOf(
      advertisers.campaign,
      await api.get(`/advertisers/campaigns/${campaignId}`),
    )
    expect(paused).toMatchObject({ state: 'Paused', pausedReason: 'advertiser' })
    offsetMs = 0
  })
})
