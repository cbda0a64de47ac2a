import { expect, test } from '@playwright/test'
import {
  acceptAgreements,
  designShout,
  EVENT,
  expectAccessible,
  fillCard,
  fillContact,
  type Lang,
  PREFIX,
  pickSlots,
  screenshot,
  T,
} from './helpers'

// The whole purchase with the local test card, in English, then French, then German.
for (const lang of ['en', 'fr', 'de'] as Lang[]) {
  test(`buys a photo shout with the test card (${lang})`, async ({ browser }) => {
    const context = await browser.newContext({
      locale: { en: 'en-US', fr: 'fr-FR', de: 'de-DE' }[lang],
    })
    const page = await context.newPage()
    const t = T[lang]
    const shots = lang === 'en' ? 'en' : undefined

    await designShout(page, lang, shots ?? `${lang}`, lang === 'en')
    await expect(page.locator('html')).toHaveAttribute('lang', lang)

    const picked = await pickSlots(page, 2)
    expect(picked).toHaveLength(2)
    await screenshot(page, `${lang}-select-shouts`)
    if (lang === 'en') await expectAccessible(page)
    await page.getByRole('button', { name: t.continue }).click()

    await expect(page).toHaveURL(new RegExp(`^[^?]*${PREFIX[lang]}/${EVENT}/order/checkout$`))
    await fillContact(page, lang, `buyer-${lang}@example.com`)
    await fillCard(page, lang)
    await screenshot(page, `${lang}-checkout`)
    if (lang === 'en') await expectAccessible(page)
    await page.getByRole('button', { name: t.review }).click()

    await expect(page).toHaveURL(/\/order\/review$/)
    const place = page.getByRole('button', { name: t.placeOrder })
    await expect(place).toBeDisabled()
    await acceptAgreements(page, lang)
    await expect(place).toBeEnabled()
    // the shout times are listed in play order, 'Mon dd @ label'
    await expect(page.locator('.times li')).toHaveCount(2)
    await screenshot(page, `${lang}-review`)
    if (lang === 'en') await expectAccessible(page)
    await place.click()

    await expect(page).toHaveURL(new RegExp(`${PREFIX[lang]}/${EVENT}/order/confirmation$`), {
      timeout: 30_000,
    })
    await expect(page.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })
    await expect(page.locator('.confirm__code strong')).toHaveText(/^[0-9a-f-]{8}$/)
    await expect(page.locator('.times li')).toHaveCount(2)
    await screenshot(page, `${lang}-confirmation`)
    if (lang === 'en') await expectAccessible(page)
    await context.close()
  })
}
