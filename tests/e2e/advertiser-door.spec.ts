import { readFileSync } from 'node:fs'
import { type Browser, expect, type Page, test } from '@playwright/test'
import { readPoEntries } from '../../src/locale/po-reader'
import { newEmail, pngOf, STRONG_PASSWORD } from '../api/advertiser-helpers'
import { startTestServer, type TestServer } from '../api/helpers'
import { signedInOperator } from '../api/ops-helpers'
import { expectAccessible, screenshot } from './helpers'

// A new advertiser at a desk (1366x900), in English and in French, on a fresh install with no mail
// server (APP_ENV=local, no SMTP_URL): the home page's "Advertise", the /advertise page's billboards
// and "Get started", sign-up with the password's strength shown while typing, the verification
// link read by an admin in the console's outbox (where a local install shows it), sign-in that lands
// on the campaigns, a campaign in one currency (a billboard sold in another shown, not pickable,
// with the reason), its proposal, and its acceptance with the test card.

let server: TestServer

test.beforeAll(async () => {
  server = await startTestServer('pglite', {
    serveApp: true,
    env: { MAIL_POLL_SECONDS: '0.05', APP_ENV: 'local' },
  })
})
test.afterAll(async () => {
  await server?.stop()
})

const DESK = { viewport: { width: 1366, height: 900 } }

/** The page's words: English as written in the code, French from its catalog. */
function wordsOf(lang: 'en' | 'fr'): (english: string) => string {
  if (lang === 'en') return (english) => english
  const entries = readPoEntries(readFileSync('src/locale/locales/fr/messages.po', 'utf8'))
  const french = new Map(entries.map((e) => [e.id, e.str]))
  return (english) => {
    const found = french.get(english)
    if (!found) throw new Error(`no French for "${english}"`)
    return found
  }
}

