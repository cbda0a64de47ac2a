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

test('offline, Place order waits for the connection, and a placed order stays placed', async ({
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

  // Offline, Place order says why it waits and nothing typed is lost. The connection drops
  // once the worker has the app's code: within the first seconds of a first visit (the worker still
  // installing) the review page's lazy parts cannot load offline, and the chunk-error reload then
  // showed the browser's offline page (seen once in CI; docs/development.md, "Traps in the app").
  await waitForServiceWorker(page)
  await context.setOffline(true)
  await expect(
    page.getByText('You are offline: placing the order needs a connection'),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: t.placeOrder })).toBeDisabled()
  await expect(page.getByRole('status').filter({ hasText: 'You are offline' })).toBeVisible()
  await screenshot(page, 'en-review-offline')
  await context.setOffline(false)

  // back online the order is placed
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
