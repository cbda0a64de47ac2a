import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import { advertiserTeam } from '../../src/contract/advertisers-team.ts'
import {
  type AdvertiserClient,
  advertiserClient,
  advertiserEnv,
  draftOf,
  mailTo,
  newEmail,
  STRONG_PASSWORD,
  signedInAdvertiser,
} from './advertiser-helpers.ts'
import { answerOf, BACKENDS, startTestServer, type TestServer } from './helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// A team: an owner invites colleagues by e-mail (a one-time link); an editor works on the team's
// campaigns and budgets, a viewer reads them; every call checks the role on the server; each change
// of a campaign records who made it; the last owner can neither leave nor be removed.

describe.each(BACKENDS)('an advertisers’ team on %s', (backend) => {
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

  /** Invited by the owner with this role, joined through the mail's link, signed in. */
  async function joined(owner: AdvertiserClient, role: 'owner' | 'editor' | 'viewer') {
    const email = newEmail(role)
    answerOf(advertiserTeam.invite, await owner.post('/advertisers/team/invites', { email, role }))
    const mail = await mailTo(smtp, email, /#invite=/)
    const token = /#invite=([\w-]+)/.exec(mail.text ?? '')?.[1] ?? ''
    const api = advertiserClient(server)
    const accepted = await api.post('/advertisers/team/invites/accept', {
      token,
      name: `Sam ${role}`,
      password: STRONG_PASSWORD,
    })
    expect(accepted.status).toBe(200)
    const again = await api.post('/advertisers/team/invites/accept', {
      token,
      name: 'Twice',
      password: STRONG_PASSWORD,
    })
    expect(again.status).toBe(401)
    const signIn = answerOf(
      advertisers.signIn,
      await api.post('/advertisers/session', {
        email,
        password: STRONG_PASSWORD,
      }),
    )
    api.token = signIn.accessToken
    return { api, email, memberId: signIn.account.accountId }
  }

  it('lets an invited editor work on the team’s campaigns and budgets, and records who made each change', async () => {
    const owner = await signedInAdvertiser(server, smtp, { company: 'Café Lumière' })
    const mine = answerOf(
      advertisers.createCampaign,
      await owner.api.post('/advertisers/campaigns', draftOf(Date.now())),
    )
    const editor = await joined(owner.api, 'editor')

    const seen = answerOf(advertisers.campaigns, await editor.api.get('/advertisers/campaigns'))
    expect(seen.campaigns.map((c) => c.campaignId)).toEqual([mine.campaignId])
    answerOf(
      advertisers.createCampaign,
      await editor.api.post('/advertisers/campaigns', draftOf(Date.now(), { name: 'Summer menu' })),
    )
    answerOf(
      advertisers.updateCampaign,
      await editor.api.patch(`/advertisers/campaigns/${mine.campaignId}`, { budgetCents: 80_000 }),
    )
    // the owner sees the editor's campaign as the team's
    const all = answerOf(advertisers.campaigns, await owner.api.get('/advertisers/campaigns'))
    expect(all.campaigns.map((c) => c.name).sort()).toEqual(['Spring sale', 'Summer menu'])

    const changes = answerOf(
      advertiserTeam.campaignChanges,
      await owner.api.get(`/advertisers/campaigns/${mine.campaignId}/changes`),
    )
    expect(changes.changes).toEqual([
      expect.objectContaining({ memberEmail: owner.email, change: 'advertiserCreateCampaign' }),
      expect.objectContaining({ memberEmail: editor.email, change: 'advertiserUpdateCampaign' }),
    ])
    const team = answerOf(advertiserTeam.team, await owner.api.get('/advertisers/team'))
    expect(team.members.map((m) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [editor.email, 'editor'],
    ])

    // an editor manages neither billing, members nor cards
    const billing = await editor.api.call<{ codes: string[] }>(
      'PUT',
      '/advertisers/account/billing',
      {
        legalName: 'X',
        address: 'Y',
        country: 'FR',
        vatNumber: null,
      },
    )
    expect(billing.status).toBe(403)
    expect(billing.body.codes).toEqual(['member_role_forbidden'])
    const invite = await editor.api.post('/advertisers/team/invites', {
      email: newEmail(),
      role: 'viewer',
    })
    expect(invite.status).toBe(403)
    const accept = await editor.api.post('/advertisers/proposals/no-such-proposal/accept', {
      customerId: 'cus_x',
      checkoutSecretKey: 'x',
    })
    expect(accept.status).toBe(403)
    const replaceCard = await editor.api.post(`/advertisers/campaigns/${mine.campaignId}/card`, {
      customerId: 'cus_x',
      checkoutSecretKey: 'x',
    })
    expect(replaceCard.status).toBe(403)
  })

  it('lets a viewer read campaigns, reports and invoices, and refuses every change', async () => {
    const owner = await signedInAdvertiser(server, smtp)
    const campaign = answerOf(
      advertisers.createCampaign,
      await owner.api.post('/advertisers/campaigns', draftOf(Date.now())),
    )
    const viewer = await joined(owner.api, 'viewer')
    const id = campaign.campaignId

    expect((await viewer.api.get(`/advertisers/campaigns/${id}`)).status).toBe(200)
    expect((await viewer.api.get(`/advertisers/campaigns/${id}/report`)).status).toBe(200)
    expect((await viewer.api.get('/advertisers/invoices')).status).toBe(200)
    const refusals = [
      await viewer.api.patch(`/advertisers/campaigns/${id}`, { budgetCents: 90_000 }),
      await viewer.api.post('/advertisers/campaigns', draftOf(Date.now())),
      await viewer.api.post(`/advertisers/campaigns/${id}/cancel`, {}),
      await viewer.api.post(`/advertisers/campaigns/${id}/proposal`, {}),
      await viewer.api.call('PUT', '/advertisers/account/billing', {}),
      await viewer.api.post('/advertisers/team/invites', { email: newEmail(), role: 'owner' }),
    ]
    expect(refusals.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403])
    expect(refusals.map((r) => (r.body as { codes: string[] }).codes[0])).toEqual(
      Array(6).fill('member_role_forbidden'),
    )
    const unchanged = answerOf(
      advertisers.campaign,
      await owner.api.get(`/advertisers/campaigns/${id}`),
    )
    expect(unchanged.budgetCents).toBe(50_000)
  })

  it('never lets the last owner leave or be removed, nor the founding account', async () => {
    const founder = await signedInAdvertiser(server, smtp)
    const left = await founder.api.post<{ codes: string[] }>('/advertisers/team/leave', {})
    expect(left.status).toBe(409)
    const team = answerOf(advertiserTeam.team, await founder.api.get('/advertisers/team'))
    const demoted = await founder.api.patch<{ codes: string[] }>(
      `/advertisers/team/members/${team.you.memberId}`,
      { role: 'editor' },
    )
    expect(demoted.status).toBe(409)
    expect(demoted.body.codes).toEqual(['team_last_owner'])

    const second = await joined(founder.api, 'owner')
    // two owners: the founder may step down to editor, and the second owner is then the last one
    answerOf(
      advertiserTeam.setRole,
      await founder.api.patch(`/advertisers/team/members/${team.you.memberId}`, { role: 'editor' }),
    )
    const lastLeaves = await second.api.post<{ codes: string[] }>('/advertisers/team/leave', {})
    expect(lastLeaves.status).toBe(409)
    expect(lastLeaves.body.codes).toEqual(['team_last_owner'])
    const removed = await second.api.delete<{ codes: string[] }>(
      `/advertisers/team/members/${team.you.memberId}`,
    )
    expect(removed.body.codes).toEqual(['team_founder_stays'])
    // the founder, now an editor, may no longer manage members
    const back = await founder.api.patch(`/advertisers/team/members/${second.memberId}`, {
      role: 'viewer',
    })
    expect(back.status).toBe(403)
    // an editor who joined may leave: its login is gone
    const editor = await joined(second.api, 'editor')
    expect((await editor.api.post('/advertisers/team/leave', {})).status).toBe(200)
    expect((await editor.api.get('/advertisers/campaigns')).status).toBe(401)
  })

  it('refuses an invitation for an e-mail that already has an account', async () => {
    const owner = await signedInAdvertiser(server, smtp)
    const other = await signedInAdvertiser(server, smtp)
    await owner.api.post('/advertisers/team/invites', { email: other.email, role: 'editor' })
    const mail = await mailTo(smtp, other.email, /#invite=/)
    const token = /#invite=([\w-]+)/.exec(mail.text ?? '')?.[1] ?? ''
    const accepted = await advertiserClient(server).post<{ codes: string[] }>(
      '/advertisers/team/invites/accept',
      { token, name: 'Again', password: STRONG_PASSWORD },
    )
    expect(accepted.status).toBe(409)
    expect(accepted.body.codes).toEqual(['team_email_taken'])
  })
})