/** The verification link of the newest mail to this address, as an admin reads it in the outbox. */
async function linkFromOutbox(browser: Browser, email: string, mails: number): Promise<string> {
  // the mails are made after the answers (the advertiser-requests job)
  await expect
    .poll(async () => (await server.deps.mail.list()).filter((m) => m.to === email).length, {
      timeout: 15_000,
    })
    .toBe(mails)
  const admin = await signedInOperator(server, 'admin')
  const cut = admin.cookie.indexOf('=')
  const context = await browser.newContext({ ...DESK, locale: 'en-US' })
  await context.addCookies([
    { name: admin.cookie.slice(0, cut), value: admin.cookie.slice(cut + 1), url: server.url },
  ])
  const page = await context.newPage()
  await page.goto(`${server.url}/ops/outbox`)
  // newest first: the link sent again
  const row = page.getByRole('row').filter({ hasText: email }).first()
  await expect(row).toContainText('one-time link')
  await row.getByRole('button').click()
  await expect(page.getByText(/shown because this is a local install without SMTP/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Verify this account by hand' })).toBeVisible()
  await screenshot(page, 'ops-outbox-one-time-link-1366')
  const text = (await page.locator('.ops-mail-text').textContent()) ?? ''
  await context.close()
  const link = /https?:\/\/\S+#verify=[\w-]+/.exec(text)?.[0]
  if (!link) throw new Error(`no verification link in the mail: ${text}`)
  return link
}

async function pickBillboardsAndPropose(page: Page, w: (english: string) => string) {
  await page.getByLabel(w('Campaign name')).fill('Spring sale')
  // the currency first: a billboard sold in another is shown, not pickable, and says why
  await page.getByLabel(w('Currency of the campaign')).selectOption('EUR')
  const timesSquare = page.locator('#billboard-nyc-times-square-1')
  await expect(timesSquare).toBeDisabled()
  await expect(page.locator('#billboard-nyc-times-square-1-why')).toBeVisible()
  await expect(page.locator('#billboard-nyc-times-square-1-why')).toContainText('USD')
  await page.locator('#billboard-paris-opera-1').check()
  await page.locator('#billboard-paris-republique').check()
  await expectAccessible(page)
  await page.getByRole('textbox', { name: 'Budget (EUR)' }).fill('500')
  await page.getByLabel(w('The ad (an image or a video)')).setInputFiles({
    name: 'ad.png',
    mimeType: 'image/png',
    buffer: await pngOf(1400, 400),
  })
  await page.getByRole('button', { name: w('Get the proposal') }).click()
  await expect(page).toHaveURL(/\/proposal\/[\w-]+$/, { timeout: 60_000 })
}

for (const lang of ['en', 'fr'] as const) {
  test(`${lang}: a new advertiser goes from the home page's door to a booked campaign, verified through the local outbox`, async ({
    browser,
  }) => {
    test.setTimeout(240_000)
    const w = wordsOf(lang)
    const prefix = lang === 'en' ? '' : '/fr'
    const context = await browser.newContext({
      ...DESK,
      locale: lang === 'en' ? 'en-US' : 'fr-FR',
      timezoneId: 'Europe/Paris',
    })
    const page = await context.newPage()
    await page.goto(`${server.url}${prefix}/`)
    await page.getByRole('link', { name: w('Advertise on our billboards') }).click()
    await expect(page).toHaveURL(new RegExp(`${prefix}/advertise$`))
    await expect(
      page.getByRole('heading', { name: w('Advertise on our billboards'), level: 1 }),
    ).toBeVisible()
    // the billboards sold to advertisers, by city, each by its place with its audience and price
    await expect(
      page.getByRole('rowheader', { name: "Place de l'Opéra, facing Boulevard Haussmann" }),
    ).toBeVisible()
    await expect(page.getByRole('table').filter({ hasText: 'Paris' }).first()).toBeVisible()
    await expect(page.getByText('paris-opera-1')).toHaveCount(0)
    await expectAccessible(page)
    await screenshot(page, `advertise-${lang}-1366`)

    await page
      .getByRole('link', { name: w('Get started') })
      .first()
      .click()
    await expect(
      page.getByRole('heading', { name: w('Create an advertiser account') }),
    ).toBeVisible()
    const email = newEmail(`door-${lang}`)
    await page.getByLabel(w('E-mail address')).fill(email)
    await page.getByLabel(w('Your name')).fill('Ana Martin')
    await page.getByLabel(w('Company')).fill('Brand & Co')
    // the password's strength while typing, by sign-up's own judge
    await page.getByLabel(w('Password'), { exact: true }).fill('brand & co 2024')
    await expect(
      page.getByText(
        new RegExp(
          `^(${w('Very weak: easy to guess')}|${w('Weak: easy to guess')}|${w('Not strong enough yet: add a few unrelated words')})$`,
        ),
      ),
    ).toBeVisible()
    await page.getByLabel(w('Password'), { exact: true }).fill(STRONG_PASSWORD)
    await expect(page.getByText(w('Very strong'))).toBeVisible()
    await expectAccessible(page)
    await screenshot(page, `advertise-sign-up-${lang}-1366`)
    await page.getByRole('button', { name: w('Create account'), exact: true }).click()
    await expect(page.getByRole('heading', { name: w('Sign in'), level: 1 })).toBeVisible()

    // not verified yet: signing in says so, and offers the link again
    await page.getByLabel(w('Password'), { exact: true }).fill(STRONG_PASSWORD)
    await page.getByRole('button', { name: w('Sign in'), exact: true }).click()
    await page.getByRole('button', { name: w('Send the link again') }).click()

    // no mail server: the admin reads the mail (the newest link) in the console's outbox
    const link = new URL(await linkFromOutbox(browser, email, 2))
    expect(link.pathname).toBe(`${prefix}/account`)
    await page.goto(`${server.url}${link.pathname}${link.hash}`)
    await expect(
      page.getByText(w('Your e-mail address is confirmed. You can sign in now.')),
    ).toBeVisible()

    // sign-in lands on the campaigns
    await page.getByLabel(w('E-mail address')).fill(email)
    await page.getByLabel(w('Password'), { exact: true }).fill(STRONG_PASSWORD)
    await page.getByRole('button', { name: w('Sign in'), exact: true }).click()
    await expect(page.getByRole('heading', { name: w('Your campaigns'), level: 1 })).toBeVisible()
    await expect(page).toHaveURL(new RegExp(`${prefix}/campaigns/?$`))

    await page.getByRole('link', { name: w('New campaign') }).click()
    await expect(page.locator('#billboard-paris-opera-1')).toBeVisible()
    await pickBillboardsAndPropose(page, w)
    await screenshot(page, `advertise-proposal-${lang}-1366`)

    await page.getByLabel(w('Card number')).fill('4242 4242 4242 4242')
    await page.getByLabel(w('Expiry (MM/YY)')).fill('12/34')
    await page.getByLabel(w('CVC')).fill('123')
    await page.getByRole('button', { name: /Accept|Accepter/ }).click()
    await expect(page).toHaveURL(/\/campaigns\/[\w-]+$/)
    await expect(page.getByTestId('campaign-state')).toHaveText(w('Booked'))
    // its billboards by place and city, its next plays on their clock named by the city
    await expect(
      page.getByText("Place de l'Opéra, facing Boulevard Haussmann, Paris"),
    ).toBeVisible()
    const nextPlays = page.getByRole('region', { name: w('Next plays') }).getByRole('listitem')
    await expect(nextPlays.first().locator('time')).not.toContainText('GMT')
    await expectAccessible(page)
    await screenshot(page, `advertise-campaign-${lang}-1366`)
    await context.close()
  })
}

test('fr: a signed-out visit to the new campaign page goes to sign-in, and back there after it', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const w = wordsOf('fr')
  const admin = await signedInOperator(server, 'admin')
  const email = newEmail('door-back')
  const signUp = await fetch(`${server.url}/api/v1/advertisers/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({
      email,
      password: STRONG_PASSWORD,
      name: 'Ana Martin',
      company: 'Brand & Co',
      locale: 'fr',
    }),
  })
  expect(signUp.status).toBe(202)
  await expect
    .poll(async () => (await server.deps.mail.list()).some((m) => m.to === email), {
      timeout: 15_000,
    })
    .toBe(true)
  expect((await admin.api.post('/ops/advertisers/verify', { email })).status).toBe(200)

  const context = await browser.newContext({ ...DESK, locale: 'fr-FR' })
  const page = await context.newPage()
  await page.goto(`${server.url}/fr/campaigns/new`)
  await expect(page).toHaveURL(/\/fr\/account\?next=%2Fcampaigns%2Fnew$/)
  await page.getByLabel(w('E-mail address')).fill(email)
  await page.getByLabel(w('Password'), { exact: true }).fill(STRONG_PASSWORD)
  await page.getByRole('button', { name: w('Sign in'), exact: true }).click()
  await expect(page).toHaveURL(/\/fr\/campaigns\/new$/)
  await expect(page.locator('#billboard-paris-opera-1')).toBeVisible()
  // a campaign of no one: the page says so, with the way back
  await page.goto(`${server.url}/fr/campaigns/00000000-0000-4000-8000-000000000000`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/.+/)
  await expect(page.getByRole('link', { name: w('Your campaigns') })).toBeVisible()
  await context.close()
})
