import { readFileSync } from 'node:fs'
import { type Browser, expect, type Page, test } from '@playwright/test'
import type { Campaign, Proposal } from '../../src/contract/advertisers'
import { dailyChargeKey } from '../../src/domain/ad-settlement'
import { sql } from '../../src/server/platform/db/sql'
import {
  type AdvertiserClient,
  advertiserClient,
  campaignWithAd,
  linkToken,
  mailTo,
  newEmail,
  STRONG_PASSWORD,
} from '../api/advertiser-helpers'
import { client, savedCard, startTestServer, type TestServer } from '../api/helpers'
import { signedInOperator } from '../api/ops-helpers'
import { pdfText } from '../api/pdf-text'
import { type SmtpTestServer, startSmtpTestServer } from '../api/smtp-test-server'
import { expectAccessible } from './helpers'

// An advertiser's money and team at a desk: the billing details given on the account page, a card
// declined for a day replaced on the campaign page (the day then charged once on it), the day's
// invoice downloaded as a PDF and read back (its number, the seller, the buyer's VAT number and the
// totals), a colleague invited as an editor who joins through the mail's link and changes a budget,
// and a viewer refused the same change. The server runs in this process with the demo seller.

let smtp: SmtpTestServer
let server: TestServer
const DESK = { viewport: { width: 1366, height: 900 } }

test.beforeAll(async () => {
  smtp = await startSmtpTestServer()
  server = await startTestServer('pglite', {
    serveApp: true,
    env: { SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '0.05' },
  })
})
test.afterAll(async () => {
  await server?.stop()
  await smtp?.close()
})

