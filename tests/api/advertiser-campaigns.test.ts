import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import { demoCatalogue } from '../../src/server/catalogue/demo-catalogue.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  advertiserClient,
  advertiserEnv,
  campaignWithAd,
  draftOf,
  pngOf,
  STRONG_PASSWORD,
  signedInAdvertiser,
  uploadAd,
} from './advertiser-helpers.ts'
import {
  answerOf,
  BACKENDS,
  client,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// api-v1 "Advertisers", campaigns: the inventory, a draft and spec §8's schedule rules, an account's
// own campaigns only, the ad through the shop's content pipeline, a proposal within the budget (a
// link anyone may open), acceptance with a saved card (Booked), the schedule fixed from then on, the
// budget raised (more plays) or lowered only to spent + committed, pause/resume/cancel, the report.

const HOUR = 3_600_000
/** 1200 impressions a play at 800 cents a thousand (the demo catalogue's paris-opera-1). */
const OPERA_PLAY_CENTS = 960
/** 800 × 700 / 1000 (paris-republique). */
const REPUBLIQUE_PLAY_CENTS = 560

describe.each(BACKENDS)('advertisers’ campaigns on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let offsetMs = 0
  const now = () => Date.now() + offsetMs

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, { env: advertiserEnv(smtp), now })
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  const card = () => savedCard(client(server.url))

  it('lists the billboards sold to advertisers with their price and free plays', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const res = answerOf(advertisers.inventory, await api.get('/advertisers/inventory'))
    const opera = res.billboards.find((b) => b.deviceId === 'paris-opera-1')
    expect(opera).toMatchObject({
      impressionsPerPlay: 1200,
      adCpmCents: 800,
      currency: 'EUR',
      costCentsPerPlay: OPERA_PLAY_CENTS,
      contentWidth: 1400,
      contentHeight: 400,
    })
    expect(opera?.freePlays).toBeGreaterThan(1000)
    // a billboard without the catalogue's ad fields is not for sale
    expect(res.billboards.map((b) => b.deviceId)).not.toContain('london-kings-cross')
  })

  it('counts the plays still free in the window asked, fewer once a campaign books some', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const draft = draftOf(now(), { budgetCents: 20_000 })
    const day = 24 * HOUR
    const freeOf = async (fromEpochMs: number, toEpochMs: number) => {
      const res = answerOf(
        advertisers.inventory,
        await api.get(`/advertisers/inventory?fromEpochMs=${fromEpochMs}&toEpochMs=${toEpochMs}`),
      )
      return new Map(res.billboards.map((b) => [b.deviceId, b.freePlays]))
    }
    const start = draft.startEpochMs
    const firstDay = await freeOf(start, start + day)
    const secondDay = await freeOf(start + day, start + 2 * day)
    const twoDays = await freeOf(start, start + 2 * day)
    const opera = (free: Map<string, number>) => free.get('paris-opera-1') ?? -1
    expect(opera(firstDay)).toBeGreaterThan(0)
    expect(opera(twoDays)).toBe(opera(firstDay) + opera(secondDay))
    // a window already over has nothing left to sell
    expect(opera(await freeOf(now() - 2 * day, now() - day))).toBe(0)

    const before = await freeOf(draft.startEpochMs, draft.endEpochMs)
    const campaign = await campaignWithAd(api, now(), draft)
    const p = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${campaign.campaignId}/proposal`, {}),
    )
    // a proposal reserves nothing yet
    expect(await freeOf(draft.startEpochMs, draft.endEpochMs)).toEqual(before)
    const saved = await card()
    const booked = await api.post(`/advertisers/proposals/${p.proposalGuid}/accept`, {
      customerId: saved.customerId,
      checkoutSecretKey: saved.checkoutSecretKey,
    })
    expect(booked.status).toBe(200)
    const after = await freeOf(draft.startEpochMs, draft.endEpochMs)
    for (const line of p.lines) {
      expect(line.plays).toBeGreaterThan(0)
      expect(after.get(line.deviceId), line.deviceId).toBe(
        (before.get(line.deviceId) ?? 0) - line.plays,
      )
    }
    // the plays to come of a cancelled campaign are free again
    await api.post(`/advertisers/campaigns/${campaign.campaignId}/cancel`, {})
    expect(await freeOf(draft.startEpochMs, draft.endEpochMs)).toEqual(before)
  })

  it('refuses a schedule by spec §8’s rules, and billboards not for sale or in another currency', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const t = now()
    const refused = async (more: Parameters<typeof draftOf>[1], code: string, text?: string) => {
      const res = await api.post('/advertisers/campaigns', draftOf(t, more))
      expect(res.status, code).toBe(422)
      expect(res.body, code).toMatchObject({ codes: [code], ...(text ? { errors: [text] } : {}) })
    }
    await refused(
      { startEpochMs: t - HOUR, endEpochMs: t + 48 * HOUR },
      'campaign_start_past',
      'Start time can not be prior to now',
    )
    await refused(
      { startEpochMs: t + 3 * HOUR, endEpochMs: t + 48 * HOUR },
      'campaign_start_too_soon',
      'Start time can not be within 04:00:00 from now',
    )
    await refused(
      { startEpochMs: t + 48 * HOUR, endEpochMs: t + 24 * HOUR },
      'campaign_end_before_start',
    )
    await refused(
      { deviceIds: ['london-kings-cross'] },
      'billboard_not_for_ads',
      "The billboard at Euston Road, opposite King's Cross station, London is not sold to advertisers",
    )
    await refused(
      { deviceIds: ['paris-opera-1', 'london-piccadilly-1'] },
      'billboard_currency_mismatch',
      'The billboard at Piccadilly Circus, above Shaftesbury Avenue, London is sold in GBP, and this campaign is in EUR',
    )
    const bad = await api.post('/advertisers/campaigns', { ...draftOf(t), dayparts: [] })
    expect(bad.status).toBe(400)
    const made = answerOf(
      advertisers.createCampaign,
      await api.post('/advertisers/campaigns', draftOf(t)),
    )
    expect(made).toMatchObject({ state: 'Draft', spentCents: 0, committedCents: 0 })
  })

  it('refuses a flight beyond a year ahead with a 400 and its code, up to the end of time', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const t = now()
    const day = 24 * HOUR
    const tooFar = 'A campaign starts at most 365 days from now'
    const lastMs = 8_640_000_000_000_000
    const year9999 = Date.UTC(9999, 0, 1)
    for (const [startEpochMs, endEpochMs] of [
      [lastMs, lastMs],
      [lastMs - day, lastMs],
      [year9999, year9999 + 30 * day],
      [t + 400 * day, t + 410 * day],
    ] as const) {
      const res = await api.post('/advertisers/campaigns', draftOf(t, { startEpochMs, endEpochMs }))
      expect(res.status, String(startEpochMs)).toBe(400)
      expect(res.body).toMatchObject({ codes: ['campaign_start_too_far'], errors: [tooFar] })
    }
    // nor by moving a draft there
    const made = answerOf(
      advertisers.createCampaign,
      await api.post('/advertisers/campaigns', draftOf(t)),
    )
    const moved = await api.patch(`/advertisers/campaigns/${made.campaignId}`, {
      startEpochMs: lastMs - day,
      endEpochMs: lastMs,
    })
    expect(moved.status).toBe(400)
    expect(moved.body).toMatchObject({ codes: ['campaign_start_too_far'], errors: [tooFar] })
    // a start within the year with an end past two years ahead
    const end = await api.post('/advertisers/campaigns', {
      ...draftOf(t),
      endEpochMs: lastMs,
    })
    expect(end.status).toBe(400)
    expect(end.body).toMatchObject({ codes: ['campaign_end_too_far'] })
    // a draft stored at such a date before the rule (as the old server accepted it): its proposal
    // is the same refusal, not a failure of the plays' date arithmetic
    const stored = await campaignWithAd(api, t)
    await server.deps.database.query(sql`
      update campaigns set start_epoch_ms = ${lastMs - day}, end_epoch_ms = ${lastMs}
      where campaign_id = ${stored.campaignId}`)
    const proposal = await api.post(`/advertisers/campaigns/${stored.campaignId}/proposal`, {})
    expect(proposal.status).toBe(400)
    expect(proposal.body).toMatchObject({ codes: ['campaign_start_too_far'], errors: [tooFar] })
  })

  it('shows an account its own campaigns and ads only', async () => {
    const a = await signedInAdvertiser(server, smtp)
    const b = await signedInAdvertiser(server, smtp)
    const campaign = await campaignWithAd(a.api, now())
    expect((await a.api.get(`/advertisers/campaigns/${campaign.campaignId}`)).status).toBe(200)
    const foreign = await b.api.get(`/advertisers/campaigns/${campaign.campaignId}`)
    expect(foreign.status).toBe(403)
    expect(foreign.body).toMatchObject({ errors: ['You do not have access to this campaign'] })
    const forbidden = { errors: ['You do not have access to this campaign'] }
    for (const [method, path, body] of [
      ['PATCH', '', { name: 'mine now' }],
      ['POST', '/pause', {}],
      ['POST', '/resume', {}],
      ['POST', '/cancel', {}],
      ['GET', '/report', undefined],
      ['GET', '/plays', undefined],
    ] as const) {
      const res = await b.api.call(
        method,
        `/advertisers/campaigns/${campaign.campaignId}${path}`,
        body,
      )
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.body, `${method} ${path}`).toMatchObject(forbidden)
    }
    // another account's ad cannot be replaced, nor read
    const replaced = await uploadAd(b.api, campaign.campaignId, {
      bytes: await pngOf(1400, 400),
      name: 'theirs.png',
      type: 'image/png',
    })
    expect(replaced.status).toBe(403)
    expect(replaced.body).toMatchObject(forbidden)
    const own = answerOf(
      advertisers.campaign,
      await a.api.get(`/advertisers/campaigns/${campaign.campaignId}`),
    )
    const content = await b.api.get(`/advertisers/content/${own.contentGuid}`)
    expect(content.status).toBe(403)
    expect(content.body).toMatchObject(forbidden)
    const unknownAd = await a.api.get('/advertisers/content/00000000-0000-0000-0000-000000000000')
    expect(unknownAd.status).toBe(404)
    // nor its proposal accepted, with a card of one's own
    const proposal = answerOf(
      advertisers.propose,
      await a.api.post(`/advertisers/campaigns/${campaign.campaignId}/proposal`, {}),
    )
    const theirs = await b.api.post(`/advertisers/campaigns/${campaign.campaignId}/proposal`, {})
    expect(theirs.status).toBe(403)
    expect(theirs.body).toMatchObject(forbidden)
    const saved = await card()
    const accepted = await b.api.post(`/advertisers/proposals/${proposal.proposalGuid}/accept`, {
      customerId: saved.customerId,
      checkoutSecretKey: saved.checkoutSecretKey,
    })
    expect(accepted.status).toBe(403)
    expect(accepted.body).toMatchObject(forbidden)
    const still = answerOf(
      advertisers.campaign,
      await a.api.get(`/advertisers/campaigns/${campaign.campaignId}`),
    )
    expect(still).toMatchObject({ state: 'Proposed', contentGuid: own.contentGuid })
    const list = answerOf(advertisers.campaigns, await b.api.get('/advertisers/campaigns'))
    expect(list.campaigns.map((c) => c.campaignId)).not.toContain(campaign.campaignId)
    expect(
      (await a.api.get('/advertisers/campaigns/00000000-0000-0000-0000-000000000000')).status,
    ).toBe(404)
  })

  it('takes the ad through the shop’s pipeline, fitted to each billboard’s size', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const made = answerOf(
      advertisers.createCampaign,
      await api.post(
        '/advertisers/campaigns',
        draftOf(now(), { currency: 'USD', deviceIds: ['nyc-times-square-1', 'nyc-union-square'] }),
      ),
    )
    const wrong = await uploadAd(api, made.campaignId, {
      bytes: Buffer.from('not an image at all'),
      name: 'ad.png',
      type: 'image/png',
    })
    expect(wrong.status).toBe(415)
    const ad = await uploadAd(api, made.campaignId, {
      bytes: await pngOf(800, 600),
      name: 'ad.png',
      type: 'image/png',
    })
    const content = answerOf(advertisers.uploadContent, ad)
    expect(content).toMatchObject({ status: 'ready', type: 'photo' })
    expect(content.renditions?.map((r) => `${r.widthPx}x${r.heightPx}`).sort()).toEqual([
      '1400x400',
      '1920x1080',
    ])
    // the file is served by the shop (its address made from PUBLIC_BASE_URL)
    const path = new URL(content.renditions?.[0]?.url ?? '').pathname
    const fitted = await fetch(new URL(path, server.url))
    expect(fitted.status).toBe(200)
    expect(fitted.headers.get('content-type')).toBe('image/jpeg')
    const got = answerOf(
      advertisers.content,
      await api.get(`/advertisers/content/${content.contentGuid}`),
    )
    expect(got.status).toBe('ready')
  })

  it('proposes what the budget buys, spread over both billboards, within the budget', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const bare = answerOf(
      advertisers.createCampaign,
      await api.post('/advertisers/campaigns', draftOf(now())),
    )
    const noAd = await api.post(`/advertisers/campaigns/${bare.campaignId}/proposal`, {})
    expect(noAd.status).toBe(422)
    expect(noAd.body).toMatchObject({ codes: ['campaign_no_content'] })

    const campaign = await campaignWithAd(api, now(), { budgetCents: 10_000 })
    const res = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${campaign.campaignId}/proposal`, {}),
    )
    const p = res
    expect(p.totalCents).toBeLessThanOrEqual(10_000)
    // as many plays on each billboard as the budget allows, one more at most
    const [opera, republique] = p.lines
    expect(opera?.deviceId).toBe('paris-opera-1')
    // each billboard named as the catalogue names it
    expect(opera?.location).toBe("Place de l'Opéra, facing Boulevard Haussmann")
    expect(republique?.location).toBe('Place de la République, north side')
    expect(opera?.costCents).toBe((opera?.plays ?? 0) * OPERA_PLAY_CENTS)
    expect(republique?.costCents).toBe((republique?.plays ?? 0) * REPUBLIQUE_PLAY_CENTS)
    expect(Math.abs((opera?.plays ?? 0) - (republique?.plays ?? 0))).toBeLessThanOrEqual(3)
    expect(p.totalCents + REPUBLIQUE_PLAY_CENTS).toBeGreaterThan(10_000)
    expect(p.totalImpressions).toBe((opera?.plays ?? 0) * 1200 + (republique?.plays ?? 0) * 800)
    expect(p.validUntilEpochMs).toBeLessThanOrEqual(campaign.startEpochMs)

    const shown = answerOf(
      advertisers.campaign,
      await api.get(`/advertisers/campaigns/${campaign.campaignId}`),
    )
    expect(shown).toMatchObject({ state: 'Proposed', proposalGuid: p.proposalGuid })
    // the link opens without an account
    const shared = answerOf(
      advertisers.proposal,
      await client(server.url).get(`/advertisers/proposals/${p.proposalGuid}`),
    )
    expect(shared).toMatchObject({ totalCents: p.totalCents, campaignName: 'Spring sale' })
    const unknown = await client(server.url).get('/advertisers/proposals/no-such-proposal')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ errors: ['No proposal found for the provided key'] })
  })

  it('proposes nothing for a budget below a play’s price, and refuses an ad over 15 MB', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const cent = await campaignWithAd(api, now(), { budgetCents: 1 })
    const none = await api.post(`/advertisers/campaigns/${cent.campaignId}/proposal`, {})
    expect(none.status).toBe(422)
    expect(none.body).toMatchObject({
      codes: ['campaign_nothing_to_sell'],
      errors: ['The budget buys no play on these billboards at these times'],
    })
    const before = answerOf(
      advertisers.campaign,
      await api.get(`/advertisers/campaigns/${cent.campaignId}`),
    )
    expect(before.state).toBe('Draft')
    // a PNG's signature, then more bytes than a photo may have (the shop's limit, 15 MB)
    const png = await pngOf(1400, 400)
    const huge = Buffer.concat([png.subarray(0, 64), Buffer.alloc(16 * 1024 * 1024)])
    const tooLarge = await uploadAd(api, cent.campaignId, {
      bytes: huge,
      name: 'huge.png',
      type: 'image/png',
    })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.body).toMatchObject({
      codes: ['upload_too_large'],
      errors: ['The file is too large. The limit is 15 MB.'],
    })
    // the ad uploaded before is still the campaign's
    const still = answerOf(
      advertisers.campaign,
      await api.get(`/advertisers/campaigns/${cent.campaignId}`),
    )
    expect(still.contentGuid).toBe(before.contentGuid)
  })

  it('voids a proposal when its schedule changes, and books one with a saved card', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const campaign = await campaignWithAd(api, now(), { budgetCents: 20_000 })
    const id = campaign.campaignId
    const first = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${id}/proposal`, {}),
    )
    const changed = answerOf(
      advertisers.updateCampaign,
      await api.patch(`/advertisers/campaigns/${id}`, {
        dayparts: ['Afternoon'],
      }),
    )
    expect(changed.state).toBe('Draft')
    const stale = await api.post(`/advertisers/proposals/${first.proposalGuid}/accept`, {
      customerId: (await card()).customerId,
      checkoutSecretKey: 'cks_none',
    })
    expect(stale.status).toBe(400)

    const second = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${id}/proposal`, {}),
    )
    const saved = await card()
    const voided = await api.post(`/advertisers/proposals/${first.proposalGuid}/accept`, {
      customerId: saved.customerId,
      checkoutSecretKey: saved.checkoutSecretKey,
    })
    expect(voided.status).toBe(409)
    expect(voided.body).toMatchObject({ codes: ['proposal_void'] })
    const booked = answerOf(
      advertisers.accept,
      await api.post(`/advertisers/proposals/${second.proposalGuid}/accept`, {
        customerId: saved.customerId,
        checkoutSecretKey: saved.checkoutSecretKey,
      }),
    )
    expect(booked).toMatchObject({
      state: 'Booked',
      scheduledPlays: second.totalPlays,
      committedCents: second.totalCents,
    })

    // from Booked on, the schedule is fixed
    for (const change of [
      { dayparts: ['Morning'] },
      { startEpochMs: campaign.startEpochMs + HOUR },
      { deviceIds: ['paris-opera-1'] },
    ]) {
      const res = await api.patch(`/advertisers/campaigns/${id}`, change)
      expect(res.status).toBe(409)
      expect(res.body).toMatchObject({ errors: ['You may not modify this schedule'] })
    }
    // the budget: not below what is committed, raised at any time (more plays once a reviewer
    // approved the campaign: advertiser-ad-time-limits)
    const lower = await api.patch(`/advertisers/campaigns/${id}`, {
      budgetCents: second.totalCents - 1,
    })
    expect(lower.status).toBe(422)
    expect((lower.body as { errors: string[] }).errors[0]).toMatch(/^amount spent to date \+ /)
    const raised = answerOf(
      advertisers.updateCampaign,
      await api.patch(`/advertisers/campaigns/${id}`, {
        budgetCents: 40_000,
      }),
    )
    expect(raised).toMatchObject({
      budgetCents: 40_000,
      scheduledPlays: second.totalPlays,
      committedCents: second.totalCents,
    })
    // the ad is what was booked
    const ad = await uploadAd(api, id, {
      bytes: await pngOf(1400, 400),
      name: 'b.png',
      type: 'image/png',
    })
    expect(ad.status).toBe(409)
  })

  it('refuses a proposal past its time with 410', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const campaign = await campaignWithAd(api, now())
    const p = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${campaign.campaignId}/proposal`, {}),
    )
    const saved = await card()
    offsetMs += p.validUntilEpochMs - now() + 1000
    try {
      const renewed = answerOf(advertisers.refresh, await api.post('/advertisers/session/refresh'))
      api.token = renewed.accessToken
      const late = await api.post(`/advertisers/proposals/${p.proposalGuid}/accept`, {
        customerId: saved.customerId,
        checkoutSecretKey: saved.checkoutSecretKey,
      })
      expect(late.status).toBe(410)
      expect(late.body).toMatchObject({ codes: ['proposal_expired'] })
    } finally {
      offsetMs = 0
    }
  })

  it('pauses only what plays, cancels with its plays to come freed, and reports per day', async () => {
    const { api, email } = await signedInAdvertiser(server, smtp)
    const campaign = await campaignWithAd(api, now())
    const id = campaign.campaignId
    const p = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${id}/proposal`, {}),
    )
    const saved = await card()
    await api.post(`/advertisers/proposals/${p.proposalGuid}/accept`, {
      customerId: saved.customerId,
      checkoutSecretKey: saved.checkoutSecretKey,
    })
    const early = await api.post(`/advertisers/campaigns/${id}/pause`, {})
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({
      errors: ['This cannot be done while the campaign is booked'],
    })
    expect((await api.post(`/advertisers/campaigns/${id}/resume`, {})).status).toBe(409)

    const report = answerOf(
      advertisers.report,
      await api.get(`/advertisers/campaigns/${id}/report?format=json`),
    )
    expect(report.totals.scheduledPlays).toBe(p.totalPlays)
    expect(report.totals.provenPlays).toBe(0)
    expect(new Set(report.rows.map((r) => r.deviceId))).toEqual(
      new Set(['paris-opera-1', 'paris-republique']),
    )
    expect(report.rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.day))).toBe(true)
    const csv = await fetch(`${server.url}/api/v1/advertisers/campaigns/${id}/report?format=csv`, {
      headers: { authorization: `Bearer ${api.token}` },
    })
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    const lines = (await csv.text()).trim().split('\r\n')
    // each billboard named as people name it, its id kept for a spreadsheet that joins on it
    expect(lines[0]).toBe(
      'day,location,city,deviceId,scheduledPlays,provenPlays,impressions,spentCents',
    )
    expect(lines).toHaveLength(report.rows.length + 1)
    expect(lines[1]).toMatch(
      /^\d{4}-\d{2}-\d{2},("Place de l'Opéra, facing Boulevard Haussmann",Paris,paris-opera-1|"Place de la République, north side",Paris,paris-republique),/,
    )
    expect(report.billboards).toEqual([
      {
        deviceId: 'paris-opera-1',
        location: "Place de l'Opéra, facing Boulevard Haussmann",
        city: 'Paris',
        timeZoneId: 'Europe/Paris',
      },
      {
        deviceId: 'paris-republique',
        location: 'Place de la République, north side',
        city: 'Paris',
        timeZoneId: 'Europe/Paris',
      },
    ])

    // the next plays, soonest first, each billboard by its catalogue name and time zone
    const next = answerOf(
      advertisers.nextPlays,
      await api.get(`/advertisers/campaigns/${id}/plays`),
    )
    const plays = next.plays
    expect(plays).toHaveLength(Math.min(20, p.totalPlays))
    const starts = plays.map((play) => play.startEpochMs)
    expect(starts).toEqual([...starts].sort((a, b) => a - b))
    expect(starts.every((start) => start >= now())).toBe(true)
    expect(new Set(plays.map((play) => play.timeZoneId))).toEqual(new Set(['Europe/Paris']))
    for (const play of plays) {
      expect(play.location).toBe(
        play.deviceId === 'paris-opera-1'
          ? "Place de l'Opéra, facing Boulevard Haussmann"
          : 'Place de la République, north side',
      )
    }
    // once the first has begun it is no longer to come
    const first = plays[0]
    if (!first) throw new Error('a play at least')
    offsetMs = first.startEpochMs + 1 - Date.now()
    const earlier = api.token
    try {
      // the access token of hours ago has expired: signed in again at that time
      const again = answerOf(
        advertisers.signIn,
        await api.post('/advertisers/session', {
          email,
          password: STRONG_PASSWORD,
        }),
      )
      api.token = again.accessToken
      const later = answerOf(
        advertisers.nextPlays,
        await api.get(`/advertisers/campaigns/${id}/plays`),
      ).plays
      expect(later.length).toBeGreaterThan(0)
      expect(later.every((play) => play.startEpochMs > first.startEpochMs)).toBe(true)
      expect(later[0]).toEqual(plays.find((play) => play.startEpochMs > first.startEpochMs))
    } finally {
      offsetMs = 0
      api.token = earlier
    }

    const cancelled = answerOf(
      advertisers.cancel,
      await api.post(`/advertisers/campaigns/${id}/cancel`, {}),
    )
    expect(cancelled).toMatchObject({
      state: 'Cancelled',
      scheduledPlays: 0,
      committedCents: 0,
    })
    expect((await api.post(`/advertisers/campaigns/${id}/cancel`, {})).status).toBe(409)
    expect(
      answerOf(advertisers.nextPlays, await api.get(`/advertisers/campaigns/${id}/plays`)).plays,
    ).toEqual([])
  })

  it('answers every advertisers’ call without a token with spec §7’s first message', async () => {
    const anonymous = advertiserClient(server)
    for (const [method, path] of [
      ['GET', '/advertisers/inventory'],
      ['GET', '/advertisers/campaigns'],
      ['POST', '/advertisers/campaigns'],
      ['GET', '/advertisers/campaigns/x'],
      ['PATCH', '/advertisers/campaigns/x'],
      ['POST', '/advertisers/campaigns/x/proposal'],
      ['POST', '/advertisers/proposals/x/accept'],
      ['GET', '/advertisers/content/x'],
      ['POST', '/advertisers/campaigns/x/pause'],
      ['POST', '/advertisers/campaigns/x/resume'],
      ['POST', '/advertisers/campaigns/x/cancel'],
      ['GET', '/advertisers/campaigns/x/report'],
      ['GET', '/advertisers/campaigns/x/plays'],
    ] as const) {
      const res = await anonymous.call(method, path, method === 'GET' ? undefined : {})
      expect(res.status, `${method} ${path}`).toBe(401)
      expect(res.body, path).toMatchObject({ errors: ['Missing authorization context'] })
    }
    // and the ad's upload
    const upload = await uploadAd(anonymous, 'x', {
      bytes: await pngOf(1400, 400),
      name: 'ad.png',
      type: 'image/png',
    })
    expect(upload.status).toBe(401)
    expect(upload.body).toMatchObject({ errors: ['Missing authorization context'] })
  })

  // Last: the catalogue it imports has one billboard more than the tests above expect.
  it('writes a billboard id that a spreadsheet would run as a formula as text in the report CSV', async () => {
    // A catalogue comes from the operator, who may take it from a partner: its ids are any text.
    const formula = '=HYPERLINK("http://evil.example","Open")'
    const demo = demoCatalogue(now())
    const devices = demo.devices ?? []
    const opera = devices.find((d) => d.deviceId === 'paris-opera-1')
    if (!opera) throw new Error('the demo catalogue sells paris-opera-1 to advertisers')
    // new arrays: the demo catalogue's are shared by every import of this process
    const catalogue = {
      ...demo,
      devices: [...devices, { ...opera, deviceId: formula, location: '+cmd|/C calc!A0' }],
      events: (demo.events ?? []).map((e) => {
        const shown = e.devices ?? []
        return shown.some((d) => d.deviceId === 'paris-opera-1')
          ? { ...e, devices: [...shown, { deviceId: formula, unavailable: false }] }
          : e
      }),
    }
    const imported = await server.deps.catalogue.importFile(catalogue)
    expect(imported.success ? [] : imported).toEqual([])

    const { api } = await signedInAdvertiser(server, smtp)
    const campaign = await campaignWithAd(api, now(), { deviceIds: [formula] })
    const id = campaign.campaignId
    const p = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${id}/proposal`, {}),
    )
    expect(p.totalPlays).toBeGreaterThan(0)
    const saved = await card()
    const accepted = await api.post(`/advertisers/proposals/${p.proposalGuid}/accept`, {
      customerId: saved.customerId,
      checkoutSecretKey: saved.checkoutSecretKey,
    })
    expect(accepted.status).toBe(200)
    const csv = await fetch(`${server.url}/api/v1/advertisers/campaigns/${id}/report?format=csv`, {
      headers: { authorization: `Bearer ${api.token}` },
    })
    const lines = (await csv.text()).trim().split('\r\n').slice(1)
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) {
      // each such cell (the place, the id) starts with a quote inside its quotes, so the
      // spreadsheet shows the text
      expect(line).toMatch(
        /^\d{4}-\d{2}-\d{2},"'\+cmd\|\/C calc!A0",Paris,"'=HYPERLINK\(""http:\/\/evil\.example"",""Open""\)",\d+,/,
      )
    }
  })
})
