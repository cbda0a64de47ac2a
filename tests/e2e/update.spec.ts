import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { designShout, EVENT, expectAccessible, fillContact, pickSlots, T } from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

// Update flow: a new build deployed while the app is open. The server serves dist/ from disk,
// so building again in place (old chunks kept, KEEP_OLD_ASSETS) is a deploy. Its own project runs
// it after every other spec (playwright.config.ts).

const PROMPT = {
  en: 'A new version is ready — reload to use it.',
  fr: "Une nouvelle version est prête — rechargez pour l'utiliser.",
  de: 'Eine neue Version ist bereit — neu laden, um sie zu nutzen.',
}

const version = (page: Page) => page.locator('html').getAttribute('data-app-version')

test('a new build deployed mid-order: offered on a calm page, never while paying, and the reload keeps the draft', async ({
  page,
  context,
}) => {
  test.setTimeout(480_000)
  const t = T.en
  const prompt = page.getByText(PROMPT.en)
  await designShout(page, 'en')
  await waitForServiceWorker(page)
  const before = await version(page)
  expect(before).toBeTruthy()
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await expect(page).toHaveURL(/\/order\/checkout$/)
  await fillContact(page, 'en')
  await expect(prompt).toHaveCount(0)

  const next = `e2e-${Date.now()}`
  const vite = join(process.cwd(), 'node_modules/vite/bin/vite.js')
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'error'], {
    env: { ...process.env, APP_VERSION: next, KEEP_OLD_ASSETS: '1' },
    stdio: 'ignore',
  })
  // the hourly check, run now; the new worker installs and waits
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration()
    await registration?.update()
  })
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration()
          return registration?.waiting?.state ?? null
        }),
      { timeout: 60_000 },
    )
    .toBe('installed')

  // the shout times: a calm page, where the offer shows
  await page.goBack()
  await expect(page).toHaveURL(/\/order\/select-shouts$/)
  await expect(prompt).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('region', { name: 'New version' })).toBeVisible()
  // the banner is fixed to the bottom of the screen: the screen as the shopper sees it
  await page.screenshot({ path: 'tests/e2e/screenshots/update-prompt-en.png' })
  await expectAccessible(page)
  // the payment step: the offer waits, what was typed is still there
  await page.getByRole('button', { name: t.continue }).click()
  await expect(page).toHaveURL(/\/order\/checkout$/)
  await expect(page.getByLabel(t.email, { exact: true })).toHaveValue('lea@example.com')
  await expect(prompt).toHaveCount(0)
  // the page has not reloaded by itself
  expect(await version(page)).toBe(before)

  // "Not now" puts it away on this page
  await page.goBack()
  await expect(prompt).toBeVisible()
  await page.getByRole('button', { name: 'Not now' }).click()
  await expect(prompt).toHaveCount(0)

  // in French and German too, in other tabs, which find the new version waiting
  for (const lang of ['fr', 'de'] as const) {
    const tab = await context.newPage()
    await tab.goto(`/${lang}/${EVENT}`)
    await expect(tab).toHaveURL(new RegExp(`/${lang}/${EVENT}/design/location$`))
    await expect(tab.getByText(PROMPT[lang])).toBeVisible({ timeout: 30_000 })
    await tab.screenshot({ path: `tests/e2e/screenshots/update-prompt-${lang}.png` })
    await tab.close()
  }

  // the design step, opened again: offered again; the message changed just before the reload is kept
  await page.goto(`/${EVENT}/design/customize`)
  await expect(prompt).toBeVisible({ timeout: 30_000 })
  const message = page.getByLabel(t.message, { exact: true })
  await expect(message).toHaveValue('Happy day!\nWe love you')
  await message.fill('Happy day!\nWe love you so much')
  await page.getByRole('button', { name: 'Reload' }).click()

  await expect(page.locator('html')).toHaveAttribute('data-app-version', next, { timeout: 30_000 })
  await expect(page).toHaveURL(/\/design\/customize$/)
  await expect(page.getByLabel(t.message, { exact: true })).toHaveValue(
    'Happy day!\nWe love you so much',
  )
  await expect(page.getByLabel(t.to)).toHaveValue('Maman')
  await expect(prompt).toHaveCount(0)
})