/** A verified advertiser signed in through the API, as the shop's own page would. */
async function apiAdvertiser(locale: 'en' | 'fr' = 'en') {
  const email = newEmail('e2e-billing')
  const api = advertiserClient(server, server.url)
  const body = {
    email,
    password: STRONG_PASSWORD,
    name: 'Ana Martin',
    company: 'Brand & Co',
    locale,
  }
  expect((await api.post('/advertisers/accounts', body)).status).toBe(202)
  const token = linkToken(await mailTo(smtp, email, /#verify=/), 'verify')
  expect((await api.post('/advertisers/accounts/verify', { token })).status).toBe(200)
  const signedIn = await api.post<{ accessToken: string }>('/advertisers/session', {
    email,
    password: STRONG_PASSWORD,
  })
  api.token = signedIn.body.accessToken
  return { email, api }
}

/** A campaign accepted with the local provider's `cardNumber`, approved by a reviewer. */
async function approvedCampaign(api: AdvertiserClient, name: string, cardNumber?: string) {
  const campaign = await campaignWithAd(api, Date.now(), { name, deviceIds: ['paris-opera-1'] })
  const proposal = await api.post<Proposal>(
    `/advertisers/campaigns/${campaign.campaignId}/proposal`,
    {},
  )
  const card = await savedCard(client(server.url), cardNumber)
  const accepted = await api.post<Campaign>(
    `/advertisers/proposals/${proposal.body.proposalGuid}/accept`,
    { customerId: card.customerId, checkoutSecretKey: card.checkoutSecretKey },
  )
  expect(accepted.status).toBe(200)
  const reviewer = await signedInOperator(server, 'reviewer')
  await reviewer.api.post(`/ops/campaigns/${campaign.campaignId}/approve`, {})
  return campaign
}

/** Three of the campaign's plays proven on a day now over, as the settlement's first step leaves them. */
async function dueDay(campaignId: string, day: string) {
  const db = server.deps.database
  const [row] = await db.query(sql<{ cents: number }>`
    with picked as (
      select device_id, start_epoch_ms from ad_plays where campaign_id = ${campaignId}
        and charge_day is null order by start_epoch_ms limit 3
    ), proven as (
      update ad_plays p set proven_at_epoch_ms = p.start_epoch_ms, charge_day = ${day}
      from picked where p.device_id = picked.device_id and p.start_epoch_ms = picked.start_epoch_ms
      returning p.cost_cents
    )
    select coalesce(sum(cost_cents), 0)::float8 as cents from proven`)
  await db.query(sql`
    insert into ad_charges (campaign_id, day, idempotency_key, plays, amount_cents, currency,
      status, created_at)
    values (${campaignId}, ${day}, ${dailyChargeKey(campaignId, day)}, 3, ${Number(row?.cents)},
      'EUR', 'pending', now())`)
  return Number(row?.cents)
}

async function signIn(page: Page, email: string, prefix = '') {
  await page.goto(`${server.url}${prefix}/account`)
  await page.getByLabel(prefix === '/fr' ? 'Adresse e-mail' : 'E-mail address').fill(email)
  await page.getByLabel(prefix === '/fr' ? 'Mot de passe' : 'Password').fill(STRONG_PASSWORD)
  await page
    .getByRole('button', { name: prefix === '/fr' ? 'Se connecter' : 'Sign in', exact: true })
    .click()
  // signed in, an advertiser lands on their campaigns; billing and the team are on the account page
  await expect(
    page.getByRole('heading', { name: prefix === '/fr' ? 'Vos campagnes' : 'Your campaigns' }),
  ).toBeVisible()
  await page.goto(`${server.url}${prefix}/account`)
  await expect(
    page.getByRole('heading', { name: prefix === '/fr' ? 'Votre compte' : 'Your account' }),
  ).toBeVisible()
}

async function desk(browser: Browser, locale = 'en-US') {
  const context = await browser.newContext({ ...DESK, locale, timezoneId: 'Europe/Paris' })
  return { context, page: await context.newPage() }
}

test('desk: billing details, a declined card replaced, the day charged once on it, its invoice downloaded as a PDF and read', async ({
  browser,
}) => {
  const { email, api } = await apiAdvertiser()
  const campaign = await approvedCampaign(api, 'Bakery spring', '4000000000000341')
  const cents = await dueDay(campaign.campaignId, '2030-07-01')
  await server.deps.jobs.runNow('ad-settlement')

  const { context, page } = await desk(browser)
  await signIn(page, email)
  // the billing details: a German business (reverse charge from the French demo seller)
  const billing = page.getByRole('region', { name: 'Billing details' })
  await billing.getByLabel('Legal name').fill('Bäckerei Müller GmbH')
  await billing.getByLabel('Address').fill('Hauptstraße 5\n10115 Berlin')
  await billing.getByLabel('Country').selectOption('DE')
  await billing.getByLabel('VAT number').fill('FR40303265045')
  await billing.getByRole('button', { name: 'Save the billing details' }).click()
  await expect(billing.getByText('This is not a VAT number of DE')).toBeVisible()
  await billing.getByLabel('VAT number').fill('DE 136 695 976')
  await billing.getByRole('button', { name: 'Save the billing details' }).click()
  await expect(billing.getByText('Saved: your next invoices name these details.')).toBeVisible()
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('account-billing-en.png'), fullPage: true })

  // the campaign paused for the declined day; its card replaced with the test card
  await page.goto(`${server.url}/campaigns/${campaign.campaignId}`)
  await expect(page.getByTestId('campaign-state')).toHaveText('Paused')
  await expect(page.getByTestId('campaign-paused-reason')).toContainText('Replace the card')
  const cardCard = page.getByRole('region', { name: 'Card' })
  await cardCard.getByRole('button', { name: 'Replace the card' }).click()
  await cardCard.getByLabel('Card number').fill('4242 4242 4242 4242')
  await cardCard.getByLabel('Expiry (MM/YY)').fill('12/34')
  await cardCard.getByLabel('CVC').fill('123')
  await cardCard.getByRole('button', { name: 'Save the new card' }).click()
  await expect(cardCard.getByText('The new card is saved.')).toBeVisible()
  await page.screenshot({ path: test.info().outputPath('campaign-card-en.png'), fullPage: true })

  // the next settlement charges the declined day once on the new card, and invoices it
  await server.deps.jobs.runNow('ad-settlement')
  await server.deps.jobs.runNow('ad-settlement')
  await page.reload()
  const invoices = page.getByRole('region', { name: 'Invoices' })
  await expect(invoices.getByRole('row')).toHaveCount(2)
  const label = (
    (await invoices.getByRole('row').nth(1).getByRole('cell').first().textContent()) ?? ''
  )
    .replace('Invoice ', '')
    .trim()
  expect(label).toMatch(/^DEMO-\d{6}$/)
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    invoices.getByRole('button', { name: `Download ${label} (PDF)` }).click(),
  ])
  expect(download.suggestedFilename()).toBe(`${label}.pdf`)
  const text = await pdfText(new Uint8Array(readFileSync((await download.path()) as string)))
  expect(text).toContain(label)
  expect(text).toContain('Shouts Demo SAS')
  expect(text).toContain('DE136695976')
  expect(text).toContain('Bäckerei Müller GmbH')
  expect(text).toContain('Reverse charge')
  const euros = `€ ${(cents / 100).toFixed(2)}`
  expect(text).toContain(euros)
  await page.screenshot({
    path: test.info().outputPath('campaign-invoices-en.png'),
    fullPage: true,
  })

  // the paused campaign resumes
  await page.getByRole('button', { name: 'Resume' }).click()
  await expect(page.getByTestId('campaign-state')).toHaveText('Approved')
  await context.close()

  // the same pages in French
  const fr = await desk(browser, 'fr-FR')
  await signIn(fr.page, email, '/fr')
  await expect(fr.page.getByRole('heading', { name: 'Coordonnées de facturation' })).toBeVisible()
  await fr.page.screenshot({ path: test.info().outputPath('account-fr.png'), fullPage: true })
  await fr.page.goto(`${server.url}/fr/campaigns/${campaign.campaignId}`)
  await expect(fr.page.getByRole('heading', { name: 'Factures' })).toBeVisible()
  await fr.page.screenshot({ path: test.info().outputPath('campaign-fr.png'), fullPage: true })
  await fr.context.close()
})

