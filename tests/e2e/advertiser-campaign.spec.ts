import { type Browser, expect, type Page, test } from '@playwright/test'
import type { Campaign, Proposal } from '../../src/contract/advertisers'
import type { Schedule } from '../../src/contract/player'
import { json, sql } from '../../src/server/platform/db/sql'
import {
  advertiserClient,
  campaignWithAd,
  draftOf,
  linkToken,
  mailTo,
  newEmail,
  pngOf,
  STRONG_PASSWORD,
} from '../api/advertiser-helpers'
import { client, savedCard, startTestServer, type TestServer } from '../api/helpers'
import { signedInOperator } from '../api/ops-helpers'
import { type SmtpTestServer, startSmtpTestServer } from '../api/smtp-test-server'
import { expectAccessible } from './helpers'

// An advertiser's whole way, in the browser: an account made on /account, its e-mail confirmed by
// the link of the mail (a real SMTP server in this process), a campaign on two billboards with an
// image, its proposal, the proposal's link opened by someone signed out, then accepted by its owner
// with the test card, the campaign Booked on its page, approved by a reviewer in the console's review
// queue, and Approved on its page. The server runs in this process (its
// mails go to the SMTP server here) and serves the built app (the suite's build).

let smtp: SmtpTestServer
let server: TestServer
/** The server's clock runs this far ahead of the real one (a day's charge needs the day over). */
let offsetMs = 0

test.beforeAll(async () => {
  smtp = await startSmtpTestServer()
  server = await startTestServer('pglite', {
    serveApp: true,
    env: { SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '0.05' },
    now: () => Date.now() + offsetMs,
  })
})
test.afterAll(async () => {
  await server?.stop()
  await smtp?.close()
})

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks).toString('utf8')
}

/** The account part's texts, in English and in German (the catalogs' own). */
const TEXT = {
  en: {
    prefix: '',
    newHere: 'New here? Create an account',
    signUpTitle: 'Create an advertiser account',
    email: 'E-mail address',
    name: 'Your name',
    company: 'Company',
    password: 'Password',
    createAccount: 'Create account',
    weak: 'Your password is not strong enough',
    sent: (email: string) => `We sent a link to ${email}.`,
    confirmed: 'Your e-mail address is confirmed.',
    signIn: 'Sign in',
    signedIn: (email: string) => `Signed in as Ana Martin (${email})`,
    campaigns: 'Your campaigns',
    noCampaign: 'No campaign yet',
  },
  de: {
    prefix: '/de',
    newHere: 'Neu hier? Konto erstellen',
    signUpTitle: 'Werbekundenkonto erstellen',
    email: 'E-Mail-Adresse',
    name: 'Ihr Name',
    company: 'Unternehmen',
    password: 'Passwort',
    createAccount: 'Konto erstellen',
    weak: 'Ihr Passwort ist nicht stark genug',
    sent: (email: string) => `Wir haben einen Link an ${email} gesendet.`,
    confirmed: 'Ihre E-Mail-Adresse ist bestätigt.',
    signIn: 'Anmelden',
    signedIn: (email: string) => `Angemeldet als Ana Martin (${email})`,
    campaigns: 'Ihre Kampagnen',
    noCampaign: 'Noch keine Kampagne',
  },
} as const
type Lang = keyof typeof TEXT

