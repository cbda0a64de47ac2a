import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { EVENT } from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

// Update flow: a new build deployed while the app is open. The server serves dist/ from disk,
// so building again in place (old chunks kept, KEEP_OLD_ASSETS) is a deploy. Its own project runs
// it after every other spec (playwright.config.ts).
test('a new build deployed while the app is open: the update prompt, and accepting reloads to it', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await page.goto(`/${EVENT}`)
  await waitForServiceWorker(page)
  const before = await page.locator('html').getAttribute('data-app-version')
  expect(before).toBeTruthy()
  await expect(page.getByText('A new version is available')).toHaveCount(0)

  const next = `e2e-${Date.now()}`
  const vite = join(process.cwd(), 'node_modules/vite/bin/vite.js')
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'error'], {
    env: { ...process.env, APP_VERSION: next, KEEP_OLD_ASSETS: '1' },
    stdio: 'ignore',
  })

  // the hourly check, run now
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration()
    await registration?.update()
  })
  await expect(page.getByText('A new version is available')).toBeVisible({ timeout: 30_000 })
  // the page has not reloaded by itself
  await expect(page.locator('html')).toHaveAttribute('data-app-version', before ?? '')

  await page.getByRole('button', { name: 'Reload' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-app-version', next, { timeout: 30_000 })
  await expect(page).toHaveURL(new RegExp(`/${EVENT}/design/location$`))
  await expect(page.getByText('A new version is available')).toHaveCount(0)
})
