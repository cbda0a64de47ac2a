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

const t = T.en

test('a dropped connection while placing the order can be retried, and a placed order stays placed', async ({
  page,
  context,
}) => {
  await designShout(page, 'en')
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', 'retry@example.com')
  await fillCard(page, 'en')
  await page.getByRole('button', { name: t.review }).click()
  await acceptAgreements(page, 'en')

  // spec §8: a failure that is not an API answer shows the catalogue's message
  await context.setOffline(true)
  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect(page.getByText('Sorry, an unknown error occurred')).toBeVisible()
  await screenshot(page, 'en-review-offline')
  await context.setOffline(false)

  // the retry sends the same order with the same Idempotency-Key
  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect(page.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })
  const code = await page.locator('.confirm__code strong').textContent()

  // the confirmation survives a reload, and the flow leads back to it (content and times are final)
  await page.reload()
  await expect(page.locator('.confirm__code strong')).toHaveText(code ?? '')
  await page.goto(`/${EVENT}/order/select-shouts`)
  await expect(page).toHaveURL(new RegExp(`/${EVENT}/order/confirmation$`))

  // start another shout: a fresh order
  await page.getByRole('button', { name: 'Start another shout' }).click()
  await expect(page).toHaveURL(new RegExp(`/${EVENT}/design/location$`))
  await expect(page.getByText('No billboard chosen yet')).toBeVisible()
})
