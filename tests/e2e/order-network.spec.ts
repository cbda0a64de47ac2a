import { expect, test } from '@playwright/test'
import { acceptAgreements, designShout, fillCard, fillContact, pickSlots, T } from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

const t = T.en

// The answer to Place order is lost (the network drops right after the request left); the
// app sends the same request again with the same Idempotency-Key once the network is back, and the
// server answers with the one order it made.
test('the network cut right after Place order, then restored: one order, and the confirmation', async ({
  page,
  context,
}) => {
  await page.goto('/')
  await waitForServiceWorker(page)
  await designShout(page, 'en')
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', 'dropped@example.com')
  await fillCard(page, 'en')
  await page.getByRole('button', { name: t.review }).click()
  await acceptAgreements(page, 'en')

  const sent: Array<{ key: string | null; guid: string; delivered: boolean }> = []
  await context.route('**/api/v1/order/orders', async (route) => {
    const key = route.request().headers()['idempotency-key'] ?? null
    // the request reaches the server...
    const response = await route.fetch()
    const body = (await response.json()) as { guid: string }
    if (sent.length === 0) {
      // ...but its answer is lost with the network
      sent.push({ key, guid: body.guid, delivered: false })
      await context.setOffline(true)
      await route.abort('internetdisconnected')
      return
    }
    sent.push({ key, guid: body.guid, delivered: true })
    await route.fulfill({ response })
  })

  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect.poll(() => sent.length).toBe(1)
  await expect(page.getByRole('status').filter({ hasText: 'You are offline' })).toBeVisible()
  await page.waitForTimeout(1500)
  await context.setOffline(false)

  await expect(page.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })
  // every request carried the key written before the first one went out; the server made one order
  expect(sent.length).toBeGreaterThanOrEqual(2)
  expect(new Set(sent.map((s) => s.key)).size).toBe(1)
  expect(sent[0]?.key).toBeTruthy()
  expect(new Set(sent.map((s) => s.guid)).size).toBe(1)
  const shown = await page.locator('.confirm__code strong').textContent()
  expect(shown?.trim().length).toBeGreaterThan(0)
})
