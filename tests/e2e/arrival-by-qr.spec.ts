import { expect, type Page, test } from '@playwright/test'
import { SHOP_PAGES } from '../../src/contract/pages'
import {
  EVENT,
  expectAccessible,
  fillCard,
  type Lang,
  PREFIX,
  photoFile,
  pickSlots,
  screenshot,
  T,
} from './helpers'

// A shopper in front of a billboard scans its QR code on their phone (390×844, the suite's), in
// French at a Paris billboard and in German at a Berlin one: the billboard is first on the page, the
// design starts from it, their own country's mobile number is taken, a declined card is said where
// their eyes are (visible above the sticky bar, announced, focused), a good card follows, each
// consent opens the text it accepts, and the order is booked. No public page logs a console error.

const JOURNEYS = [
  {
    lang: 'fr' as Lang,
    device: 'paris-opera-1',
    billboard: "Place de l'Opéra",
    phone: '06 12 34 56 78',
    youreAt: /^Vous êtes à : Place de l'Opéra/,
    design: 'Créer mon shout pour ce panneau',
    declined: 'Votre carte a été refusée.',
    consents: [
      { name: 'conditions générales', title: 'Conditions générales' },
      { name: 'politique de confidentialité', title: 'Politique de confidentialité' },
      { name: 'politique relative aux contenus des utilisateurs', title: 'Politique de contenu' },
      // safety and no changes after ordering are clauses of the terms
      { name: 'resterai prudent·e', title: 'Conditions générales' },
      { name: 'ne pourront plus être modifiés', title: 'Conditions générales' },
    ],
    optional: '(facultatif)',
    leftToTick: 'Cochez les 4 cases obligatoires restantes',
  },
  {
    lang: 'de' as Lang,
    device: 'berlin-alexanderplatz',
    billboard: 'Alexanderplatz',
    phone: '0151 23456789',
    youreAt: /^Du bist hier: .*Alexanderplatz/,
    design: 'Meinen Shout für diese Werbetafel gestalten',
    declined: 'Deine Karte wurde abgelehnt.',
    consents: [
      { name: 'Allgemeinen Geschäftsbedingungen', title: 'Allgemeine Geschäftsbedingungen' },
      { name: 'Datenschutzerklärung', title: 'Datenschutzerklärung' },
      { name: 'Richtlinien für Nutzerinhalte', title: 'Inhaltsrichtlinie' },
      { name: 'achte auf meine Sicherheit', title: 'Allgemeine Geschäftsbedingungen' },
      { name: 'nach der Bestellung nicht mehr geändert', title: 'Allgemeine Geschäftsbedingungen' },
    ],
    optional: '(freiwillig)',
    leftToTick: 'Setze die 4 fehlenden Pflicht-Häkchen',
  },
]

/** Every console error and uncaught exception of a page, with the address it happened on. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`))
  return errors
}

/** The element is on screen and not under the sticky action bar. */
async function expectAboveActionBar(page: Page, selector: ReturnType<Page['locator']>) {
  await expect(selector).toBeInViewport()
  const box = await selector.boundingBox()
  const bar = await page.locator('.action-bar').boundingBox()
  expect(box && bar && box.y + box.height <= bar.y).toBe(true)
}