test('desk: an editor invited by e-mail joins and changes a budget; a viewer is refused the same change', async ({
  browser,
}) => {
  const owner = await apiAdvertiser()
  const campaign = await approvedCampaign(owner.api, 'Team campaign')

  const { context, page } = await desk(browser)
  await signIn(page, owner.email)
  const team = page.getByRole('region', { name: 'Your team' })
  const editorEmail = newEmail('e2e-editor')
  await team.getByLabel("Colleague's e-mail").fill(editorEmail)
  await team.getByLabel('Role', { exact: true }).selectOption('editor')
  await team.getByRole('button', { name: 'Invite' }).click()
  await expect(team.getByText(`We sent ${editorEmail} a link`)).toBeVisible()
  await page.screenshot({ path: test.info().outputPath('account-team-en.png'), fullPage: true })
  await context.close()

  // the editor follows the mail's link in a browser of their own
  const mail = await mailTo(smtp, editorEmail, /#invite=/)
  const link = /https?:\/\/\S+#invite=[\w-]+/.exec(mail.text ?? '')?.[0] ?? ''
  const editor = await desk(browser)
  await editor.page.goto(`${server.url}${new URL(link).pathname}${new URL(link).hash}`)
  const join = editor.page.getByRole('region', { name: 'Join your team' })
  await join.getByLabel('Your name').fill('Eddie Editor')
  await join.getByLabel('Choose a password').fill(STRONG_PASSWORD)
  await join.getByRole('button', { name: 'Join the team' }).click()
  await expect(editor.page.getByRole('heading', { name: 'Your account' })).toBeVisible()
  await editor.page.goto(`${server.url}/campaigns/${campaign.campaignId}`)
  await editor.page.getByLabel('New budget (EUR)').fill('900')
  await editor.page.getByRole('button', { name: 'Change the budget' }).click()
  await expect(editor.page.getByText('€ 900.00')).toBeVisible()
  await editor.context.close()

  // a viewer, invited and joined, reads the campaign and is refused the budget change
  const viewerEmail = newEmail('e2e-viewer')
  await owner.api.post('/advertisers/team/invites', { email: viewerEmail, role: 'viewer' })
  const token = /#invite=([\w-]+)/.exec(
    (await mailTo(smtp, viewerEmail, /#invite=/)).text ?? '',
  )?.[1]
  const joined = await advertiserClient(server, server.url).post(
    '/advertisers/team/invites/accept',
    {
      token,
      name: 'Vera Viewer',
      password: STRONG_PASSWORD,
    },
  )
  expect(joined.status).toBe(200)
  const viewer = await desk(browser)
  await signIn(viewer.page, viewerEmail)
  await viewer.page.goto(`${server.url}/campaigns/${campaign.campaignId}`)
  await viewer.page.getByLabel('New budget (EUR)').fill('100')
  await viewer.page.getByRole('button', { name: 'Change the budget' }).click()
  await expect(viewer.page.getByText('Your role in the team does not allow this')).toBeVisible()
  await viewer.page.screenshot({
    path: test.info().outputPath('viewer-refused-en.png'),
    fullPage: true,
  })
  await viewer.context.close()
  const after = await owner.api.get<Campaign>(`/advertisers/campaigns/${campaign.campaignId}`)
  expect(after.body.budgetCents).toBe(90_000)
})