async function signUpAndVerify(page: Page, email: string, lang: Lang = 'en') {
  const t = TEXT[lang]
  await page.goto(`${server.url}${t.prefix}/account`)
  await page.getByRole('button', { name: t.newHere }).click()
  await expect(page.getByRole('heading', { name: t.signUpTitle })).toBeVisible()
  await expectAccessible(page)
  await page.getByLabel(t.email).fill(email)
  await page.getByLabel(t.name).fill('Ana Martin')
  await page.getByLabel(t.company).fill('Brand & Co')
  // a weak password: the server's message beside the field, and nothing typed lost
  await page.getByLabel(t.password).fill('password1')
  await page.getByRole('button', { name: t.createAccount, exact: true }).click()
  await expect(page.getByText(t.weak)).toBeVisible()
  await expect(page.getByLabel(t.company)).toHaveValue('Brand & Co')
  await page.getByLabel(t.password).fill(STRONG_PASSWORD)
  await page.getByRole('button', { name: t.createAccount, exact: true }).click()
  await expect(page.getByText(t.sent(email))).toBeVisible()

  // the mail's link, on this server (the mail names the shop's public address), in the page's language
  const mail = await mailTo(smtp, email, /#verify=/)
  const link = new URL(/https?:\/\/\S+#verify=[\w-]+/.exec(mail.text ?? '')?.[0] ?? '')
  expect(link.pathname).toBe(`${t.prefix}/account`)
  await page.goto(`${server.url}${link.pathname}#verify=${linkToken(mail, 'verify')}`)
  await expect(page.getByText(t.confirmed)).toBeVisible()
  await expect(page).toHaveURL(/\/account$/)
}

/** Another advertiser, signed up and verified through the API (as the shop's own page would). */
async function anotherAdvertiser(): Promise<string> {
  return (await apiAdvertiser()).email
}

/** An advertiser signed up, verified and signed in through the API: its client carries the token. */
async function apiAdvertiser() {
  const email = newEmail('e2e-other')
  const api = advertiserClient(server, server.url)
  const body = {
    email,
    password: STRONG_PASSWORD,
    name: 'Ana Martin',
    company: 'Other',
    locale: 'en',
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

/**
 * A verified advertiser, signed in through the API, whose campaign (an ad on the demo billboard) is
 * proposed and accepted with a saved card: the local provider's `cardNumber`, the test card by default.
 */
async function bookedCampaign(name: string, cardNumber?: string) {
  const { email, api } = await apiAdvertiser()
  const campaign = await campaignWithAd(api, Date.now(), { name })
  const proposal = await api.post<Proposal>(
    `/advertisers/campaigns/${campaign.campaignId}/proposal`,
    {},
  )
  const card = await savedCard(client(server.url), cardNumber)
  const accepted = await api.post<Campaign>(
    `/advertisers/proposals/${proposal.body.proposalGuid}/accept`,
    { customerId: card.customerId, checkoutSecretKey: card.checkoutSecretKey },
  )
  return { email, api, campaign, accepted }
}

/** Signs in on /account; the access token the server answered. */
async function signIn(page: Page, email: string, lang: Lang = 'en'): Promise<string> {
  const t = TEXT[lang]
  await page.getByLabel(t.email).fill(email)
  await page.getByLabel(t.password).fill(STRONG_PASSWORD)
  const [answer] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/advertisers/session'),
    ),
    page.getByRole('button', { name: t.signIn, exact: true }).click(),
  ])
  // signed in, the advertiser lands on the campaigns
  await expect(page.getByRole('heading', { name: t.campaigns, level: 1 })).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`${t.prefix}/campaigns/?$`))
  return ((await answer.json()) as { accessToken: string }).accessToken
}

/** Everything the page's origin keeps in localStorage, sessionStorage and IndexedDB, as text. */
async function storedText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const kept: unknown[] = [{ ...localStorage }, { ...sessionStorage }]
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name)
        open.onsuccess = () => resolve(open.result)
        open.onerror = () => reject(open.error)
      })
      for (const store of Array.from(db.objectStoreNames)) {
        const read = (how: 'getAllKeys' | 'getAll') =>
          new Promise<unknown>((resolve, reject) => {
            const request = db.transaction(store, 'readonly').objectStore(store)[how]()
            request.onsuccess = () => resolve(request.result)
            request.onerror = () => reject(request.error)
          })
        kept.push(name, store, await read('getAllKeys'), await read('getAll'))
      }
      db.close()
    }
    return JSON.stringify(kept)
  })
}

