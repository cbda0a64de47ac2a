import { expect, type Page, test } from '@playwright/test'
import {
  acceptAgreements,
  designShout,
  EVENT,
  fillCard,
  fillContact,
  type Lang,
  PREFIX,
  pickSlots,
  T,
} from './helpers'

// A card whose bank asks the shopper to confirm the charge (Stripe's 3-D Secure test card
// 4000 0027 6000 3184), through the local provider: the order waits on the confirmation page, the
// shopper opens the test authentication screen and completes it (the order is confirmed) or fails
// it (the order fails and says why, in the page's language). On a phone (the suite's viewport).

const SCREEN = {
  en: {
    waiting: 'One more step: your bank',
    confirm: 'Confirm with my bank',
    screen: 'Test authentication',
    complete: 'Complete',
    fail: 'Fail',
    failed: 'Your order could not be completed',
    why: 'Your bank did not confirm the payment.',
  },
  fr: {
    waiting: 'Encore une étape : votre banque',
    confirm: 'Confirmer auprès de ma banque',
    screen: 'Authentification de test',
    complete: 'Valider',
    fail: 'Refuser',
    failed: "Votre commande n'a pas pu être finalisée",
    why: "Votre banque n'a pas confirmé le paiement.",
  },
} as const

async function orderWith3ds(page: Page, lang: 'en' | 'fr') {
  const t = T[lang]
  await designShout(page, lang)
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await expect(page).toHaveURL(new RegExp(`^[^?]*${PREFIX[lang]}/${EVENT}/order/checkout$`))
  await fillContact(page, lang, `three-ds-${lang}@example.com`)
  await fillCard(page, lang, '4000 0027 6000 3184')
  await page.getByRole('button', { name: t.review }).click()
  await expect(page).toHaveURL(/\/order\/review$/)
  await acceptAgreements(page, lang)
  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect(page).toHaveURL(new RegExp(`${PREFIX[lang]}/${EVENT}/order/confirmation$`), {
    timeout: 30_000,
  })
  const s = SCREEN[lang]
  await expect(page.getByRole('heading', { name: s.waiting })).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: s.confirm }).click()
  const screen = page.getByRole('dialog', { name: s.screen })
  await expect(screen).toBeVisible()
  return screen
}

for (const lang of ['en'] as Lang[]) {
  test(`a shopper confirms the payment with the test authentication and sees the order confirmed (${lang})`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ locale: 'en-US' })
    const page = await context.newPage()
    const screen = await orderWith3ds(page, 'en')
    await screen.getByRole('button', { name: SCREEN.en.complete }).click()
    await expect(page.getByRole('heading', { name: T.en.booked })).toBeVisible({
      timeout: 30_000,
    })
    await expect(page.getByText('Your order is confirmed.')).toBeVisible()
    await context.close()
  })
}

test('a shopper who fails the test authentication reads why, in French', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' })
  const page = await context.newPage()
  const screen = await orderWith3ds(page, 'fr')
  await screen.getByRole('button', { name: SCREEN.fr.fail }).click()
  await expect(page.getByRole('heading', { name: SCREEN.fr.failed })).toBeVisible({
    timeout: 30_000,
  })
  await expect(page.getByText(SCREEN.fr.why)).toBeVisible()
  await context.close()
})