for (const journey of JOURNEYS) {
  const { lang } = journey
  test(`arrives by QR code and buys at ${journey.device} (${lang})`, async ({ browser }) => {
    const context = await browser.newContext({
      locale: lang === 'fr' ? 'fr-FR' : 'de-DE',
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    })
    const page = await context.newPage()
    const errors = consoleErrors(page)
    const t = T[lang]

    // the QR code's address: the billboard comes first, with one action to the templates
    await page.goto(`${PREFIX[lang]}/${EVENT}?device=${journey.device}`)
    const arrival = page.getByRole('region', { name: journey.youreAt })
    await expect(arrival).toBeVisible()
    await expect(page.getByRole('heading', { name: journey.youreAt })).toBeInViewport()
    await screenshot(page, `${lang}-qr-arrival`)
    await expectAccessible(page)
    await arrival.getByRole('button', { name: journey.design }).click()

    await expect(page).toHaveURL(/\/design\/template$/)
    await page.getByRole('button', { name: t.chooseTemplate }).click()
    await page.getByRole('button', { name: t.continue }).click()
    await expect(page).toHaveURL(/\/design\/customize$/)
    await page.locator('input[type=file]').setInputFiles(await photoFile())
    await expect(page.locator('img.upload__preview')).toBeVisible()
    await page.getByLabel(t.to).fill('Maman')
    await page.getByLabel(t.message, { exact: true }).fill('Joyeux anniversaire !')
    await page.getByLabel(t.from).fill('Léa')
    await page.getByRole('button', { name: t.create }).click()
    await expect(page.locator('img.generated')).toBeVisible({ timeout: 30_000 })
    await page.getByRole('button', { name: t.continue }).click()
    await expect(page).toHaveURL(/\/order\/select-shouts$/)
    await pickSlots(page, 1, { last: true })
    await page.getByRole('button', { name: t.continue }).click()

    // the country's own mobile number, as its people write it
    await expect(page).toHaveURL(/\/order\/checkout$/)
    await page.getByLabel(t.firstName, { exact: true }).fill('Léa')
    await page.getByLabel(t.lastName, { exact: true }).fill('Martin')
    await page.getByLabel(t.email, { exact: true }).fill(`qr-${lang}@example.com`)
    await page.getByLabel(t.phone, { exact: true }).fill(journey.phone)

    // a declined card: said beside the card, on screen above the sticky bar, and focused
    await fillCard(page, lang, '4000 0000 0000 0002')
    await page.getByRole('button', { name: t.review }).click()
    const refusal = page.getByRole('alert').filter({ hasText: journey.declined })
    await expect(refusal).toBeVisible()
    await expect(refusal).toBeFocused()
    await expectAboveActionBar(page, refusal)
    await expect(page.getByLabel(t.phone, { exact: true })).not.toHaveAttribute(
      'aria-invalid',
      'true',
    )
    await page.screenshot({ path: `tests/e2e/screenshots/${lang}-qr-card-declined.png` })
    await expect(page).toHaveURL(/\/order\/checkout$/)

    await fillCard(page, lang)
    await page.getByRole('button', { name: t.review }).click()
    await expect(page).toHaveURL(/\/order\/review$/)

    // four boxes are required, the bar counts those; the fifth says it is optional
    const boxes = page.locator('.check')
    await expect(boxes).toHaveCount(5)
    await expect(boxes.locator('input[required]')).toHaveCount(4)
    await expect(page.locator('.action-bar')).toContainText(journey.leftToTick)
    await expect(boxes.filter({ has: page.locator('input:not([required])') })).toContainText(
      journey.optional,
    )

    // each consent opens the text it accepts, in a new tab
    for (const consent of journey.consents) {
      const opened = context.waitForEvent('page')
      await page.getByRole('link', { name: consent.name }).click()
      const text = await opened
      await expect(text.getByRole('heading', { level: 1, name: consent.title })).toBeVisible()
      await expect(text.locator('html')).toHaveAttribute('lang', lang)
      await text.close()
    }
    for (const label of t.agreements) await page.getByLabel(label).check()
    await screenshot(page, `${lang}-qr-review`)
    await page.getByRole('button', { name: t.placeOrder }).click()
    await expect(page.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })
    await screenshot(page, `${lang}-qr-confirmation`)

    // the declined card's answer (402) is the one console line of the flow: the browser logs a
    // refused request itself
    expect(errors.filter((e) => !/status of 402/.test(e))).toEqual([])
    await context.close()
  })
}

test('no public page logs a console error, in any language', async ({ browser }) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  const errors = consoleErrors(page)
  for (const prefix of ['', '/fr', '/de']) {
    for (const path of [
      '/',
      `/${EVENT}`,
      `/${EVENT}?device=paris-opera-1`,
      `/${EVENT}?device=no-such-billboard`,
      `/${EVENT}/design/location`,
      '/account',
    ]) {
      await page.goto(`${prefix}${path}`, { waitUntil: 'networkidle' })
    }
  }
  for (const locale of ['en', 'fr', 'de']) {
    for (const name of SHOP_PAGES) {
      await page.goto(`/s/${name}/${locale}`, { waitUntil: 'networkidle' })
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    }
  }
  expect(errors).toEqual([])
  await context.close()
})

test('an unknown billboard code says so, and the list stays', async ({ page }) => {
  await page.goto(`/fr/${EVENT}?device=no-such-billboard`)
  await expect(page.getByText("Cet événement n'a pas de panneau pour ce QR code.")).toBeVisible()
  await expect(page.getByRole('button', { name: T.fr.choose })).toBeVisible()
})
