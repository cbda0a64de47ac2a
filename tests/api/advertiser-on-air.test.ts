import { randomUUID } from 'node:crypto'
import { Temporal } from 'temporal-polyfill'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers, type Campaign } from '../../src/contract/advertisers.ts'
import { spotlight } from '../../src/contract/catalogue.ts'
import { type Play, player, type ScheduleItem } from '../../src/contract/player.ts'
import { adPlayIndex } from '../../src/domain/ad-playout.ts'
import {
  AD_PLAY_MS,
  adCellsOfHour,
  DEFAULT_AD_SHARE_PERCENT,
  localHours,
} from '../../src/domain/ad-time.ts'
import { eventWindowEpochMs } from '../../src/domain/event.ts'
import { playsOfSlot } from '../../src/domain/schedule.ts'
import { bandOfHour, slotStartEpochMs } from '../../src/domain/slots.ts'
import { adBillboards } from '../../src/server/catalogue/ad-reads.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  type AdvertiserClient,
  advertiserEnv,
  campaignWithAd,
  SHOP,
  signedInAdvertiser,
} from './advertiser-helpers.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  client,
  generateContent,
  LIVE,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { until } from './instances.ts'
import { signedInOperator } from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// Campaigns on air: an approved campaign's plays reach its billboards' schedules (JSON and SMIL) at
// the times its booking reserved, never over a shout's place, only in its dayparts; a paused one's
// leave from the next fetch; a billboard's proof of a play is stored once and puts the campaign on
// air (Live). Shouts keep every one of their plays.

const PARIS = 'Europe/Paris'
const DEVICES = ['paris-opera-1', 'paris-republique'] as const
const HOUR = 3_600_000
type Event = Parameters<typeof playsOfSlot>[0]

