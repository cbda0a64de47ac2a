import { gzipSync } from 'node:zlib'
import { expect, test } from '@playwright/test'

// issue 6: the first screen's JavaScript stays under 150 KB gzipped (map and Stripe load lazily).
const BUDGET_BYTES = 150 * 1024

test('the first screen loads under 150 KB of gzipped JavaScript', async ({ page }) => {
  const scripts = new Map<string, number>()
  page.on('response', async (response) => {
    const type = response.request().resourceType()
    if (type !== 'script') return
    const body = await response.body().catch(() => null)
    if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body).length)
  })
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Share the Love' })).toBeVisible()
  await page.waitForLoadState('networkidle')
  const total = [...scripts.values()].reduce((a, b) => a + b, 0)
  console.log(
    `first screen: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzipped\n` +
      [...scripts].map(([path, size]) => `  ${path} ${(size / 1024).toFixed(1)} KB`).join('\n'),
  )
  expect([...scripts.keys()].some((p) => p.includes('billboard-map'))).toBe(false)
  expect([...scripts.keys()].some((p) => p.includes('stripe'))).toBe(false)
  expect(total).toBeLessThan(BUDGET_BYTES)
})
