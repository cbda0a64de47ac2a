import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers, type Campaign } from '../../src/contract/advertisers.ts'
import { opsCampaigns } from '../../src/contract/ops/campaigns.ts'
import { MAX_PLAYS_PER_CAMPAIGN } from '../../src/domain/campaign.ts'
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
  client,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// What one advertiser account may take of the ad time and of the server: a campaign holds at most
// MAX_PLAYS_PER_CAMPAIGN plays whatever its budget raises; until a reviewer approves it, no more
// than the proposal its advertiser accepted (the budget raised meanwhile buys its plays on
// approval); the calls that plan ad time (inventory, proposals, campaign changes) are counted per
// account in the database, AD_PLANNING_PER_MINUTE a minute.

const HOUR = 3_600_000
const DAY = 24 * HOUR
const PLANNING_LIMIT = 12
/** The stand-in's card that saves but is declined when charged. */
const DECLINED_CARD = '4000000000000341'

describe.each(BACKENDS)('what one advertiser may take, on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let offsetMs = 0
  const now = () => Date.now() + offsetMs

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, {
      env: { ...advertiserEnv(smtp), AD_PLANNING_PER_MINUTE: String(PLANNING_LIMIT) },
      now,
    })
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  /** A campaign with its ad, proposed and accepted with a card that declines when charged. */
  async function bookedCampaign(api: AdvertiserClient, more: Parameters<typeof campaignWithAd>[2]) {
    const campaign = await campaignWithAd(api, now(), more)
    const p = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${campaign.campaignId}/proposal`, {}),
    )
    const card = await savedCard(client(server.url), DECLINED_CARD)
    const booked = answerOf(
      advertisers.accept,
      await api.post(`/advertisers/proposals/${p.proposalGuid}/accept`, {
        customerId: card.customerId,
        checkoutSecretKey: card.checkoutSecretKey,
      }),
    )
    expect(booked.state).toBe('Booked')
    return { proposal: p, campaign: booked }
  }

  const patch = (api: AdvertiserClient, id: string, budgetCents: number) =>
    api.patch(`/advertisers/campaigns/${id}`, { budgetCents })

  /** Lowers the budget to what the campaign holds, then raises it far: what the campaign holds. */
  async function lowerThenRaise(api: AdvertiserClient, id: string): Promise<Campaign> {
    const held = answerOf(advertisers.campaign, await api.get(`/advertisers/campaigns/${id}`))
    expect((await patch(api, id, held.spentCents + held.committedCents)).status).toBe(200)
    return answerOf(advertisers.updateCampaign, await patch(api, id, 100_000_000_000))
  }

  it('holds no more than its accepted proposal until approved; the raise buys its plays then', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const { proposal, campaign } = await bookedCampaign(api, { budgetCents: 30_000 })
    const id = campaign.campaignId
    expect(campaign.scheduledPlays).toBe(proposal.totalPlays)
    for (let round = 0; round < 2; round++) {
      const held = await lowerThenRaise(api, id)
      // the budget is the advertiser's to set; the time stays what the proposal priced
      expect(held).toMatchObject({
        state: 'Booked',
        budgetCents: 100_000_000_000,
        scheduledPlays: proposal.totalPlays,
        committedCents: proposal.totalCents,
      })
    }
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    answerOf(
      opsCampaigns.approveCampaign,
      await reviewer.api.post(`/ops/campaigns/${id}/approve`, {}),
    )
    const after = answerOf(advertisers.campaign, await api.get(`/advertisers/campaigns/${id}`))
    expect(after.state).toBe('Approved')
    expect(after.scheduledPlays).toBeGreaterThan(proposal.totalPlays)
    expect(after.scheduledPlays).toBeLessThanOrEqual(MAX_PLAYS_PER_CAMPAIGN)
  })

  it('holds at most the plays a campaign may hold in all, however often its budget is raised', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    // a month on both billboards all day: far more free cells than a campaign may hold
    const start = Math.ceil((now() + DAY) / HOUR) * HOUR
    const { proposal, campaign } = await bookedCampaign(api, {
      startEpochMs: start,
      endEpochMs: start + 30 * DAY,
      dayparts: ['EarlyMorning', 'Morning', 'Afternoon', 'Evening'],
      budgetCents: 100_000_000,
    })
    expect(proposal.totalPlays).toBe(MAX_PLAYS_PER_CAMPAIGN)
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    expect(
      (await reviewer.api.post(`/ops/campaigns/${campaign.campaignId}/approve`, {})).status,
    ).toBe(200)
    for (let round = 0; round < 2; round++) {
      const held = await lowerThenRaise(api, campaign.campaignId)
      expect(held.state).toBe('Approved')
      expect(held.scheduledPlays).toBe(MAX_PLAYS_PER_CAMPAIGN)
      expect(held.committedCents).toBe(proposal.totalCents)
    }
  })

  it('counts an account’s planning calls, inventory, proposals and changes together, per minute', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const other = await signedInAdvertiser(server, smtp)
    // creating the campaign and uploading its ad plan nothing (weeks after the time the campaigns
    // above hold)
    const start = Math.ceil((now() + 45 * DAY) / HOUR) * HOUR
    const campaign = await campaignWithAd(api, now(), {
      startEpochMs: start,
      endEpochMs: start + 7 * DAY,
    })
    const calls = [
      () => api.get('/advertisers/inventory'),
      () => api.post(`/advertisers/campaigns/${campaign.campaignId}/proposal`, {}),
      () => api.patch(`/advertisers/campaigns/${campaign.campaignId}`, { budgetCents: 60_000 }),
    ]
    for (let i = 0; i < PLANNING_LIMIT; i++) {
      const res = await (
        calls[i % calls.length] as () => Promise<{ status: number; body: unknown }>
      )()
      expect(res.status, `call ${i + 1}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
    }
    for (const call of calls) {
      const refused = await call()
      expect(refused.status).toBe(429)
      expect(refused.body).toMatchObject({ codes: ['too_many_requests'] })
      expect((refused.body as { errors: string[] }).errors).toHaveLength(1)
      const retryAfter = Number(refused.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(60)
    }
    // another account is not held back, from the same address
    expect((await other.api.get('/advertisers/inventory')).status).toBe(200)
    // reading what it has is not planning
    expect((await api.get(`/advertisers/campaigns/${campaign.campaignId}`)).status).toBe(200)
    offsetMs += 61_000
    try {
      expect((await api.get('/advertisers/inventory')).status).toBe(200)
    } finally {
      offsetMs = 0
    }
  })
})