/** spec §7: the access token lives in the tab's memory only, never in the browser's storage. */
async function expectNoTokenStored(page: Page, accessToken: string) {
  expect(accessToken.length).toBeGreaterThan(40)
  const stored = await storedText(page)
  expect(stored).not.toContain(accessToken)
  // nor any other signed token (a JWT's header starts eyJ)
  expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/)
}

async function newCampaign(page: Page) {
  await page.getByRole('link', { name: 'Your campaigns' }).click()
  await expect(page).toHaveURL(/\/campaigns\/?$/)
  await expect(page.getByText('No campaign yet')).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('link', { name: 'New campaign' }).click()
  await expect(page).toHaveURL(/\/campaigns\/new$/)
  await expect(page.locator('#billboard-paris-opera-1')).toBeVisible()
  await expectAccessible(page)

  // nothing chosen: each message beside its field
  await page.getByRole('button', { name: 'Get the proposal' }).click()
  await expect(page.getByText('name: is required')).toBeVisible()
  await page.getByLabel('Campaign name').fill('Spring sale')
  // one billboard picked by its pin on the map, one in the list: each shows on the other
  await page.getByLabel('City on the map').selectOption('Paris')
  const map = page.getByRole('region', { name: 'Map of the billboards' })
  await expect(map.locator('.maplibregl-marker')).not.toHaveCount(0)
  const operaPin = map.locator(`.map-pin[aria-label^="Billboard: Place de l'Opéra"]`)
  const republiquePin = map.locator('.map-pin[aria-label^="Billboard: Place de la République"]')
  // on a phone's narrow map billboards standing close are one pin with their count: a tap splits it
  const cluster = map.locator('.map-cluster')
  await expect(operaPin.or(cluster).first()).toBeVisible()
  if (!(await operaPin.isVisible())) await cluster.first().click()
  await operaPin.click()
  await expect(page.locator('#billboard-paris-opera-1')).toBeChecked()
  await expect(operaPin).toHaveAttribute('aria-pressed', 'true')
  await expect(republiquePin).toHaveAttribute('aria-pressed', 'false')
  await page.locator('#billboard-paris-republique').check()
  await expect(republiquePin).toHaveAttribute('aria-pressed', 'true')
  await expectAccessible(page)
  await expect(page.getByText(/impressions per play/).first()).toBeVisible()
  await expect(page.getByText(/ad plays free at these dates/).first()).toBeVisible()
  await page.getByLabel(/^Budget/).fill('500')
  await page.getByLabel('The ad (an image or a video)').setInputFiles({
    name: 'ad.png',
    mimeType: 'image/png',
    buffer: await pngOf(1400, 400),
  })
  await page.getByRole('button', { name: 'Get the proposal' }).click()
  await expect(page).toHaveURL(/\/proposal\/[\w-]+$/, { timeout: 60_000 })
  await expect(page.getByRole('heading', { name: 'Proposal for Spring sale' })).toBeVisible()
  // each billboard by its name in the catalogue, not its id
  await expect(
    page.getByRole('cell', { name: "Place de l'Opéra, facing Boulevard Haussmann" }),
  ).toBeVisible()
  await expect(page.getByRole('cell', { name: 'Place de la République, north side' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'paris-opera-1' })).toHaveCount(0)
  return new URL(page.url()).pathname
}

/** A console page, in a new browser context signed in as a new operator of this role. */
async function consoleAs(
  browser: Browser,
  role: 'reviewer' | 'admin',
  path: string,
  device: Parameters<Browser['newContext']>[0] = { viewport: { width: 1280, height: 800 } },
) {
  const operator = await signedInOperator(server, role)
  const cut = operator.cookie.indexOf('=')
  const [name, value] = [operator.cookie.slice(0, cut), operator.cookie.slice(cut + 1)]
  const context = await browser.newContext({ ...device, locale: 'en-US', timezoneId: 'UTC' })
  await context.addCookies([{ name, value, url: server.url }])
  const page = await context.newPage()
  await page.goto(`${server.url}${path}`)
  return { context, page }
}

