import { expect, test } from '@playwright/test'
import {
  acceptAgreements,
  designShout,
  EVENT,
  fillCard,
  fillContact,
  pickSlots,
  screenshot,
  T,
} from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

const t = T.en

test('a declined card is explained beside the card form', async ({ page }) => {
  await designShout(page, 'en')
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', 'declined@example.com')
  await fillCard(page, 'en', '4000 0000 0000 0002')
  await page.getByRole('button', { name: t.review }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible()
  await expect(page).toHaveURL(/\/order\/checkout$/)
  await screenshot(page, 'en-checkout-declined')
})

test('contact fields show the spec messages beside them', async ({ page }) => {
  await designShout(page, 'en')
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await page.getByLabel(t.email, { exact: true }).fill('not-an-email')
  await page.getByLabel(t.phone, { exact: true }).fill('12345')
  await page.getByRole('button', { name: t.review }).click()
  await expect(page.getByText('First Name should not be empty')).toBeVisible()
  await expect(page.getByText('Last Name should not be empty')).toBeVisible()
  await expect(page.getByText('Email Address is invalid')).toBeVisible()
  // a Paris billboard: the number is read as French, with France's example
  await expect(
    page.getByText(
      'Phone number format invalid, try: 06 12 34 56 78, or an international number starting with +',
    ),
  ).toBeVisible()
  await screenshot(page, 'en-checkout-errors')
})

test('each promo message shows beside the promo field', async ({ page, context }) => {
  await designShout(page, 'en')
  await pickSlots(page, 2)
  await page.getByRole('button', { name: t.continue }).click()
  const field = page.getByRole('textbox', { name: 'Promo code' })
  const apply = page.getByRole('button', { name: 'Apply' })

  await field.fill('NOSUCHCODE')
  await apply.click()
  await expect(page.getByText('Promo Code Invalid')).toBeVisible()

  await field.fill('DRAGONFR')
  await apply.click()
  await expect(page.getByText('This promo code should not be used for this event')).toBeVisible()

  // offline once the worker has the app's code, as in every offline test (docs/development.md)
  await waitForServiceWorker(page)
  await context.setOffline(true)
  await field.fill('LOVE10')
  await apply.click()
  await expect(page.getByText('There was a problem with your promo code LOVE10')).toBeVisible()
  await expect(
    page.locator('form').getByText(/Please try entering it again at checkout/),
  ).toBeVisible()
  await context.setOffline(false)

  await apply.click()
  await expect(page.getByText(/Promo code LOVE10 applied/)).toBeVisible()
  // 2 × € 40.00 = € 80.00, 10% off: € 72.00 (the Paris billboards sell a euro event)
  await expect(page.locator('.totals__total')).toContainText('€ 72.00')
  await screenshot(page, 'en-checkout-promo')
})

test('a 100% promo makes a free order with no card entry, and its code is once per customer', async ({
  page,
}) => {
  await designShout(page, 'en')
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', 'free@example.com')
  await page.getByRole('textbox', { name: 'Promo code' }).fill('FIRSTFREE')
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByText('Your order is free: no card needed.')).toBeVisible()
  await expect(page.getByLabel(t.cardNumber, { exact: true })).toHaveCount(0)
  await expect(page.locator('.totals__total')).toContainText('€ 0.00')
  await screenshot(page, 'en-checkout-free')
  await page.getByRole('button', { name: t.review }).click()
  await acceptAgreements(page, 'en')
  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect(page.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })

  // the same shopper again: FIRSTFREE is once per customer for this event
  await page.getByRole('button', { name: 'Start another shout' }).click()
  await expect(page).toHaveURL(new RegExp(`/${EVENT}/design/location$`))
  await designShout(page, 'en')
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', 'free@example.com')
  await page.getByRole('textbox', { name: 'Promo code' }).fill('FIRSTFREE')
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByText('This promo code should be used once for this event')).toBeVisible()
})

test('a 100% percent promo from the link makes the order free', async ({ page }) => {
  await designShout(page, 'en')
  await pickSlots(page, 3)
  await page.goto(`/${EVENT}/order/checkout?promo=FREELOVE`)
  await expect(page.getByText(/Promo code FREELOVE applied/)).toBeVisible()
  await expect(page.getByText('Your order is free: no card needed.')).toBeVisible()
  await expect(page.locator('.totals__total')).toContainText('€ 0.00')
})

test('a bad promo in the link opens the promo-code-error modal', async ({ page }) => {
  await page.goto(`/${EVENT}/design/location?promo=BOGUS1`)
  const dialog = page.getByRole('dialog', { name: 'Promo code error' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('There was a problem with your promo code BOGUS1')
  await expect(dialog).toContainText('Promo Code Invalid')
  await screenshot(page, 'en-modal-promo-error')
  await dialog.getByRole('button', { name: 'OK' }).click()
  await expect(dialog).toBeHidden()
  // a repeated promo parameter is not a plain string: ignored
  await page.goto(`/${EVENT}/design/location?promo=A1&promo=B2`)
  await expect(page.getByRole('heading', { name: 'Choose a billboard' })).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('a slot bought by someone else between select and review is reported', async ({
  page,
  browser,
}) => {
  await designShout(page, 'en')
  const picked = await pickSlots(page, 2)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', 'slow@example.com')
  await fillCard(page, 'en')
  await page.getByRole('button', { name: t.review }).click()
  await expect(page).toHaveURL(/\/order\/review$/)

  // another shopper, in another browser, buys the same first slot
  const other = await browser.newContext()
  const rival = await other.newPage()
  await designShout(rival, 'en')
  // The same two times on the same day (late in the day the first shopper's two may be on the next
  // day), then the second one let go: the rival buys the first time only.
  expect(await pickSlots(rival, 2)).toEqual(picked)
  const second = rival.locator('button.slot').getByText(picked[1] ?? '', { exact: true })
  await second.click()
  await expect(second).toHaveAttribute('aria-pressed', 'false')
  await rival.getByRole('button', { name: t.continue }).click()
  await fillContact(rival, 'en', 'fast@example.com')
  await fillCard(rival, 'en')
  await rival.getByRole('button', { name: t.review }).click()
  await acceptAgreements(rival, 'en')
  await rival.getByRole('button', { name: t.placeOrder }).click()
  await expect(rival.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })
  await other.close()

  await acceptAgreements(page, 'en')
  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect(
    page.getByText(/^Time slot\(s\) taken .+\. Please go back and select another\.$/),
  ).toBeVisible({
    timeout: 30_000,
  })
  await screenshot(page, 'en-review-slot-taken')
  await page.getByRole('link', { name: 'Choose other times' }).click()
  await expect(page).toHaveURL(/\/order\/select-shouts$/)
  await expect(page.getByText(/no longer available and was removed/)).toBeVisible()
})
