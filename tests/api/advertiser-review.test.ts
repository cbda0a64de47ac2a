import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Campaign, Proposal } from '../../src/contract/advertisers.ts'
import type { OpsCampaign } from '../../src/contract/ops/campaigns.ts'
import {
  type AdvertiserClient,
  advertiserEnv,
  campaignWithAd,
  mailTo,
  SHOP,
  signedInAdvertiser,
} from './advertiser-helpers.ts'
import { BACKENDS, client, savedCard, startTestServer, type TestServer } from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// Campaigns in the console: a booked campaign waits in the review queue with its ad at each size;
// a reviewer approves it (Approved) or refuses it with a reason (Rejected: its plays freed, nothing
// charged, a mail in the advertiser's language); admins see every campaign and may cancel one.

async function booked(server: TestServer, smtp: SmtpTestServer, locale: 'en' | 'fr' | 'de' = 'en') {
  const { api, email } = await signedInAdvertiser(server, smtp, { locale })
  const campaign = await campaignWithAd(api, Date.now())
  const p = await api.post<Proposal>(`/advertisers/campaigns/${campaign.campaignId}/proposal`, {})
  const saved = await savedCard(client(server.url))
  const res = await api.post<Campaign>(`/advertisers/proposals/${p.body.proposalGuid}/accept`, {
    customerId: saved.customerId,
    checkoutSecretKey: saved.checkoutSecretKey,
  })
  if (res.status !== 200) throw new Error(`accept: ${res.status} ${JSON.stringify(res.body)}`)
  return { api, email, campaign: res.body }
}

describe.each(BACKENDS)('campaigns in the console on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, { env: advertiserEnv(smtp) })
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  const state = async (api: AdvertiserClient, id: string) =>
    (await api.get<Campaign>(`/advertisers/campaigns/${id}`)).body

  it('puts a booked campaign in the review queue; approved, it may be paused and resumed', async () => {
    const { api, campaign } = await booked(server, smtp)
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    const queue = await reviewer.api.get<{ campaigns: OpsCampaign[] }>('/ops/review/campaigns')
    expect(queue.status).toBe(200)
    const waiting = queue.body.campaigns.find((c) => c.campaignId === campaign.campaignId)
    expect(waiting).toMatchObject({ state: 'Booked', company: 'Brand & Co' })
    // each billboard by its name in the catalogue, as the proposal names it
    expect(waiting?.billboards).toEqual([
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
    expect(waiting?.ad?.renditions[0]).toMatchObject({
      widthPx: 1400,
      heightPx: 400,
      flagged: false,
    })

    const approved = await reviewer.api.post<OpsCampaign>(
      `/ops/campaigns/${campaign.campaignId}/approve`,
      {},
    )
    expect(approved.status).toBe(200)
    expect(approved.body.state).toBe('Approved')
    expect(approved.body.history.map((h) => h.state)).toEqual([
      'Draft',
      'Proposed',
      'Booked',
      'Approved',
    ])
    expect((await state(api, campaign.campaignId)).state).toBe('Approved')
    const again = await reviewer.api.post(`/ops/campaigns/${campaign.campaignId}/approve`, {})
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ errors: ['This campaign is not awaiting review'] })

    const paused = await api.post<Campaign>(
      `/advertisers/campaigns/${campaign.campaignId}/pause`,
      {},
    )
    expect(paused.body.state).toBe('Paused')
    const resumed = await api.post<Campaign>(
      `/advertisers/campaigns/${campaign.campaignId}/resume`,
      {},
    )
    expect(resumed.body.state).toBe('Approved')
    expect(resumed.body.scheduledPlays).toBe(campaign.scheduledPlays)
  })

  it('rejects with a reason: plays freed, nothing charged, a mail in the advertiser’s language', async () => {
    const { api, email, campaign } = await booked(server, smtp, 'fr')
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    const rejected = await reviewer.api.post<OpsCampaign>(
      `/ops/campaigns/${campaign.campaignId}/reject`,
      { reason: 'Le logo est illisible' },
    )
    expect(rejected.status).toBe(200)
    expect(rejected.body).toMatchObject({
      state: 'Rejected',
      rejectionReason: 'Le logo est illisible',
    })
    const seen = await state(api, campaign.campaignId)
    expect(seen).toMatchObject({
      state: 'Rejected',
      rejectionReason: 'Le logo est illisible',
      scheduledPlays: 0,
      committedCents: 0,
      spentCents: 0,
    })
    const mail = await mailTo(smtp, email, /Le logo est illisible/)
    expect(mail.subject).toBe(
      'Votre campagne « Spring sale » n’a pas été approuvée'.replace('’', "'"),
    )
    expect(mail.text).toContain("Rien n'a été débité")
    const twice = await reviewer.api.post(`/ops/campaigns/${campaign.campaignId}/reject`, {
      reason: 'again',
    })
    expect(twice.status).toBe(409)
  })

  it('lists every campaign to admins only, who may cancel one', async () => {
    const { api, campaign } = await booked(server, smtp)
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    expect((await reviewer.api.get('/ops/campaigns')).status).toBe(403)
    expect(
      (await reviewer.api.post(`/ops/campaigns/${campaign.campaignId}/cancel`, { reason: 'x' }))
        .status,
    ).toBe(403)
    const admin = await signedInOperator(server, 'admin', undefined, SHOP)
    const all = await admin.api.get<{ campaigns: OpsCampaign[] }>('/ops/campaigns')
    expect(all.body.campaigns.map((c) => c.campaignId)).toContain(campaign.campaignId)
    const cancelled = await admin.api.post<OpsCampaign>(
      `/ops/campaigns/${campaign.campaignId}/cancel`,
      {
        reason: 'Requested by the advertiser on the phone',
      },
    )
    expect(cancelled.body.state).toBe('Cancelled')
    expect((await state(api, campaign.campaignId)).scheduledPlays).toBe(0)
    expect((await client(server.url).get('/ops/review/campaigns')).status).toBe(401)
  })
})

describe.each(BACKENDS)('a flagged ad in the console on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    // the nudity model's thresholds at 0, as an operator may set them: every photo is flagged
    server = await startTestServer(backend, {
      env: {
        ...advertiserEnv(smtp),
        MODERATION_NSFW_THRESHOLD: '0',
        MODERATION_SEXY_THRESHOLD: '0',
      },
    })
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  it('shows the reviewer that the ad was flagged, and why, at each size', async () => {
    const { campaign } = await booked(server, smtp)
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    const queue = await reviewer.api.get<{ campaigns: OpsCampaign[] }>('/ops/review/campaigns')
    const waiting = queue.body.campaigns.find((c) => c.campaignId === campaign.campaignId)
    const renditions = waiting?.ad?.renditions ?? []
    expect(renditions.map((r) => `${r.widthPx}x${r.heightPx}`)).toEqual(['1400x400'])
    for (const rendition of renditions) {
      expect(rendition.flagged).toBe(true)
      expect(rendition.flagReasons.some((reason) => reason.startsWith('photo: '))).toBe(true)
    }
  })
})