for (const screen of [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desk', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
]) {
  test(`${screen.name}: an advertiser signs up, confirms the e-mail, proposes a campaign on two billboards, shares the proposal, books it with the test card, and a reviewer approves it`, async ({
    browser,
  }) => {
    test.setTimeout(180_000)
    const { name: _, ...device } = screen
    const context = await browser.newContext({ ...device, locale: 'en-US', timezoneId: 'UTC' })
    const page = await context.newPage()
    const email = newEmail(`e2e-${screen.name}`)
    if (screen.name === 'desk') {
      // the account part in German: sign-up, the mail's link, sign-in, the (empty) campaigns list
      await signUpAndVerify(page, email, 'de')
      const token = await signIn(page, email, 'de')
      await expectNoTokenStored(page, token)
      await expect(page.getByText(TEXT.de.noCampaign)).toBeVisible()
      await expectAccessible(page)
      await expectNoTokenStored(page, token)
      // the rest in English, the session kept through the refresh cookie
      await page.goto(`${server.url}/account`)
      await expect(page.getByText(TEXT.en.signedIn(email))).toBeVisible()
    } else {
      await signUpAndVerify(page, email)
      // the sign-in view, a forgotten password and the mail's reset link's view
      await expectAccessible(page)
      await page.getByRole('button', { name: 'Forgot your password?' }).click()
      await expect(page.getByRole('heading', { name: 'Forgotten password' })).toBeVisible()
      await expectAccessible(page)
      await page.goto(`${server.url}/account#reset=not-a-real-link`)
      await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
      await expectAccessible(page)
      await page.goto(`${server.url}/account`)
      const token = await signIn(page, email)
      await expectNoTokenStored(page, token)
      await page.goto(`${server.url}/account`)
    }
    const proposalPath = await newCampaign(page)
    await expectAccessible(page)

    // the link, opened by a colleague without an account (the desk's in German)
    const colleague = await browser.newContext({ ...device, locale: 'de-DE', timezoneId: 'UTC' })
    const shared = await colleague.newPage()
    if (screen.name === 'desk') {
      await shared.goto(`${server.url}/de${proposalPath}`)
      await expect(shared.getByRole('heading', { name: 'Angebot für Spring sale' })).toBeVisible()
      await expect(shared.getByRole('link', { name: 'anmelden' })).toBeVisible()
    } else {
      await shared.goto(`${server.url}${proposalPath}`)
      await expect(shared.getByRole('heading', { name: 'Proposal for Spring sale' })).toBeVisible()
      await expect(shared.getByRole('link', { name: 'signs in' })).toBeVisible()
    }
    await expect(shared.getByRole('button', { name: /Accept/ })).toHaveCount(0)
    await expectAccessible(shared)
    await colleague.close()

    // the owner accepts with the test card
    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByLabel('Expiry (MM/YY)').fill('12/34')
    await page.getByLabel('CVC').fill('123')
    await page.getByRole('button', { name: /Accept the proposal/ }).click()
    await expect(page).toHaveURL(/\/campaigns\/[\w-]+$/)
    await expect(page.getByTestId('campaign-state')).toHaveText('Booked')
    await expect(page.getByRole('heading', { name: 'Spring sale' })).toBeVisible()
    await expect(page.getByRole('img', { name: 'The ad of Spring sale' })).toBeVisible()
    // the next plays, each on a billboard named as the catalogue does, at its local time
    const nextPlays = page.getByRole('region', { name: 'Next plays' }).getByRole('listitem')
    await expect(nextPlays.first()).toContainText(/Place de (l'Opéra|la République)/)
    // "Mon, Nov 30, 10:35 AM, Paris time": the hour and minute on the billboard's clock (as the
    // reader's language writes them), named by its city
    await expect(nextPlays.first().locator('time')).toHaveText(
      /^\w{3}, \w{3} \d{1,2}, \d{1,2}:\d{2} [AP]M, Paris time$/,
    )
    await expect(nextPlays.first().locator('time')).not.toContainText('GMT')
    await expectAccessible(page)
    // its plays, reserved on both billboards, drawn per day with every figure in a table
    await page.getByText('Plays as a table').click()
    const plays = page.getByRole('table', {
      name: 'Plays scheduled and shown per day and billboard',
    })
    await expect(
      plays.getByRole('columnheader', {
        name: "Scheduled at Place de l'Opéra, facing Boulevard Haussmann",
      }),
    ).toBeVisible()
    await expect(
      plays.getByRole('columnheader', { name: 'Shown at Place de la République, north side' }),
    ).toBeVisible()
    await expect(plays).not.toContainText('paris-opera-1')
    // the schedule names its billboards by place and city
    await expect(
      page.getByText("Place de l'Opéra, facing Boulevard Haussmann, Paris"),
    ).toBeVisible()
    await expect(
      page.getByRole('img', {
        name: /^Plays per day and billboard: [\d,]+ scheduled, 0 shown in all\.$/,
      }),
    ).toBeVisible()

    // the report as CSV: its header, and as many plays scheduled as the page says
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the report (CSV)' }).click(),
    ])
    const csv = await streamText(await download.createReadStream())
    const [header, ...lines] = csv.trim().split('\r\n')
    expect(header).toBe(
      'day,location,city,deviceId,scheduledPlays,provenPlays,impressions,spentCents',
    )
    // RFC 4180's cells: a place with a comma is quoted
    const rows = lines.map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)]
        .map((m) => (m[1] ?? '').replace(/^"|"$/g, '').replace(/""/g, '"'))
        .slice(0, 8),
    )
    expect(new Set(rows.map((row) => `${row[1]} | ${row[2]} | ${row[3]}`))).toEqual(
      new Set([
        "Place de l'Opéra, facing Boulevard Haussmann | Paris | paris-opera-1",
        'Place de la République, north side | Paris | paris-republique',
      ]),
    )
    const scheduled = rows.reduce((sum, row) => sum + Number(row[4]), 0)
    await expect(
      page.getByText('Plays scheduled').locator('xpath=following-sibling::dd[1]'),
    ).toHaveText(new Intl.NumberFormat('en').format(scheduled))

    // the budget cannot go below what is committed: the spec's message beside the field
    await page.getByLabel(/^New budget/).fill('1')
    await page.getByRole('button', { name: 'Change the budget' }).click()
    await expect(page.getByText(/^amount spent to date \+ amount committed/)).toBeVisible()
    await expect(page.getByLabel(/^New budget/)).toHaveValue('1')

    // another account signs in in another tab: this tab's next action is refused
    const otherTab = await context.newPage()
    await otherTab.goto(`${server.url}/account`)
    await expect(otherTab.getByText(`Signed in as Ana Martin (${email})`)).toBeVisible()
    await otherTab.getByRole('button', { name: 'Sign out' }).click()
    await signIn(otherTab, await anotherAdvertiser())
    await page.getByLabel(/^New budget/).fill('600')
    await page.getByRole('button', { name: 'Change the budget' }).click()
    await expect(
      page.getByText(
        'The logged-in user changed and this action cannot be performed. Please login as the correct user.',
      ),
    ).toBeVisible()
    await otherTab.close()
    await page.goto(`${server.url}/account`)
    await expect(page.getByText(`Signed in as Ana Martin (${email})`)).toHaveCount(0)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await signIn(page, email)

    // a reviewer finds it in the console's review queue (company, billboards, the ad) and approves it
    const review = await consoleAs(browser, 'reviewer', '/ops/review', device)
    const card = review.page.getByRole('article').filter({ hasText: email })
    await expect(
      card.getByRole('heading', { name: 'Campaign Spring sale · Brand & Co' }),
    ).toBeVisible()
    // each billboard by its name in the catalogue, not its id
    await expect(card.getByRole('listitem')).toHaveText([
      "Place de l'Opéra, facing Boulevard Haussmann · Paris",
      'Place de la République, north side · Paris',
    ])
    await expect(card).not.toContainText('paris-opera-1')
    await expect(card.getByRole('img', { name: 'The ad of Spring sale' })).toBeVisible()
    await expectAccessible(review.page)
    await card.getByRole('button', { name: 'Approve Spring sale' }).click()
    await expect(
      review.page.getByText('Campaign Spring sale approved: its ad will play.'),
    ).toBeVisible()
    await expect(review.page.getByRole('article').filter({ hasText: email })).toHaveCount(0)
    await review.context.close()

    // the list shows it, Approved, with its budget and spend; its page says Approved (signing in
    // again landed on the list, read before the approval)
    await page.goto(`${server.url}/campaigns`)
    const row = page.getByRole('row', { name: /Spring sale/ })
    await expect(row).toContainText('Approved')
    await expect(row).toContainText('500')

    // cancelled by its advertiser, once confirmed
    await row.getByRole('link', { name: 'Spring sale' }).click()
    await expect(page.getByTestId('campaign-state')).toHaveText('Approved')
    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: 'Cancel the campaign' }).click()
    await expect(page.getByTestId('campaign-state')).toHaveText('Cancelled')
    await context.close()
  })
}

