import { rmSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import {
  acceptAgreements,
  designShout,
  EVENT,
  fillCard,
  fillContact,
  photoFile,
  pickSlots,
  T,
} from './helpers'
import { newProfileDir, openProfile, START_URL, waitForServiceWorker } from './pwa-helpers'

const t = T.en

// Resume: the app closed and opened again comes back to the same step with everything entered.
test('closed at the customize step and reopened from the start URL: same step, same data', async () => {
  const dir = newProfileDir()
  try {
    let { context, page } = await openProfile(dir)
    await page.goto(`/${EVENT}`)
    await waitForServiceWorker(page)
    await page.getByRole('button', { name: t.choose }).click()
    await page.getByRole('button', { name: t.continue }).click()
    await page.getByRole('button', { name: t.chooseTemplate }).click()
    await page.getByRole('button', { name: t.continue }).click()
    await expect(page).toHaveURL(/\/design\/customize$/)
    await page.locator('input[type=file]').setInputFiles(await photoFile())
    await expect(page.locator('img.upload__preview')).toBeVisible()
    await page.getByLabel(t.to).fill('Maman')
    await page.getByLabel(t.message, { exact: true }).fill('Happy day!\nWe love you')
    await page.getByLabel(t.from).fill('Léa')
    await page.getByRole('button', { name: t.create }).click()
    await expect(page.locator('img.generated')).toBeVisible({ timeout: 30_000 })
    const preview = await page.locator('img.generated').getAttribute('src')
    await context.close()

    ;({ context, page } = await openProfile(dir))
    await page.goto(START_URL)
    await expect(page).toHaveURL(new RegExp(`/${EVENT}/design/customize$`))
    await expect(page.getByLabel(t.to)).toHaveValue('Maman')
    await expect(page.getByLabel(t.message, { exact: true })).toHaveValue('Happy day!\nWe love you')
    await expect(page.getByLabel(t.from)).toHaveValue('Léa')
    await expect(page.locator('img.upload__preview')).toHaveAttribute(
      'src',
      /\/api\/v1\/content\/files\//,
    )
    await expect(page.locator('img.generated')).toHaveAttribute('src', preview ?? '')
    // the upload stays on the server: its address comes back, not the local preview of the file
    // the billboard and the template are still chosen: the next step opens
    await page.getByRole('button', { name: t.continue }).click()
    await expect(page).toHaveURL(/\/order\/select-shouts$/)
    await context.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the app closed while the order is Processing shows the confirmation when reopened', async () => {
  const dir = newProfileDir()
  try {
    let { context, page } = await openProfile(dir)
    await page.goto('/')
    await waitForServiceWorker(page)
    await designShout(page, 'en')
    await pickSlots(page, 1)
    await page.getByRole('button', { name: t.continue }).click()
    await fillContact(page, 'en', 'closed@example.com')
    await fillCard(page, 'en')
    await page.getByRole('button', { name: t.review }).click()
    await acceptAgreements(page, 'en')

    // the status answers never arrive: the order stays Processing on this device
    await context.route('**/orders/*/status', (route) => route.abort('internetdisconnected'))
    const placed = page.waitForResponse(
      (r) => r.url().endsWith('/api/v1/order/orders') && r.request().method() === 'POST',
    )
    await page.getByRole('button', { name: t.placeOrder }).click()
    expect((await placed).status()).toBeLessThan(300)
    await expect(page.getByRole('button', { name: /Placing your order/ })).toBeVisible()
    await context.close()

    ;({ context, page } = await openProfile(dir))
    await page.goto(START_URL)
    await expect(page).toHaveURL(new RegExp(`/${EVENT}/order/confirmation$`))
    await expect(page.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })
    await context.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
