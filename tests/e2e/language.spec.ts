import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { englishOf, readPoEntries } from '../../src/locale/po-reader'
import {
  acceptAgreements,
  BILLBOARD,
  EVENT,
  fillCard,
  fillContact,
  type Lang,
  PREFIX,
  photoFile,
  pickSlots,
  T,
} from './helpers'

// Every step of the flow in French and German, its
// server messages included (an upload refused, a card declined, a promo code unknown), shows no
// sentence of the English catalog. Each step is also saved as a picture at 390x844 and at 390x700
// (under test-results/language/, not committed) to be looked at for English and for overflow.

/**
 * Words that read the same in English and in French or German, and names: a fragment made only of
 * these is not English on the page.
 */
const ALLOWED = new Set(
  [
    // names of the demo catalogue and of the product
    "Place de l'Opéra",
    'Share the Love',
    'Hearts',
    'Shouts',
    // cognates and codes: "Message", "Photo", "Video", "Stripe", "CVC", "MM/YY"...
  ].map((s) => s.toLowerCase()),
)

/** The literal pieces of an English message: placeholders, plural signs and tags cut it apart. */
function fragments(message: string): string[] {
  const flat = message.replace(
    /\{\w+, (?:plural|select|selectordinal),((?:\s*=?\w+\s*\{[^{}]*\})+)\s*\}/g,
    (_, branches: string) => branches.replace(/=?\w+\s*\{([^{}]*)\}/g, '¦$1¦'),
  )
  return flat
    .split(/\{[^{}]*\}|#|¦|<\/?\d+\/?>/)
    .map((s) => s.trim().replace(/^[\s.,:;·!?()-]+|[\s.,:;·!?()-]+$/g, ''))
    .filter((s) => (s.match(/[A-Za-z]{2,}/g) ?? []).length >= 2 && !ALLOWED.has(s.toLowerCase()))
}

const ENGLISH = [
  ...new Set(
    readPoEntries(readFileSync('src/locale/locales/en/messages.po', 'utf8')).flatMap((e) =>
      fragments(englishOf(e)),
    ),
  ),
]

/** The English fragments found in the page's visible text (whole words only). */
async function englishOn(page: Page): Promise<string[]> {
  // biome-ignore lint/performance/useDomNodeTextContent: what a shopper reads, not hidden nodes' text
  const text = (await page.locator('body').innerText()).replace(/\s+/g, ' ')
  return ENGLISH.filter((fragment) => {
    const escaped = fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    return new RegExp(`(^|[^\\p{L}])${escaped}($|[^\\p{L}])`, 'u').test(text)
  })
}

async function look(page: Page, lang: Lang, step: string) {
  expect(await englishOn(page), `English on ${lang} ${step}`).toEqual([])
  for (const height of [844, 700]) {
    await page.setViewportSize({ width: 390, height })
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({
      path: `test-results/language/${lang}-${step}-${height}.png`,
      fullPage: true,
    })
  }
  await page.setViewportSize({ width: 390, height: 844 })
}

test('the fragments of the English catalog are sentences, and the plural branches are read', () => {
  expect(fragments('{0, plural, one {# shout} other {# shouts}}')).toEqual([])
  expect(fragments('Slot {slot} starts in less than 5 hours and can no longer be bought')).toEqual([
    'starts in less than 5 hours and can no longer be bought',
  ])
  expect(ENGLISH).toContain('Your card has insufficient funds')
  expect(ENGLISH.length).toBeGreaterThan(250)
})

test('the check finds the English of an English page', async ({ page }) => {
  await page.goto(`/${EVENT}`)
  await expect(page).toHaveURL(new RegExp(`/${EVENT}/design/location$`))
  expect(await englishOn(page)).toContain('Choose a billboard')
})

for (const lang of ['fr', 'de'] as const) {
  test(`every step in ${lang} is free of English, its server messages too`, async ({ browser }) => {
    const context = await browser.newContext({ locale: lang === 'fr' ? 'fr-FR' : 'de-DE' })
    const page = await context.newPage()
    const t = T[lang]

    await page.goto(`${PREFIX[lang]}/${EVENT}`)
    await expect(page).toHaveURL(new RegExp(`${PREFIX[lang]}/${EVENT}/design/location$`))
    await page.getByRole('button', { name: t.choose }).click()
    await look(page, lang, '1-location')

    // the street view (its traffic direction) and the directions page of the billboard
    const streetView = { fr: 'Vue de la rue : ', de: 'Straßenansicht: ' }[lang]
    await page.getByRole('button', { name: `${streetView}${BILLBOARD}` }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await look(page, lang, '1-location-street-view')
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toBeHidden()
    const directions = await page.locator('a[href*="shout-location"]').first().getAttribute('href')
    await page.goto(directions ?? '')
    await expect(page.locator('.directions')).toBeVisible()
    await look(page, lang, '1-location-directions')
    await page.goBack()
    await expect(page.getByRole('button', { name: t.continue })).toBeEnabled()
    await page.getByRole('button', { name: t.continue }).click()

    await expect(page).toHaveURL(/\/design\/template$/)
    await page.getByRole('button', { name: t.chooseTemplate }).click()
    await look(page, lang, '2-template')
    await page.getByRole('button', { name: t.continue }).click()

    await expect(page).toHaveURL(/\/design\/customize$/)
    // an upload the server refuses (not an image or a video): its message in the shopper's language
    await page.locator('input[type=file]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a picture, only words\n'.repeat(20)),
    })
    await expect(page.getByRole('alert')).toBeVisible()
    await look(page, lang, '3-customize-refused')
    await page.locator('input[type=file]').setInputFiles(await photoFile())
    await expect(page.locator('img.upload__preview')).toBeVisible()
    await page.getByLabel(t.to).fill('Maman')
    await page.getByLabel(t.message, { exact: true }).fill('Joyeux anniversaire')
    await page.getByLabel(t.from).fill('Léa')
    await page.getByRole('button', { name: t.create }).click()
    await expect(page.locator('img.generated')).toBeVisible({ timeout: 30_000 })
    await look(page, lang, '3-customize')
    await page.getByRole('button', { name: t.continue }).click()

    await expect(page).toHaveURL(/\/order\/select-shouts$/)
    await pickSlots(page, 2)
    await look(page, lang, '4-select-shouts')
    await page.getByRole('button', { name: t.continue }).click()

    await expect(page).toHaveURL(/\/order\/checkout$/)
    await look(page, lang, '5-checkout-empty')
    // a placeholder is no part of the visible text the check reads
    await expect(page.getByLabel(t.expiry)).toHaveAttribute(
      'placeholder',
      { fr: 'MM/AA', de: 'MM/JJ' }[lang],
    )
    await fillContact(page, lang, `words-${lang}@example.com`)
    // a card with insufficient funds (Stripe's test card): the decline in the shopper's language
    await fillCard(page, lang, '4000 0000 0000 9995')
    await page.getByRole('button', { name: t.review }).click()
    await expect(page.getByRole('alert')).toBeVisible()
    await look(page, lang, '5-checkout-declined')
    await fillCard(page, lang)
    await page.getByRole('button', { name: t.review }).click()

    await expect(page).toHaveURL(/\/order\/review$/)
    await acceptAgreements(page, lang)
    await look(page, lang, '6-review')
    await page.getByRole('button', { name: t.placeOrder }).click()

    await expect(page).toHaveURL(/\/order\/confirmation$/, { timeout: 30_000 })
    await expect(page.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })
    await look(page, lang, '7-confirmation')
    await context.close()
  })
}