test("desk: the console's Campaigns page lists every advertiser's campaigns, and an admin cancels one with a reason", async ({
  browser,
}) => {
  const { email, api } = await apiAdvertiser()
  const made = await api.post(
    '/advertisers/campaigns',
    draftOf(Date.now(), { name: 'Winter fair' }),
  )
  expect(made.status).toBe(201)

  const admin = await signedInOperator(server, 'admin')
  const cut = admin.cookie.indexOf('=')
  const [name, value] = [admin.cookie.slice(0, cut), admin.cookie.slice(cut + 1)]
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  await context.addCookies([{ name, value, url: server.url }])
  const page = await context.newPage()
  await page.goto(`${server.url}/ops/campaigns`)
  const row = page.getByRole('row', { name: /^Winter fair/ })
  await expect(row).toContainText(email)
  await expect(row).toContainText('Draft')
  await expectAccessible(page)
  await row.getByRole('button', { name: 'Cancel Winter fair' }).click()
  await page.getByLabel(/Why is Winter fair cancelled/).fill('Duplicate of another campaign')
  await page.getByRole('button', { name: 'Cancel the campaign' }).click()
  await expect(page.getByRole('row', { name: /^Winter fair/ })).toContainText('Cancelled')
  await context.close()
})

test("desk: a reviewer refuses a booked campaign with a reason in the console's review queue, and its advertiser sees it Rejected", async ({
  browser,
}) => {
  const { email, api, campaign, accepted } = await bookedCampaign('Night club')
  expect(accepted.body.state).toBe('Booked')

  const { context, page } = await consoleAs(browser, 'reviewer', '/ops/review')
  const queued = page.getByRole('article').filter({ hasText: email })
  await expect(queued.getByRole('heading', { name: 'Campaign Night club · Other' })).toBeVisible()
  await queued.getByRole('button', { name: 'Refuse Night club…' }).click()
  // no reason: refused here, nothing sent
  await page.getByRole('button', { name: 'Refuse the campaign' }).click()
  await expect(page.getByText('Say why')).toBeVisible()
  await page
    .getByLabel('Reason for refusing Night club (the advertiser receives it)')
    .fill('The ad shows a brand we do not carry')
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Refuse the campaign' }).click()
  await expect(
    page.getByText('Campaign Night club refused: its plays are freed and nothing is charged.'),
  ).toBeVisible()
  await expect(page.getByRole('article').filter({ hasText: email })).toHaveCount(0)
  await context.close()

  const seen = await api.get<Campaign>(`/advertisers/campaigns/${campaign.campaignId}`)
  expect(seen.body.state).toBe('Rejected')
  expect(seen.body.rejectionReason).toBe('The ad shows a brand we do not carry')
})

