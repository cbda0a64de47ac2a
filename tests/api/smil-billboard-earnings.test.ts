import { randomUUID } from 'node:crypto'
import { XMLParser } from 'fast-xml-parser'
import { Temporal } from 'temporal-polyfill'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import type { ScheduleItem } from '../../src/contract/index.ts'
import { order } from '../../src/contract/order.ts'
import { player } from '../../src/contract/player.ts'
import { MISSED_AFTER_MS } from '../../src/domain/ad-playout.ts'
import { chargesOf } from '../../src/server/advertisers/billing/repo.ts'
import { advertiserEnv, campaignWithAd, SHOP, signedInAdvertiser } from './advertiser-helpers.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  client,
  daySlots,
  generateContent,
  LIVE,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// A billboard that runs a SMIL player earns like one that runs ours: the plays its player logs
// (garlic's A-SMIL play log, signageOS's proof-of-play reports) are its proofs of play, so the
// make-good job refunds no shout it logged and the daily settlement charges each ad it logged; a
// play it did not log is refunded, or never charged, as for any billboard.

const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'
const HOUR = 3_600_000

type Feed = { action: string; popEndpoint: string; ids: Map<string, string> }

describe.each(BACKENDS)('a SMIL billboard’s logged plays on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let shop: Client
  let token: string
  let offsetMs = 0
  const now = () => Date.now() + offsetMs
  const at = (epochMs: number) => {
    offsetMs = epochMs - Date.now()
  }

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

  /** The billboard's SMIL feed of a window: where it logs, and each sold play's logged id by start. */
  async function feedOf(fromEpochMs: number, toEpochMs: number): Promise<Feed> {
    const res = await fetch(
      `${server.url}/api/v1/player/${DEVICE}/schedule.smil?token=${token}&fromEpochMs=${fromEpochMs}&toEpochMs=${toEpochMs}`,
    )
    const smil = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await res.text(),
    ).smil
    const ids = new Map<string, string>()
    for (const { seq } of [smil.body.par.excl.priorityClass].flat()) {
      const media = seq.img ?? seq.video
      if (media.popCustomId) ids.set(seq.begin, media.popCustomId)
    }
    // the shop's public address (PUBLIC_BASE_URL) is this test server's
    const here = (url: string) => url.replace(SHOP, server.url)
    return {
      action: here(smil.head.metadata['x-server'].subscriptionList.subscription.action),
      popEndpoint: here(smil.head.meta.find((m: { log?: string }) => m.log === 'true').endpoint),
      ids,
    }
  }
  const wallclock = (epochMs: number) =>
    `wallclock(${Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(PARIS).toPlainDateTime().toString()})`
  const idOf = (feed: Feed, play: { startEpochMs: number }) => {
    const id = feed.ids.get(wallclock(play.startEpochMs))
    expect(id).toBeDefined()
    return id as string
  }
  const local = (epochMs: number) =>
    Temporal.Instant.fromEpochMilliseconds(epochMs)
      .toZonedDateTimeISO(PARIS)
      .toString({ timeZoneName: 'never', fractionalSecondDigits: 0 })

  it('refunds no shout the billboard’s garlic-player logged, and the one it did not log in full', async () => {
    const content = await generateContent(shop)
    const logged = await boughtOrder(shop, { slots: daySlots(2, 40, 1), content })
    const unlogged = await boughtOrder(shop, { slots: daySlots(2, 42, 1), content })
    expect([logged.state, unlogged.state]).toEqual(['Confirmed', 'Confirmed'])
    const summaryOf = async (guid: string) =>
      answerOf(order.summary, await shop.get(`/order/events/${LIVE}/orders/${guid}`))
    const [slot] = (await summaryOf(logged.guid)).slots
    const lastSlot = (await summaryOf(unlogged.guid)).slots[0]
    if (!slot || !lastSlot) throw new Error('no slots')
    const schedule = answerOf(
      player.schedule,
      await shop.get(
        `/player/${DEVICE}/schedule?fromEpochMs=${slot.startEpochMs}&toEpochMs=${slot.endEpochMs}`,
        { authorization: `Bearer ${token}` },
      ),
    )
    const plays = schedule.items.filter((i) => i.orderGuid === logged.guid)
    expect(plays).toHaveLength(4)
    const feed = await feedOf(slot.startEpochMs, lastSlot.endEpochMs)

    // the slot plays; garlic sends its play log (local times with their offset)
    at(slot.endEpochMs + 60_000)
    const report = `<?xml version="1.0" encoding="UTF-8"?>\n<report xmlns="http://schemas.garlic-player.com/gapi-1.0"><date>${new Date(now()).toISOString()}</date><version>1.0</version><player id="g-1"><contentPlayLog>${plays
      .map(
        (p) =>
          `<contentPlayed><contentId>${idOf(feed, p)}</contentId><startTime>${local(p.startEpochMs + 1000)}</startTime><endTime>${local(p.endEpochMs)}</endTime></contentPlayed>`,
      )
      .join('')}</contentPlayLog></player></report>`
    const put = await fetch(`${feed.action}/playlog-${randomUUID()}.xml`, {
      method: 'PUT',
      body: report,
    })
    expect(await put.json()).toEqual({ accepted: 4, duplicates: 0, refused: 0, failed: 0 })

    at(lastSlot.endEpochMs + 6 * HOUR)
    await server.deps.jobs.idle()
    await server.deps.jobs.runNow('make-goods')
    expect((await summaryOf(logged.guid)).makeGood).toMatchObject({
      playsDue: 4,
      playsProven: 4,
      missed: [],
      refundCents: 0,
    })
    const missed = await summaryOf(unlogged.guid)
    expect(missed.makeGood).toMatchObject({
      playsDue: 4,
      playsProven: 0,
      refundCents: missed.totalCents,
    })
  })

  /** A campaign of a day on the billboard, `days` after tomorrow, booked, paid and approved. */
  async function approvedCampaign(days: number) {
    at(Date.now())
    const { api } = await signedInAdvertiser(server, smtp)
    const start = Temporal.Instant.fromEpochMilliseconds(now() + 24 * HOUR)
      .toZonedDateTimeISO(PARIS)
      .toPlainDate()
      .add({ days })
      .toZonedDateTime({ timeZone: PARIS }).epochMilliseconds
    const flight = { fromEpochMs: start, toEpochMs: start + 24 * HOUR }
    const draft = await campaignWithAd(api, now(), {
      startEpochMs: flight.fromEpochMs,
      endEpochMs: flight.toEpochMs,
      budgetCents: 20_000,
    })
    const proposal = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${draft.campaignId}/proposal`, {}),
    )
    const card = await savedCard(client(server.url))
    answerOf(
      advertisers.accept,
      await api.post(`/advertisers/proposals/${proposal.proposalGuid}/accept`, {
        customerId: card.customerId,
        checkoutSecretKey: card.checkoutSecretKey,
      }),
    )
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    expect((await reviewer.api.post(`/ops/campaigns/${draft.campaignId}/approve`, {})).status).toBe(
      200,
    )
    const line = proposal.lines.find((l) => l.deviceId === DEVICE)
    const cost = line?.plays ? line.costCents / line.plays : 0
    expect(cost).toBeGreaterThan(0)

    const schedule = answerOf(
      player.schedule,
      await shop.get(
        `/player/${DEVICE}/schedule?fromEpochMs=${flight.fromEpochMs}&toEpochMs=${flight.toEpochMs}`,
        { authorization: `Bearer ${token}` },
      ),
    )
    const ads = schedule.items.filter((i) => i.campaignId === draft.campaignId)
    expect(ads.length).toBeGreaterThan(3)
    const [a, b] = ads as [ScheduleItem, ScheduleItem]
    const feed = await feedOf(a.startEpochMs - HOUR, b.endEpochMs + HOUR)
    return { api, campaignId: draft.campaignId, cost, a, b, feed }
  }

  /** signageOS's report of a successful playback, sent as it ends. */
  const playback = (feed: Feed, ad: ScheduleItem) => ({
    name: 'media-playback',
    playbackSuccess: true,
    customId: idOf(feed, ad),
    type: 'image',
    recordedAt: new Date(ad.endEpochMs).toISOString(),
  })

  it('charges the ads the billboard’s signageOS player logged at settlement, never the others', async () => {
    const { campaignId, cost, a, b, feed } = await approvedCampaign(5)

    // signageOS reports each playback as it ends, and its unsent batch again later
    at(b.endEpochMs + 60_000)
    const reports = [a, b].map((ad) => playback(feed, ad))
    const post = () =>
      fetch(feed.popEndpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(reports),
      })
    expect(await (await post()).json()).toEqual({
      accepted: 2,
      duplicates: 0,
      refused: 0,
      failed: 0,
    })
    expect(await (await post()).json()).toMatchObject({ accepted: 0, duplicates: 2 })

    // after the flight's day and the late proofs' time: the two logged plays charged, no other
    const day = Temporal.Instant.fromEpochMilliseconds(a.startEpochMs)
      .toZonedDateTimeISO(PARIS)
      .toPlainDate()
    at(
      day.add({ days: 1 }).toZonedDateTime({ timeZone: PARIS }).epochMilliseconds + MISSED_AFTER_MS,
    )
    await server.deps.jobs.runNow('ad-settlement')
    const charges = await chargesOf(server.deps.database, campaignId)
    expect(charges).toMatchObject([
      { day: day.toString(), plays: 2, status: 'charged', amountCents: 2 * cost },
    ])
  })

  it('takes a logged ad that aired before its campaign was paused, never one of the pause', async () => {
    const { api, campaignId, a, b, feed } = await approvedCampaign(7)
    // the first ad airs; its advertiser pauses the campaign before the second, and the player's
    // reports of both come after (signageOS sends a failed batch again ten minutes later)
    at(a.endEpochMs + 1000)
    const refreshed = answerOf(advertisers.refresh, await api.post('/advertisers/session/refresh'))
    api.token = refreshed.accessToken
    const paused = await api.post(`/advertisers/campaigns/${campaignId}/pause`, {})
    expect(paused.status).toBe(200)
    at(b.endEpochMs + 10 * 60_000)
    const res = await fetch(feed.popEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([playback(feed, a), playback(feed, b)]),
    })
    expect(await res.json()).toEqual({ accepted: 1, duplicates: 0, refused: 1, failed: 0 })
  })

  it('takes and charges a logged ad that aired before its campaign was cancelled, never one after', async () => {
    const { api, campaignId, cost, a, b, feed } = await approvedCampaign(9)
    // the first ad airs; its advertiser cancels the campaign before the second, and the player's
    // batch of both comes after: the ad carried while the campaign was approved is a proof, as the
    // web player's would be, whatever the campaign's state now
    at(a.endEpochMs + 1000)
    const refreshed = answerOf(advertisers.refresh, await api.post('/advertisers/session/refresh'))
    api.token = refreshed.accessToken
    const cancelled = answerOf(
      advertisers.cancel,
      await api.post(`/advertisers/campaigns/${campaignId}/cancel`, {}),
    )
    expect(cancelled.state).toBe('Cancelled')
    at(b.endEpochMs + 10 * 60_000)
    const res = await fetch(feed.popEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([playback(feed, a), playback(feed, b)]),
    })
    expect(await res.json()).toEqual({ accepted: 1, duplicates: 0, refused: 1, failed: 0 })

    const day = Temporal.Instant.fromEpochMilliseconds(a.startEpochMs)
      .toZonedDateTimeISO(PARIS)
      .toPlainDate()
    at(
      day.add({ days: 1 }).toZonedDateTime({ timeZone: PARIS }).epochMilliseconds + MISSED_AFTER_MS,
    )
    await server.deps.jobs.runNow('ad-settlement')
    expect(await chargesOf(server.deps.database, campaignId)).toMatchObject([
      { day: day.toString(), plays: 1, status: 'charged', amountCents: cost },
    ])
  })
})
