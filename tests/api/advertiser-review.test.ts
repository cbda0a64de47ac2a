import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import { opsCampaigns } from '../../src/contract/ops/campaigns.ts'
import {
  type AdvertiserClient,
  advertiserEnv,
  campaignWithAd,
  mailTo,
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

// Campaigns in the console: a booked campaign waits in the review queue with its ad at each size;
// a reviewer approves it (Approved) or refuses it with a reason (Rejected: its plays freed, nothing
// charged, a mail in the advertiser's language); admins see every campaign and may cancel one.

async function booked(server: TestServer, smtp: SmtpTestServer, locale: 'en' | 'fr' | 'de' = 'en') {
  const { api, email } = await signedInAdvertiser(server, smtp, { locale })
  const campaign = await campaignWithAd(api, Date.now())
  const p = answerOf(
    advertisers.propose,
    await api.post(`/advertisers/campaigns/${campaign.campaignId}/proposal`, {}),
  )
  const saved = await savedCard(client(server.url))
  const res = answerOf(
    advertisers.accept,
    await api.post(`/advertisers/proposals/${p.proposalGuid}/accept`, {
      customerId: saved.customerId,
      checkoutSecretKey: saved.checkoutSecretKey,
    }),
  )
  return { api, email, campaign: res }
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
    answerOf(advertisers.campaign, await api.get(`/advertisers/campaigns/${id}`))

  it('puts a booked campaign in the review queue; approved, it may be paused and resumed', async () => {
    const { api, campaign } = await booked(server, smtp)
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    const queue = answerOf(
      opsCampaigns.reviewCampaigns,
      await reviewer.api.get('/ops/review/campaigns'),
    )
    const waiting = queue.campaigns.find((c) => c.campaignId === campaign.campaignId)
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

    const approved = answerOf(
      opsCampaigns.approveCampaign,
      await reviewer.api.post(`/ops/campaigns/${campaign.campaignId}/approve`, {}),
    )
    expect(approved.state).toBe('Approved')
    expect(approved.history.map((h) => h.state)).toEqual([
      'Draft',
      'Proposed',
      'Booked',
      'Approved',
    ])
    expect((await state(api, campaign.campaignId)).state).toBe('Approved')
    const again = await reviewer.api.post(`/ops/campaigns/${campaign.campaignId}/approve`, {})
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ errors: ['This campaign is not awaiting review'] })

    const paused = answerOf(
      advertisers.pause,
      await api.post(`/advertisers/campaigns/${campaign.campaignId}/pause`, {}),
    )
    expect(paused.state).toBe('Paused')
    const resumed = answerOf(
      advertisers.resume,
      await api.post(`/advertisers/campaigns/${campaign.campaignId}/resume`, {}),
    )
    expect(resumed.state).toBe('Approved')
    expect(resumed.scheduledPlays).toBe(campaign.scheduledPlays)
  })

  it('rejects with a reason: plays freed, nothing charged, a mail in the advertiser’s language', async () => {
    const { api, email, campaign } = await booked(server, smtp, 'fr')
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    const rejected = answerOf(
      opsCampaigns.rejectCampaign,
      await reviewer.api.post(`/ops/campaigns/${campaign.campaignId}/reject`, {
        reason: 'Le logo est illisible',
      }),
    )
    expect(rejected).toMatchObject({
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
    const all = answerOf(opsCampaigns.campaigns, await admin.api.get('/ops/campaigns'))
    expect(all.campaigns.map((c) => c.campaignId)).toContain(campaign.campaignId)
    const cancelled = answerOf(
      opsCampaigns.cancelCampaign,
      await admin.api.post(`/ops/campaigns/${campaign.campaignId}/cancel`, {
        reason: 'Requested by the advertiser on the phone',
      }),
    )
    expect(cancelled.state).toBe('Cancelled')
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
    const queue = answerOf(
      opsCampaigns.reviewCampaigns,
      await reviewer.api.get('/ops/review/campaigns'),
    )
    const waiting = queue.campaigns.find((c) => c.campaignId === campaign.campaignId)
    const renditions = waiting?.ad?.renditions ?? []
    expect(renditions.map((r) => `${r.widthPx}x${r.heightPx}`)).toEqual(['1400x400'])
    for (const rendition of renditions) {
      expect(rendition.flagged).toBe(true)
      expect(rendition.flagReasons.some((reason) => reason.startsWith('photo: '))).toBe(true)
    }
  })
})
