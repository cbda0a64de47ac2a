import { expect, test } from '@playwright/test'
import { designShout, EVENT, fillCard, fillContact, pickSlots, screenshot, T } from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

const t = T.en

// issue 4: after one visit every route of the flow renders offline (precached code, cached event).
test('after one visit, every flow route reloads offline and shows its screen', async ({
  page,
  context,
}) => {
  await page.goto('/')
  await waitForServiceWorker(page)
  await designShout(page, 'en')
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', 'offline@example.com')
  await fillCard(page, 'en')
  await page.getByRole('button', { name: t.review }).click()
  await expect(page.getByRole('heading', { name: 'Order Review' })).toBeVisible()

  await context.setOffline(true)
  const screens: Array<[string, string | RegExp]> = [
    ['/', 'Share the Gift of a Billboard'],
    [`/${EVENT}/design/location`, 'Choose a billboard'],
    [`/${EVENT}/design/template`, 'Choose a design'],
    [`/${EVENT}/design/customize`, 'Make it yours'],
    [`/${EVENT}/order/select-shouts`, 'Choose your shout times'],
    [`/${EVENT}/order/checkout`, 'Billing Info'],
    [`/${EVENT}/order/review`, 'Order Review'],
    [`/fr/${EVENT}/design/location`, 'Choisissez un panneau'],
  ]
  for (const [path, heading] of screens) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: /offline|hors ligne/ })).toBeVisible()
  }
  // the chosen billboard and the generated design come back from the device, not the network
  await page.goto(`/${EVENT}/design/location`)
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a billboard' })).toBeVisible()
  await expect(page.getByText('No billboard chosen yet')).toHaveCount(0)
  await page.goto(`/${EVENT}/design/customize`)
  await expect(page.locator('img.generated')).toBeVisible()
  await expect(page.getByLabel(t.to)).toHaveValue('Maman')
  await screenshot(page, 'en-customize-offline')
  await context.setOffline(false)
})