test("desk: a card declined for a day's plays: the campaign page says it is paused and what to do, and the console shows the declined charge", async ({
  browser,
}) => {
  // the local provider's test card that saves, then is declined when charged
  const { email, campaign } = await bookedCampaign('Card test', '4000000000000341')
  const reviewer = await signedInOperator(server, 'reviewer')
  await reviewer.api.post(`/ops/campaigns/${campaign.campaignId}/approve`, {})

  // a billboard plays the campaign's first ad and proves it; a day later the day is settled
  const linked = await server.deps.player.link('paris-opera-1')
  if (!linked.ok) throw new Error('link failed')
  const schedule = await client(server.url).get<Schedule>(
    `/player/paris-opera-1/schedule?fromEpochMs=${campaign.startEpochMs}&toEpochMs=${campaign.startEpochMs + 86_400_000}`,
    { authorization: `Bearer ${linked.value.token}` },
  )
  const ad = schedule.body.items.find((i) => i.campaignId === campaign.campaignId)
  if (!ad) throw new Error('no ad on the schedule')
  offsetMs = ad.endEpochMs + 60_000 - Date.now()
  const proof = {
    playId: crypto.randomUUID(),
    campaignId: campaign.campaignId,
    playIndex: ad.playIndex,
    startedAtEpochMs: ad.startEpochMs,
    endedAtEpochMs: ad.endEpochMs,
  }
  await client(server.url).post(
    '/player/paris-opera-1/plays',
    { plays: [proof] },
    { authorization: `Bearer ${linked.value.token}` },
  )
  offsetMs = ad.endEpochMs + 2 * 86_400_000 - Date.now()
  await server.deps.jobs.runNow('ad-settlement')
  offsetMs = 0

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await page.goto(`${server.url}/account`)
  await signIn(page, email)
  await page.goto(`${server.url}/campaigns/${campaign.campaignId}`)
  await expect(page.getByTestId('campaign-state')).toHaveText('Paused')
  await expect(page.getByTestId('campaign-paused-reason')).toContainText('your card was declined')
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible()
  await context.close()

  const desk = await consoleAs(browser, 'admin', '/ops/campaigns')
  await expect(desk.page.getByRole('row', { name: /^Card test/ })).toContainText('card declined')
  const charges = desk.page.getByRole('table', { name: 'Charges of Card test' })
  await expect(charges.getByRole('row')).toHaveCount(2)
  await expect(charges).toContainText('declined')
  await desk.context.close()
})

