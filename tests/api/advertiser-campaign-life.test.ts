import type { ParsedMail } from 'mailparser'
import { Temporal } from 'temporal-polyfill'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import { opsCampaigns } from '../../src/contract/ops/campaigns.ts'
import { MISSED_AFTER_MS } from '../../src/domain/ad-playout.ts'
import { chargesOf } from '../../src/server/advertisers/billing/repo.ts'
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

// A campaign's life as its advertiser sees it, on a clock the test moves: booked, approved, on air at
// its first proven play, a receipt for each day charged, and Completed, with the reason on its page
// and in the console, at the end of its flight once its last day is settled, or as soon as its
// budget is spent. Each mail, in the account's language, arrives once whatever the job's runs.

const PARIS = 'Europe/Paris'
const DEVICES = ['paris-opera-1', 'paris-republique'] as const
const HOUR = 3_600_000

describe.each(BACKENDS)('a campaign’s life, mails and completion on %s', (backend) => {
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

  /** A two-day campaign on two billboards, booked and approved; its budget buys `plays` plays. */
  async function approved(options: { locale?: 'en' | 'de'; plays?: number } = {}) {
    offsetMs = 0
    const { api, email } = await signedInAdvertiser(server, smtp, {
      ...(options.locale ? { locale: options.locale } : {}),
    })
    const start = Math.ceil((now() + 24 * HOUR) / HOUR) * HOUR
    const flight = { fromEpochMs: start, toEpochMs: start + 48 * HOUR }
    const draft = await campaignWithAd(api, now(), {
      startEpochMs: flight.fromEpochMs,
      endEpochMs: flight.toEpochMs,
      budgetCents: 20_000,
    })
    const propose = async () =>
      answerOf(
        advertisers.propose,
        await api.post(`/advertisers/campaigns/${draft.campaignId}/proposal`, {}),
      )
    let proposal = await propose()
    if (options.plays) {
      // a budget of that many plays, shared out across both billboards, and a cent less than a play
      const per = proposal.lines.map((l) => l.costCents / l.plays)
      let budgetCents = 0
      for (let i = 0; i < options.plays; i++) budgetCents += per[i % per.length] as number
      budgetCents += Math.min(...per) - 1
      expect(
        (await api.patch(`/advertisers/campaigns/${draft.campaignId}`, { budgetCents })).status,
      ).toBe(200)
      proposal = await propose()
      expect(proposal.totalPlays).toBe(options.plays)
    }
    const saved = await savedCard(client(server.url))
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
    return { api, campaignId: draft.campaignId, flight, email, proposal }
  }

  const adsOf = (campaignId: string, flight: { fromEpochMs: number; toEpochMs: number }) =>
    scheduledAdsOf(shop, tokens, campaignId, flight)

  async function prove(ads: readonly ScheduledAd[]) {
    for (const ad of ads) {
      at(ad.endEpochMs + 60_000)
      expect(await proveAdPlay(shop, ad, tokens.get(ad.deviceId) as string)).toBe(1)
    }
  }

  const localDay = (epochMs: number) =>
    Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(PARIS).toPlainDate()
  const closed = (epochMs: number) =>
    localDay(epochMs).add({ days: 1 }).toZonedDateTime({ timeZone: PARIS }).epochMilliseconds +
    MISSED_AFTER_MS
  // the day's charges, then their receipts (each with its invoice's PDF), as the two jobs run them
  const settle = async () => {
    await server.deps.jobs.runNow('ad-settlement')
    await server.deps.jobs.runNow('campaign-receipts')
  }
  /** The campaign as its page reads it, signed in again (the clock moved past the token's life). */
  async function campaignOf(api: AdvertiserClient, email: string, campaignId: string) {
    const session = answerOf(
      advertisers.signIn,
      await api.post('/advertisers/session', {
        email,
        password: STRONG_PASSWORD,
      }),
    )
    api.token = session.accessToken
    return answerOf(advertisers.campaign, await api.get(`/advertisers/campaigns/${campaignId}`))
  }
  const to = (email: string) => (m: ParsedMail) =>
    (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address === email
  /** Every mail the address received, once the outbox has nothing left to send. */
  async function mailsOf(email: string, last: RegExp): Promise<string[]> {
    await mailTo(smtp, email, last)
    await server.deps.jobs.runNow('mail-sender')
    return smtp.received.filter(to(email)).map((m) => m.subject ?? '')
  }

  it('mails a German advertiser each step once, and completes the campaign after its flight', async () => {
    const { api, campaignId, flight, email } = await approved({ locale: 'de' })
    const ads = await adsOf(campaignId, flight)
    const firstDay = localDay((ads[0] as ScheduledAd).startEpochMs).toString()
    const dayOne = ads.filter((a) => localDay(a.startEpochMs).toString() === firstDay)
    const dayTwo = ads.filter((a) => localDay(a.startEpochMs).toString() !== firstDay)
    expect(dayOne.length).toBeGreaterThan(1)
    expect(dayTwo.length).toBeGreaterThan(0)
    await prove(dayOne.slice(0, 2))
    expect((await campaignOf(api, email, campaignId)).state).toBe('Live')
    const live = await mailTo(smtp, email, /erste Ausspielung/)
    expect(live.subject).toBe('Ihre Kampagne „Spring sale“ läuft')
    expect(live.text).toContain(`${SHOP}/de/campaigns/${campaignId}`)

    // the first day's receipt: each billboard's plays, impressions and cost, then the amount
    at(closed((dayOne[0] as ScheduledAd).startEpochMs))
    await settle()
    await settle()
    const receipt = await mailTo(smtp, email, /Ihre Karte für die nachgewiesenen/)
    const [charge] = await chargesOf(server.deps.database, campaignId)
    expect(charge).toMatchObject({ day: firstDay, plays: 2, status: 'charged' })
    expect(receipt.text).toMatch(/2 Ausspielungen|1 Ausspielungen/)
    expect(receipt.text).toContain('Kontakte')
    expect(receipt.text).toMatch(/Belastet: [\d.,\s]+€/)

    await prove(dayTwo.slice(0, 1))
    // the flight is over, its last day not yet settled: still live
    at(flight.toEpochMs + 60_000)
    await settle()
    expect((await campaignOf(api, email, campaignId)).state).toBe('Live')
    at(closed(flight.toEpochMs - 1))
    await settle()
    await settle()
    const done = await campaignOf(api, email, campaignId)
    expect(done).toMatchObject({ state: 'Completed', completedReason: 'flight_ended' })
    const reviewer = await signedInOperator(server, 'admin', undefined, SHOP)
    const listed = answerOf(opsCampaigns.campaigns, await reviewer.api.get('/ops/campaigns'))
    expect(listed.campaigns.find((c) => c.campaignId === campaignId)).toMatchObject({
      state: 'Completed',
      completedReason: 'flight_ended',
    })

    const completed = await mailTo(smtp, email, /Zeitraum Ihrer Kampagne/)
    expect(completed.text).toContain('Nachgewiesene Ausspielungen: 3')
    const subjects = await mailsOf(email, /Zeitraum Ihrer Kampagne/)
    const once = (s: string) => subjects.filter((x) => x === s).length
    expect(once('Ihre Kampagne „Spring sale“ ist gebucht')).toBe(1)
    expect(once('Ihre Kampagne „Spring sale“ ist freigegeben')).toBe(1)
    expect(once('Ihre Kampagne „Spring sale“ läuft')).toBe(1)
    expect(subjects.filter((s) => s.startsWith('Ihr Beleg für „Spring sale“'))).toHaveLength(2)
    expect(once('Ihre Kampagne „Spring sale“ ist abgeschlossen')).toBe(1)
    offsetMs = 0
  })

  it('completes a campaign as soon as its budget is spent, its proven plays still charged once', async () => {
    const { api, campaignId, flight, email } = await approved({ plays: 3 })
    const ads = await adsOf(campaignId, flight)
    expect(ads).toHaveLength(3)
    await prove(ads)
    // mid-flight, the three plays proven: what is left of the budget pays no other play
    expect(now()).toBeLessThan(flight.toEpochMs)
    await settle()
    const done = await campaignOf(api, email, campaignId)
    expect(done).toMatchObject({ state: 'Completed', completedReason: 'budget_spent' })
    const mail = await mailTo(smtp, email, /budget of your campaign "Spring sale" is spent/)
    expect(mail.subject).toBe('Your campaign "Spring sale" is completed')
    expect(mail.text).toContain('Proven plays: 3')
    // its proven plays are still charged, once each day, never beyond the budget
    at(flight.toEpochMs + 30 * HOUR)
    await settle()
    await settle()
    const charges = await chargesOf(server.deps.database, campaignId)
    expect(charges.every((c) => c.status === 'charged')).toBe(true)
    expect(charges.reduce((n, c) => n + c.plays, 0)).toBe(3)
    expect(charges.reduce((n, c) => n + c.amountCents, 0)).toBeLessThanOrEqual(done.budgetCents)
    const subjects = await mailsOf(email, /budget of your campaign/)
    expect(subjects.filter((s) => s === 'Your campaign "Spring sale" is completed')).toHaveLength(1)
    offsetMs = 0
  })
})
