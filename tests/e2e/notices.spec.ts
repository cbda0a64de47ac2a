import { expect, test } from '@playwright/test'
import {
  acceptAgreements,
  designShout,
  EVENT,
  fillContact,
  type Lang,
  PREFIX,
  pickSlots,
  screenshot,
  T,
} from './helpers'

const t = T.en

// The spec's notices and figures that no screen showed.
test('first shout free on select-shouts and checkout, and the confirmation totals', async ({
  page,
}) => {
  await designShout(page, 'en')
  // the promo comes with the link (spec §4); FIRSTFREE takes one slot's price off (spec §5)
  await page.goto(`/${EVENT}/order/select-shouts?promo=FIRSTFREE`)
  const free = page.getByText('Your first shout is free with the promo code FIRSTFREE.')
  await expect(free).toBeVisible()

  await screenshot(page, 'en-select-shouts-notices')

  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await expect(page).toHaveURL(/\/order\/checkout/)
  await expect(free).toBeVisible()
  await expect(page.getByText('Your order is free: no card needed.')).toBeVisible()
  await fillContact(page, 'en', 'notices@example.com')
  await page.getByRole('button', { name: t.review }).click()
  await acceptAgreements(page, 'en')
  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect(page.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })

  // spec §3 Order (UI): subtotal, discount with its code, and total, as on review
  const totals = page.locator('.totals')
  await expect(totals).toContainText('Subtotal')
  await expect(totals).toContainText('€ 40.00')
  await expect(totals).toContainText('Discount (FIRSTFREE)')
  await expect(page.locator('.totals__total')).toContainText('€ 0.00')
  await screenshot(page, 'en-confirmation-totals')
})

test.describe('short screens (spec §9: body height under 875 px)', () => {
  test.use({ viewport: { width: 390, height: 700 } })

  for (const lang of ['en', 'fr', 'de'] as Lang[]) {
    test(`each step's title, first choice and action bar fit one screen (${lang})`, async ({
      page,
    }) => {
      const noOverflow = async () =>
        expect(
          await page.evaluate(
            () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
          ),
        ).toBe(true)
      // the step's first choice is above the action bar without scrolling
      const inFirstScreen = async (card: string) => {
        const box = await page.locator(`${card} button[aria-pressed]`).first().boundingBox()
        const bar = await page.locator('.action-bar').boundingBox()
        expect(box && bar && box.y + box.height <= bar.y).toBe(true)
      }
      await page.goto(`${PREFIX[lang]}/${EVENT}`)
      await expect(page.locator('.location__map')).toHaveCSS('height', '180px')
      await screenshot(page, `${lang}-700-location`)
      await inFirstScreen('.billboard')
      await noOverflow()
      await page.getByRole('button', { name: T[lang].choose }).click()
      await page.getByRole('button', { name: T[lang].continue }).click()
      await expect(page.getByRole('button', { name: T[lang].chooseTemplate })).toBeVisible()
      await inFirstScreen('.template')
      await noOverflow()
      await screenshot(page, `${lang}-700-template`)
    })
  }
})

test.describe('link prefetch (spec §9)', () => {
  test.use({ serviceWorkers: 'block' })

  test("the first step fetches the second's code after idle time, without a hover", async ({
    page,
  }) => {
    // the location step is the first screen: its next step's code is no part of it (the budget's
    // budget), and comes once the page has been idle for 2 s
    const template = page.waitForRequest(/\/assets\/template-[^/]*\.js$/)
    await page.goto(`/${EVENT}?device=paris-opera-1`)
    await expect(page.getByRole('button', { name: t.continue })).toBeEnabled()
    await template
  })

  test("the next step's code comes after idle time, without a hover", async ({ page }) => {
    await page.goto(`/${EVENT}`)
    await page.getByRole('button', { name: t.choose }).click()
    const customize = page.waitForRequest(/\/assets\/customize-[^/]*\.js$/)
    await page.getByRole('button', { name: t.continue }).click()
    await expect(page.getByRole('button', { name: t.chooseTemplate })).toBeVisible()
    await customize
  })
})