describe.each(BACKENDS)('campaigns on air on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let shop: Client
  let advertiser: AdvertiserClient
  let campaign: Campaign
  let flight: { fromEpochMs: number; toEpochMs: number }
  let shout: { guid: string; slot: number }
  let event: Event
  /** What the accepted proposal bought. */
  let plays = 0
  const tokens = new Map<string, string>()
  /** The server's clock: real until a test moves it into the flight. */
  let offsetMs = 0
  const now = () => Date.now() + offsetMs

  const schedule = async (deviceId: string, window = flight) =>
    answerOf(
      player.schedule,
      await shop.get(
        `/player/${deviceId}/schedule?fromEpochMs=${window.fromEpochMs}&toEpochMs=${window.toEpochMs}`,
        { authorization: `Bearer ${tokens.get(deviceId)}` },
      ),
    )
  const adsOf = (items: readonly ScheduleItem[]) =>
    items.filter((i) => i.campaignId === campaign.campaignId)
  const send = (deviceId: string, plays: Play[]) =>
    shop.post(
      `/player/${deviceId}/plays`,
      { plays },
      {
        authorization: `Bearer ${tokens.get(deviceId)}`,
      },
    )
  /** A batch of proofs sent, its answer parsed with the contract. */
  const post = async (deviceId: string, plays: Play[]) =>
    answerOf(player.plays, await send(deviceId, plays))
  const proofOf = (item: ScheduleItem, more: Partial<Play> = {}): Play => ({
    playId: randomUUID(),
    campaignId: item.campaignId as string,
    playIndex: item.playIndex,
    startedAtEpochMs: item.startEpochMs + 30,
    endedAtEpochMs: item.endEpochMs + 10,
    ...more,
  })
  const held = async (campaignId: string) =>
    (
      await server.deps.database.query(sql<{ deviceId: string; startEpochMs: number }>`
        select device_id as "deviceId", start_epoch_ms as "startEpochMs" from ad_plays
        where campaign_id = ${campaignId} order by device_id, start_epoch_ms`)
    ).map((r) => `${r.deviceId} ${Number(r.startEpochMs)}`)

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, { env: advertiserEnv(smtp), now })
    shop = client(server.url)
    for (const deviceId of DEVICES) {
      const linked = await server.deps.player.link(deviceId)
      if (!linked.ok) throw new Error('link failed')
      tokens.set(deviceId, linked.value.token)
    }
    // a campaign of two days on two billboards, mornings and evenings, booked and approved
    ;({ api: advertiser } = await signedInAdvertiser(server, smtp))
    const start = Math.ceil((now() + 24 * HOUR) / HOUR) * HOUR
    flight = { fromEpochMs: start, toEpochMs: start + 48 * HOUR }
    const draft = await campaignWithAd(advertiser, now(), {
      startEpochMs: flight.fromEpochMs,
      endEpochMs: flight.toEpochMs,
      budgetCents: 40_000,
    })
    const proposal = answerOf(
      advertisers.propose,
      await advertiser.post(`/advertisers/campaigns/${draft.campaignId}/proposal`, {}),
    )
    const card = await savedCard(client(server.url))
    const accepted = answerOf(
      advertisers.accept,
      await advertiser.post(`/advertisers/proposals/${proposal.proposalGuid}/accept`, {
        customerId: card.customerId,
        checkoutSecretKey: card.checkoutSecretKey,
      }),
    )
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    const approved = await reviewer.api.post(`/ops/campaigns/${draft.campaignId}/approve`, {})
    expect(approved.status).toBe(200)
    campaign = { ...accepted, state: 'Approved' }
    plays = proposal.totalPlays

    // a shout sold after the booking, in a morning of the flight
    event = answerOf(spotlight.event, await shop.get(`/spotlight/events/${LIVE}`))
    const morning = Temporal.Instant.fromEpochMilliseconds(flight.fromEpochMs)
      .toZonedDateTimeISO(PARIS)
      .add({ days: 1 })
      .with({ hour: 10, minute: 0, second: 0 })
      .toInstant().epochMilliseconds
    let slot = 0
    while (slotStartEpochMs(event, PARIS, slot) < morning) slot++
    const content = await generateContent(shop)
    const order = await boughtOrder(shop, { slots: [slot], content })
    expect(order.state).toBe('Confirmed')
    shout = { guid: order.guid, slot }
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  it('shows the approved campaign’s plays on each billboard, exactly those its booking holds', async () => {
    const reserved = await held(campaign.campaignId)
    expect(plays).toBeGreaterThan(20)
    expect(reserved).toHaveLength(plays)
    const shown: string[] = []
    for (const deviceId of DEVICES) {
      const res = await schedule(deviceId)
      for (const ad of adsOf(res.items)) {
        expect(ad).not.toHaveProperty('orderGuid')
        expect(ad.endEpochMs - ad.startEpochMs).toBe(15_000)
        expect(ad.playIndex).toBe(adPlayIndex(ad.startEpochMs))
        expect(ad.content.url).toMatch(/^https?:\/\//)
        expect([ad.content.widthPx, ad.content.heightPx]).toEqual([res.widthPx, res.heightPx])
        shown.push(`${deviceId} ${ad.startEpochMs}`)
      }
    }
    expect(shown.sort()).toEqual([...reserved].sort())
    const report = answerOf(
      advertisers.report,
      await advertiser.get(`/advertisers/campaigns/${campaign.campaignId}/report?format=json`),
    )
    expect(report.totals.scheduledPlays).toBe(reserved.length)
  })

  it('never puts an ad over a shout, which keeps every one of its plays, nor outside the dayparts', async () => {
    const res = await schedule('paris-opera-1')
    const shouts = res.items.filter((i) => i.orderGuid === shout.guid)
    expect(shouts.map((s) => [s.slotNumber, s.playIndex])).toEqual(
      playsOfSlot(event, PARIS, shout.slot).map((p) => [shout.slot, p.playIndex]),
    )
    const ads = res.items.filter((i) => i.campaignId !== undefined)
    expect(ads.length).toBeGreaterThan(0)
    // every shout place of the event (sold or not) in the flight
    for (const ad of ads) {
      const slot = Math.floor(
        (ad.startEpochMs - slotStartEpochMs(event, PARIS, 0)) / event.slotWidthMS,
      )
      for (const n of [slot - 1, slot, slot + 1]) {
        for (const place of playsOfSlot(event, PARIS, n)) {
          const overlaps = place.startEpochMs < ad.endEpochMs && ad.startEpochMs < place.endEpochMs
          expect(overlaps, `ad at ${ad.startEpochMs} over slot ${n}`).toBe(false)
        }
      }
      const hour = Temporal.Instant.fromEpochMilliseconds(ad.startEpochMs).toZonedDateTimeISO(
        PARIS,
      ).hour
      expect(['Morning', 'Evening']).toContain(bandOfHour(hour))
    }
    // items stay sorted, each play its own time
    const starts = res.items.map((i) => i.startEpochMs)
    expect(starts).toEqual([...starts].sort((a, b) => a - b))
  })

  it('carries the ads in the SMIL playlist too', async () => {
    const res = await schedule('paris-opera-1')
    const ads = adsOf(res.items)
    const first = ads[0] as ScheduleItem
    const window = { fromEpochMs: first.startEpochMs - HOUR, toEpochMs: first.startEpochMs + HOUR }
    const inWindow = ads.filter(
      (a) => a.startEpochMs >= window.fromEpochMs && a.startEpochMs < window.toEpochMs,
    )
    const smil = await fetch(
      `${server.url}/api/v1/player/paris-opera-1/schedule.smil?fromEpochMs=${window.fromEpochMs}&toEpochMs=${window.toEpochMs}`,
      { headers: { authorization: `Bearer ${tokens.get('paris-opera-1')}` } },
    )
    expect(smil.status).toBe(200)
    const text = await smil.text()
    // each play a media element in the region, named for the player's log as an ad (its file's
    // prefetch aside)
    expect(text.split(`src="${first.content.url}" region=`).length - 1).toBe(inWindow.length)
    expect(text.split('popName="ad"').length - 1).toBe(inWindow.length)
  })

  it('takes a paused campaign off the next fetch, and puts it back on resume', async () => {
    const before = adsOf((await schedule('paris-republique')).items).length
    expect(before).toBeGreaterThan(0)
    const paused = answerOf(
      advertisers.pause,
      await advertiser.post(`/advertisers/campaigns/${campaign.campaignId}/pause`, {}),
    )
    expect(paused.state).toBe('Paused')
    expect(adsOf((await schedule('paris-republique')).items)).toEqual([])
    const resumed = answerOf(
      advertisers.resume,
      await advertiser.post(`/advertisers/campaigns/${campaign.campaignId}/resume`, {}),
    )
    expect(resumed.state).toBe('Approved')
    expect(adsOf((await schedule('paris-republique')).items)).toHaveLength(before)
  })

  it('shows a change another server made from a fetch after the next, and never waits on the read', async () => {
    const before = adsOf((await schedule('paris-republique')).items).length
    expect(before).toBeGreaterThan(0)
    // another instance pauses it: written to the database, not through this server
    const pause = (state: string) =>
      server.deps.database.query(
        sql`update campaigns set state = ${state} where campaign_id = ${campaign.campaignId}`,
      )
    await pause('Paused')
    try {
      // a second on, the last read is old: the next fetch answers from it, at once, while the next
      // read is made; the fetches after it have the pause
      offsetMs = 1500
      expect(adsOf((await schedule('paris-republique')).items)).toHaveLength(before)
      await until(
        async () => (adsOf((await schedule('paris-republique')).items).length === 0 ? true : null),
        10_000,
        'the pause on the schedule',
      )
    } finally {
      await pause('Approved')
      offsetMs = 3000
    }
    await until(
      async () =>
        adsOf((await schedule('paris-republique')).items).length === before ? true : null,
      10_000,
      'the campaign back on the schedule',
    )
    offsetMs = 0
  })

  it('stores a billboard’s proof of an ad play once, and the campaign goes Live', async () => {
    const ads = adsOf((await schedule('paris-opera-1')).items)
    const [first, second] = ads as [ScheduleItem, ScheduleItem]
    const republique = new Set(
      adsOf((await schedule('paris-republique')).items).map((a) => a.startEpochMs),
    )
    // a play at a time the other billboard holds none (its neighbour cell)
    const unheld = proofOf(first, {
      playIndex: first.playIndex + 1,
      startedAtEpochMs: first.endEpochMs + 30,
      endedAtEpochMs: first.endEpochMs + 15_010,
    })
    expect(republique.has(first.endEpochMs)).toBe(false)
    // not aired yet by the server's clock: refused, nothing stored
    expect(await post('paris-opera-1', [proofOf(first)])).toEqual({
      accepted: 0,
      duplicates: 0,
      refused: 1,
    })
    const realNow = Date.now()
    offsetMs = first.endEpochMs + 60_000 - realNow
    try {
      const proof = proofOf(first)
      expect(await post('paris-opera-1', [proof, { ...proof }])).toEqual({
        accepted: 1,
        duplicates: 1,
        refused: 0,
      })
      // the same play again under another id, another billboard's, another campaign's, or a
      // play not aired yet: nothing more stored
      expect(
        await post('paris-opera-1', [
          proofOf(first),
          proofOf(second),
          proofOf(first, { campaignId: 'not-a-campaign' }),
        ]),
      ).toEqual({ accepted: 0, duplicates: 1, refused: 2 })
      offsetMs = flight.toEpochMs - realNow
      expect(await post('paris-republique', [unheld])).toEqual({
        accepted: 0,
        duplicates: 0,
        refused: 1,
      })
    } finally {
      offsetMs = 0
    }
    const seen = answerOf(
      advertisers.campaign,
      await advertiser.get(`/advertisers/campaigns/${campaign.campaignId}`),
    )
    expect(seen.state).toBe('Live')
    const report = answerOf(
      advertisers.report,
      await advertiser.get(`/advertisers/campaigns/${campaign.campaignId}/report?format=json`),
    )
    expect(report.totals.provenPlays).toBe(1)
    expect(report.totals.spentCents).toBeGreaterThan(0)
  })

  it('refuses the proof of a play its paused campaign did not air, and keeps one aired before the pause', async () => {
    const ads = adsOf((await schedule('paris-opera-1')).items)
    const aired = ads[1] as ScheduleItem
    const later = ads.find((a) => a.startEpochMs > aired.endEpochMs + 5 * 60_000) as ScheduleItem
    expect(later).toBeDefined()
    const provenPlays = async () =>
      answerOf(
        advertisers.report,
        await advertiser.get(`/advertisers/campaigns/${campaign.campaignId}/report?format=json`),
      ).totals.provenPlays
    const before = await provenPlays()
    // the advertiser's access token lasts 15 minutes: renewed by its cookie once the clock moves
    const renew = async () => {
      const renewed = answerOf(
        advertisers.refresh,
        await advertiser.post('/advertisers/session/refresh'),
      )
      advertiser.token = renewed.accessToken
    }
    const realNow = Date.now()
    try {
      // paused a minute after a play: that play aired, its proof counts even after the pause
      offsetMs = aired.endEpochMs + 60_000 - realNow
      await renew()
      const paused = answerOf(
        advertisers.pause,
        await advertiser.post(`/advertisers/campaigns/${campaign.campaignId}/pause`, {}),
      )
      expect(paused.state).toBe('Paused')
      offsetMs = later.endEpochMs + 60_000 - realNow
      expect(await post('paris-opera-1', [proofOf(aired)])).toEqual({
        accepted: 1,
        duplicates: 0,
        refused: 0,
      })
      // a play of the pause: on no schedule, so its proof is refused and nothing owed for it
      expect(await post('paris-opera-1', [proofOf(later)])).toEqual({
        accepted: 0,
        duplicates: 0,
        refused: 1,
      })
      await renew()
      expect(await provenPlays()).toBe(before + 1)
      // resumed, its plays from then on count again; the paused one stays refused
      const resumed = answerOf(
        advertisers.resume,
        await advertiser.post(`/advertisers/campaigns/${campaign.campaignId}/resume`, {}),
      )
      expect(resumed.state).toBe('Live')
      expect(await post('paris-opera-1', [proofOf(later)])).toMatchObject({ refused: 1 })
    } finally {
      offsetMs = 0
      await renew()
    }
    expect(await provenPlays()).toBe(before + 1)
  })

  it('never gives ads more of an hour than the free-time share, even to a campaign that would buy more', async () => {
    // a second campaign, on one billboard for two morning hours after the first one's flight, with
    // a budget far beyond what those hours' ad cells sell
    const deviceId = 'paris-opera-1'
    const from = Temporal.Instant.fromEpochMilliseconds(flight.toEpochMs)
      .toZonedDateTimeISO(PARIS)
      .add({ days: 1 })
      .with({ hour: 9, minute: 0, second: 0, millisecond: 0 })
      .toInstant().epochMilliseconds
    const window = { fromEpochMs: from, toEpochMs: from + 2 * HOUR }
    offsetMs = 0
    const { api } = await signedInAdvertiser(server, smtp)
    const draft = await campaignWithAd(api, now(), {
      startEpochMs: window.fromEpochMs,
      endEpochMs: window.toEpochMs,
      deviceIds: [deviceId],
      dayparts: ['Morning'],
      budgetCents: 10_000_000,
    })
    const proposal = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${draft.campaignId}/proposal`, {}),
    )
    const card = await savedCard(client(server.url))
    await api.post(`/advertisers/proposals/${proposal.proposalGuid}/accept`, {
      customerId: card.customerId,
      checkoutSecretKey: card.checkoutSecretKey,
    })
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    await reviewer.api.post(`/ops/campaigns/${draft.campaignId}/approve`, {})

    const [billboard] = await adBillboards(server.deps.database, [deviceId])
    if (!billboard) throw new Error('no billboard')
    const items = (await schedule(deviceId, window)).items.filter((i) => i.campaignId)
    for (const hour of localHours(PARIS, window.fromEpochMs, window.toEpochMs)) {
      const inHour = items.filter(
        (i) => i.startEpochMs >= hour.startEpochMs && i.startEpochMs < hour.endEpochMs,
      )
      const cells = adCellsOfHour(billboard, hour)
      // the hour's ads fill exactly its ad cells: the share of its free time, no more
      expect(inHour.map((i) => i.startEpochMs).sort((a, b) => a - b)).toEqual(cells)
      // the share of the events over the hour (the smallest), or the server's default
      const shares = billboard.events
        .filter((e) => {
          const w = eventWindowEpochMs(e, PARIS)
          return w.startEpochMs < hour.endEpochMs && w.endEpochMs > hour.startEpochMs
        })
        .map((e) => e.adSharePercent ?? DEFAULT_AD_SHARE_PERCENT)
      const share = shares.length > 0 ? Math.min(...shares) : DEFAULT_AD_SHARE_PERCENT
      expect(inHour.length).toBeGreaterThan(0)
      expect(inHour.length).toBeLessThanOrEqual(Math.floor(((HOUR / AD_PLAY_MS) * share) / 100))
    }
  })

  it('refuses a proof naming both an order and a campaign', async () => {
    const res = await send('paris-opera-1', [
      {
        playId: randomUUID(),
        orderGuid: shout.guid,
        slotNumber: shout.slot,
        campaignId: campaign.campaignId,
        playIndex: 0,
        startedAtEpochMs: 1,
        endedAtEpochMs: 2,
      },
    ])
    expect(res.status).toBe(400)
  })
})
