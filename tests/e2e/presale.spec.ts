import { expect, test } from '@playwright/test'
import { acceptAgreements, fillCard, fillContact, photoFile, screenshot, T } from './helpers'

// A branded event whose second week is presale (demo catalogue: share-your-dragon-france): those
// slots are confirmed 3 days before they play, so the order is placed under review with a date.
test('a presale slot on a branded event is placed under review with its confirmation date', async ({
  page,
}) => {
  const t = T.en
  await page.goto('/share-your-dragon-france')
  await page.getByRole('button', { name: t.choose }).click()
  await page.getByRole('button', { name: t.continue }).click()
  await page.getByRole('button', { name: t.chooseTemplate }).click()
  await page.getByRole('button', { name: t.continue }).click()
  await page.locator('input[type=file]').setInputFiles(await photoFile())
  await expect(page.locator('img.upload__preview')).toBeVisible()
  await page.getByLabel(t.to).fill('Théo')
  await page.getByLabel(t.from).fill('Mamie')
  await page.getByRole('button', { name: t.create }).click()
  await expect(page.locator('img.generated')).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: t.continue }).click()

  // Spec §9: the presale is announced, with the days of instant confirmation until it
  // starts, written in the spec's display format (in French and German their own)
  await expect(page.getByTestId('presale-notice')).toContainText(
    /Shout times in the next \d+ days, before \d\d-\d\d-\d{4} \d\d:\d\d (AM|PM), are confirmed instantly\./,
  )
  await expect(page.getByTestId('presale-notice')).toContainText(
    'Later times are presale: they are confirmed 3 days before they play.',
  )
  await page.goto('/fr/share-your-dragon-france/order/select-shouts')
  await expect(page.getByTestId('presale-notice')).toContainText(
    /Les horaires des \d+ prochains jours, avant le \d\d\/\d\d\/\d{4} \d\d:\d\d, sont confirmés immédiatement\./,
  )
  await page.goto('/de/share-your-dragon-france/order/select-shouts')
  await expect(page.getByTestId('presale-notice')).toContainText(
    /Shout-Zeiten in den nächsten \d+ Tagen, vor dem \d\d\.\d\d\.\d\d, \d\d:\d\d, werden sofort bestätigt\./,
  )
  await page.goto('/share-your-dragon-france/order/select-shouts')

  // a day in the second week
  await page.locator('.days button').nth(9).click()
  await page.locator('button.slot').first().click()
  await expect(
    page.getByText('Remaining dates confirmed 3 day(s) before the selected time'),
  ).toBeVisible()
  // the event's currency, written the English way
  await expect(page.locator('.action-bar')).toContainText('€ 25.00')
  await page.getByRole('button', { name: t.continue }).click()

  await fillContact(page, 'en', 'presale@example.com')
  // sponsored event: sharing with the sponsor is offered
  await page.getByLabel('Share my contact details with Dragon Studios').check()
  await fillCard(page, 'en')
  await page.getByRole('button', { name: t.review }).click()
  await acceptAgreements(page, 'en')
  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect(
    page.getByText(/Your order is under review\. It will be confirmed by .+\./),
  ).toBeVisible({
    timeout: 30_000,
  })
  await screenshot(page, 'en-confirmation-under-review')
})