test('desk in German: an ad the shop could not fit to its billboards says so on its campaign page, and why', async ({
  browser,
}) => {
  const { email, api } = await apiAdvertiser()
  const campaign = await campaignWithAd(api, Date.now(), { name: 'Broken ad' })
  // what the shop keeps when fitting an ad to a billboard's size fails
  await server.deps.database.query(sql`
    update ad_contents set error = ${json({ code: 'campaign_content_failed' })}::jsonb
    where campaign_id = ${campaign.campaignId}`)

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await page.goto(`${server.url}/de/account`)
  await signIn(page, email, 'de')
  await page.goto(`${server.url}/de/campaigns/${campaign.campaignId}`)
  const failed = page.getByTestId('campaign-ad-failed')
  await expect(failed).toContainText('Die Werbung kann auf den Werbetafeln nicht gezeigt werden:')
  await expect(failed.getByRole('listitem')).toHaveText([
    'Die Werbung konnte nicht verarbeitet werden: Laden Sie eine andere hoch',
  ])
  // not the picture of an ad that will not play
  await expect(page.getByRole('img', { name: /Broken ad/ })).toHaveCount(0)
  await failed.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'tests/e2e/screenshots/advertiser-ad-failed-de-1280.png' })
  await expectAccessible(page)
  await context.close()
})
