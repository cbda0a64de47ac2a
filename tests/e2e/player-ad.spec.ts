import { expect, type Page, test } from '@playwright/test'
import type { Campaign, Proposal } from '../../src/contract/advertisers'
import type { Schedule, ScheduleItem } from '../../src/contract/player'
import { formatMoney } from '../../src/domain/money'
import {
  advertiserClient,
  campaignWithAd,
  linkToken,
  mailTo,
  newEmail,
  STRONG_PASSWORD,
} from '../api/advertiser-helpers'
import { client, savedCard, startTestServer, type TestServer } from '../api/helpers'
import { signedInOperator } from '../api/ops-helpers'
import { type SmtpTestServer, startSmtpTestServer } from '../api/smtp-test-server'
import { expectPictureShown } from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

// An advertiser's approved campaign on a billboard that runs our player: opened with the billboard's
// link, the player shows the ad at its time, and again with the network down after a reload (from
// the worker's cache); back online its proofs arrive, and once the billboard's day is charged the
// advertiser's campaign page shows the plays proven and what they cost. The page's and the server's
// clocks are moved together (as in player.spec.ts): no waiting for real time.

const DEVICE = 'paris-opera-1'
const HOUR = 3_600_000
let smtp: SmtpTestServer
let server: TestServer
/** The server's clock, ahead of the real one by this much. */
let serverAheadMs = 0

test.beforeAll(async () => {
  smtp = await startSmtpTestServer()
  server = await startTestServer('pglite', {
    serveApp: true,
    now: () => Date.now() + serverAheadMs,
    env: { SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '0.05' },
  })
})
test.afterAll(async () => {
  await server?.stop()
  await smtp?.close()
})

async function playerClock(page: Page, serverTime: number) {
  serverAheadMs = serverTime - Date.now()
  await page.clock.install({ time: serverTime })
  return {
    now: () => Date.now() + serverAheadMs,
    forward: async (ms: number) => {
      serverAheadMs += ms
      await page.clock.fastForward(ms)
    },
  }
}

