import { expect, test } from '@playwright/test'
import { BILLBOARD, EVENT } from './helpers'

// Install: the manifest serves /, /fr and /de from one install, and a billboard's QR code
// (/{eventslug}?device={deviceId}, src/server/qr) opens the flow with that billboard chosen.
test('the web app manifest: one install for every language, icons, and the live event shortcut', async ({
  page,
  request,
}) => {
  await page.goto('/fr')
  const href = await page.locator('link[rel=manifest]').getAttribute('href')
  expect(href).toBe('/manifest.webmanifest')
  const res = await request.get(href ?? '')
  expect(res.ok()).toBe(true)
  const manifest = (await res.json()) as {
    name: string
    short_name: string
    start_url: string
    scope: string
    display: string
    theme_color: string
    background_color: string
    icons: Array<{ src: string; sizes: string; purpose?: string }>
    shortcuts: Array<{ url: string }>
  }
  expect(manifest.display).toBe('standalone')
  expect(manifest.scope).toBe('/')
  expect(new URL(manifest.start_url, 'http://x').pathname).toBe('/')
  expect(manifest.theme_color).toMatch(/^#/)
  expect(manifest.background_color).toMatch(/^#/)
  for (const size of ['192x192', '512x512']) {
    expect(manifest.icons.some((i) => i.sizes === size && i.purpose !== 'maskable')).toBe(true)
    expect(manifest.icons.some((i) => i.sizes === size && i.purpose === 'maskable')).toBe(true)
  }
  for (const icon of manifest.icons) expect((await request.get(icon.src)).ok()).toBe(true)

  // the shortcut opens the live event; the demo has three live (one per currency), so the home
  // page, which lists them
  const shortcut = manifest.shortcuts[0]?.url ?? ''
  await page.goto(shortcut)
  await expect(page).toHaveURL(/\/$/)
  await expect(
    page.locator('.event-card__name').filter({ hasText: 'Share the Love' }),
  ).toBeVisible()
  expect(await page.locator('.event-card__name').count()).toBeGreaterThan(1)
})

test('a billboard QR code opens the flow with that billboard chosen', async ({ page, request }) => {
  const res = await request.get(`/api/v1/spotlight/events/${EVENT}/devices?limit=200&offset=0`)
  const { devices } = (await res.json()) as {
    devices: Array<{ deviceId: string; location: string }>
  }
  const device = devices.find((d) => d.location.startsWith(BILLBOARD))
  expect(device).toBeDefined()
  await page.goto(`/${EVENT}?device=${encodeURIComponent(device?.deviceId ?? '')}`)
  await expect(page).toHaveURL(new RegExp(`/${EVENT}/design/location\\?device=`))
  await expect(page.getByText('No billboard chosen yet')).toHaveCount(0)
  await expect(page.locator('.action-bar')).toContainText(BILLBOARD)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(/\/design\/template/)
})

test('iOS Safari shows the Add to Home Screen steps once, and they can be dismissed', async ({
  browser,
}) => {
  const context = await browser.newContext({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  })
  const page = await context.newPage()
  await page.goto('/')
  const hint = page.getByRole('complementary', { name: 'Add to Home Screen' })
  await expect(hint).toContainText('tap the Share button, then choose Add to Home Screen')
  await hint.getByRole('button', { name: 'Dismiss' }).click()
  await expect(hint).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(hint).toHaveCount(0)
  await context.close()
})
