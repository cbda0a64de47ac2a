import { type Browser, expect, type Page, test } from '@playwright/test'
import {
  acceptAgreements,
  EVENT,
  expectAccessible,
  fillCard,
  fillContact,
  newPage,
  photoFile,
  pickSlots,
  T,
} from './helpers'
import { OPS_ADMIN, OPS_PASSWORD, printedLinkPath, signIn } from './ops-helpers'

// An operator signs in from the printed link, approves a flagged order and
// refuses another; the shopper's confirmation page shows each outcome; axe clean on every console
// page. Console at 390x844 (the config's phone) and at 1280x800.

/** A shopper's order whose message moderation flags (profanity: spec §5), so it waits for review. */
async function placeFlaggedOrder(browser: Browser, email: string): Promise<Page> {
  const page = await newPage(browser)
  const t = T.en
  await page.goto(`/${EVENT}`)
  await page.getByRole('button', { name: t.choose }).click()
  await page.getByRole('button', { name: t.continue }).click()
  await page.getByRole('button', { name: t.chooseTemplate }).click()
  await page.getByRole('button', { name: t.continue }).click()
  await page.locator('input[type=file]').setInputFiles(await photoFile())
  await expect(page.locator('img.upload__preview')).toBeVisible()
  await page.getByLabel(t.to).fill('Maman')
  await page.getByLabel(t.message, { exact: true }).fill('Happy birthday, asshole')
  await page.getByLabel(t.from).fill('Léa')
  await page.getByRole('button', { name: t.create }).click()
  // the shop says the words will be reviewed; the shopper orders it anyway
  const flagged = page.getByRole('dialog', { name: "This content can't be shown" })
  await expect(flagged).toBeVisible({ timeout: 30_000 })
  await flagged.getByRole('button', { name: 'Close' }).click()
  await page.getByRole('button', { name: t.continue }).click()
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', email)
  await fillCard(page, 'en')
  await page.getByRole('button', { name: t.review }).click()
  await acceptAgreements(page, 'en')
  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect(
    page.getByText('Your order is under review. We will confirm it by email.'),
  ).toBeVisible({ timeout: 30_000 })
  return page
}

const reviewCard = (page: Page, email: string) =>
  page.getByRole('article').filter({ hasText: email })

test('an operator signs in from the printed link, approves one flagged order and refuses another', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000)
  const kept = await placeFlaggedOrder(browser, 'kept@example.com')
  const refused = await placeFlaggedOrder(browser, 'refused@example.com')

  // the one-time link: a password too short is refused beside the field, then one that will do
  await page.goto(printedLinkPath())
  await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible()
  await expectAccessible(page)
  await page.getByLabel('New password').fill('short')
  await page.getByLabel('The same password again').fill('short')
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page.getByText('Use at least 12 characters.')).toBeVisible()
  await page.getByLabel('New password').fill(OPS_PASSWORD)
  await page.getByLabel('The same password again').fill(OPS_PASSWORD)
  await page.getByRole('button', { name: 'Set password' }).click()

  // sign-in: a wrong password is refused beside the field
  await expect(page).toHaveURL(/\/ops\/sign-in/)
  await expect(page.getByText('Your password is set. Sign in with it.')).toBeVisible()
  await expectAccessible(page)
  await page.getByLabel('E-mail').fill(OPS_ADMIN)
  await page.getByLabel('Password').fill('not the password at all')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByText('Wrong e-mail or password')).toBeVisible()
  await page.getByLabel('Password').fill(OPS_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()

  // the review queue: both orders, with why they were flagged
  await expect(page).toHaveURL(/\/ops\/review$/)
  await expect(page.getByRole('heading', { name: 'Review queue' })).toBeVisible()
  await expect(page.getByText(OPS_ADMIN)).toBeVisible()
  await expect(reviewCard(page, 'kept@example.com')).toBeVisible()
  await expect(reviewCard(page, 'refused@example.com')).toContainText('Why it was flagged')
  await expectAccessible(page)

  await reviewCard(page, 'kept@example.com').getByRole('button', { name: 'Approve' }).click()
  await expect(page.getByText(/approved: it is confirmed and will play/)).toBeVisible()
  await expect(reviewCard(page, 'kept@example.com')).toHaveCount(0)

  const card = reviewCard(page, 'refused@example.com')
  await card.getByRole('button', { name: 'Refuse…' }).click()
  await card.getByRole('button', { name: 'Refuse and refund' }).click()
  await expect(card.getByText('Say why: the shopper receives this reason.')).toBeVisible()
  await expectAccessible(page)
  const reason = 'The message insults the person it is for.'
  await card.getByLabel('Reason for refusing (the shopper receives it)').fill(reason)
  await card.getByRole('button', { name: 'Refuse and refund' }).click()
  await expect(page.getByText(/refused: cancelled and refunded/)).toBeVisible()
  await expect(page.getByText('Nothing to review.')).toBeVisible()

  // the shoppers see each outcome on their confirmation pages
  await kept.reload()
  await expect(kept.getByText('Your order is confirmed.')).toBeVisible({ timeout: 30_000 })
  await refused.reload()
  await expect(refused.getByText('Your order was cancelled', { exact: true })).toBeVisible({
    timeout: 30_000,
  })
  await expect(
    refused.getByText(/Your order was cancelled and your payment of .+ refunded\./),
  ).toBeVisible()
  await expect(refused.getByText(reason)).toBeVisible()

  // signing out ends the session: the console asks to sign in again
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByText('You are signed out.')).toBeVisible()
  await page.goto('/ops/review')
  await expect(page).toHaveURL(/\/ops\/sign-in\?redirect=/)
})

test.describe('at a desk', () => {
  test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false })

  test('the console in French at 1280x800: sign-in leads back to the page asked for', async ({
    page,
  }) => {
    await page.goto('/fr/ops/review')
    await expect(page).toHaveURL(/\/fr\/ops\/sign-in\?redirect=/)
    await expect(page.getByRole('heading', { name: 'Se connecter' })).toBeVisible()
    await expectAccessible(page)
    await page.getByLabel('E-mail').fill(OPS_ADMIN)
    await page.getByLabel('Mot de passe').fill(OPS_PASSWORD)
    await page.getByRole('button', { name: 'Se connecter' }).click()
    await expect(page).toHaveURL(/\/fr\/ops\/review$/)
    await expect(page.getByRole('heading', { name: 'File de modération' })).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible()
    await expectAccessible(page)
    // admins' pages: the audit log shows the sign-ins and the decisions of the first test
    await page.getByRole('link', { name: "Journal d'audit" }).click()
    await expect(page).toHaveURL(/\/fr\/ops\/audit$/)
    await expect(page.getByRole('heading', { name: "Journal d'audit" })).toBeVisible()
    // in words, in the operator's language
    await expect(page.getByRole('cell', { name: 'A approuvé une commande' }).first()).toBeVisible()
    await expect(page.getByRole('cell', { name: 'A annulé une commande' }).first()).toBeVisible()
    await page.getByLabel('Quoi').selectOption({ label: 'A approuvé une commande' })
    await page.getByRole('button', { name: 'Filtrer' }).click()
    await expect(page).toHaveURL(/action=approve/)
    await expect(page.getByRole('cell', { name: 'A annulé une commande' })).toHaveCount(0)
    await expectAccessible(page)
  })

  test('an address the console does not have says so', async ({ page }) => {
    await signIn(page)
    await expect(page).toHaveURL(/\/ops\/review$/)
    await page.goto('/ops/nowhere')
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    await expectAccessible(page)
  })
})