/** An advertiser's campaign on the billboard with an image ad, booked with the test card, approved. */
async function approvedCampaign() {
  const email = newEmail('e2e-air')
  const api = advertiserClient(server, server.url)
  const account = { email, password: STRONG_PASSWORD, name: 'Ana Martin', company: 'Brand & Co' }
  expect((await api.post('/advertisers/accounts', { ...account, locale: 'en' })).status).toBe(202)
  const token = linkToken(await mailTo(smtp, email, /#verify=/), 'verify')
  expect((await api.post('/advertisers/accounts/verify', { token })).status).toBe(200)
  const session = await api.post<{ accessToken: string }>('/advertisers/session', {
    email,
    password: STRONG_PASSWORD,
  })
  api.token = session.body.accessToken
  const start = Math.ceil((Date.now() + 24 * HOUR) / HOUR) * HOUR
  const draft = await campaignWithAd(api, Date.now(), {
    startEpochMs: start,
    endEpochMs: start + 24 * HOUR,
    deviceIds: [DEVICE],
    dayparts: ['EarlyMorning', 'Morning', 'Afternoon', 'Evening'],
    budgetCents: 5_000,
  })
  const proposal = await api.post<Proposal>(
    `/advertisers/campaigns/${draft.campaignId}/proposal`,
    {},
  )
  expect(proposal.status).toBe(201)
  const saved = await savedCard(client(server.url))
  const booked = await api.post<Campaign>(
    `/advertisers/proposals/${proposal.body.proposalGuid}/accept`,
    { customerId: saved.customerId, checkoutSecretKey: saved.checkoutSecretKey },
  )
  expect(booked.body.state).toBe('Booked')
  const reviewer = await signedInOperator(server, 'reviewer')
  expect((await reviewer.api.post(`/ops/campaigns/${draft.campaignId}/approve`, {})).status).toBe(
    200,
  )
  const line = proposal.body.lines.find((l) => l.deviceId === DEVICE)
  return {
    email,
    campaignId: draft.campaignId,
    flight: { fromEpochMs: start, toEpochMs: start + 24 * HOUR },
    costCentsPerPlay: line ? line.costCents / line.plays : 0,
  }
}

test('the player shows an approved campaign’s ad at its time, offline too, and its page then shows the plays proven and their cost', async ({
  browser,
}) => {
  const { email, campaignId, flight, costCentsPerPlay } = await approvedCampaign()
  const linked = await server.deps.player.link(DEVICE)
  if (!linked.ok) throw new Error('no player link')
  const schedule = await client(server.url).get<Schedule>(
    `/player/${DEVICE}/schedule?fromEpochMs=${flight.fromEpochMs}&toEpochMs=${flight.toEpochMs}`,
    { authorization: `Bearer ${linked.value.token}` },
  )
  const ads = schedule.body.items.filter((i) => i.campaignId === campaignId)
  // two plays a few hours apart, the second later than the kept schedule's first window
  const [first, second] = [
    ads[0],
    ads.find((a) => a.startEpochMs >= (ads[0]?.startEpochMs ?? 0) + 3 * HOUR),
  ] as [ScheduleItem, ScheduleItem]
  expect(first).toBeDefined()
  expect(second).toBeDefined()

  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } })
  const page = await context.newPage()
  const clock = await playerClock(page, first.startEpochMs - 20_000)
  await page.goto(`${server.url}/play/${DEVICE}?token=${linked.value.token}`)
  await expect(page.getByTestId('house-card')).toBeVisible()
  await waitForServiceWorker(page)

  // at its time, the ad plays as an <img> of its rendition at the billboard's size
  const shown = page.locator('[data-testid="player"] > img')
  await clock.forward(22_000)
  await expectPictureShown(shown)
  await expect(shown).toHaveAttribute('src', first.content.url)
  await clock.forward(20_000)
  await expect(page.getByTestId('house-card')).toBeVisible()

  // offline, hours later, reloaded: the second play still shows, from the kept schedule and files
  await context.setOffline(true)
  await clock.forward(second.startEpochMs + 2_000 - clock.now())
  await page.reload()
  await expectPictureShown(shown)
  await expect(shown).toHaveAttribute('src', second.content.url)
  await clock.forward(20_000)
  await expect(page.getByTestId('player-status')).toContainText(/à envoyer|to send/)

  // back online: both proofs arrive; once the billboard's day is over, it is charged
  await context.setOffline(false)
  const advertiser = advertiserClient(server, server.url)
  const signIn = async () => {
    const s = await advertiser.post<{ accessToken: string }>('/advertisers/session', {
      email,
      password: STRONG_PASSWORD,
    })
    advertiser.token = s.body.accessToken
  }
  const campaign = async () => {
    await signIn()
    return (await advertiser.get<Campaign>(`/advertisers/campaigns/${campaignId}`)).body
  }
  await expect.poll(async () => (await campaign()).provenPlays, { timeout: 30_000 }).toBe(2)
  await context.close()
  serverAheadMs = flight.toEpochMs + 30 * HOUR - Date.now()
  await server.deps.jobs.runNow('ad-settlement')
  const spentCents = 2 * costCentsPerPlay
  expect((await campaign()).spentCents).toBe(spentCents)

  // the advertiser's page: the two plays shown, and what they cost
  const own = await browser.newContext()
  const mine = await own.newPage()
  await mine.clock.install({ time: Date.now() + serverAheadMs })
  await mine.goto(`${server.url}/account`)
  await mine.getByLabel('E-mail address').fill(email)
  await mine.getByLabel('Password').fill(STRONG_PASSWORD)
  await mine.getByRole('button', { name: 'Sign in' }).click()
  await expect(mine.getByText(`Signed in as Ana Martin (${email})`)).toBeVisible()
  await mine.goto(`${server.url}/campaigns/${campaignId}`)
  const facts = (name: string) =>
    mine.locator('dt', { hasText: name }).locator('xpath=following-sibling::dd[1]')
  await expect(facts('Plays shown')).toHaveText('2')
  await expect(facts('Spent')).toHaveText(
    formatMoney(spentCents, { currency: 'EUR', locale: 'en' }),
  )
  await own.close()
})
