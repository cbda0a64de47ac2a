import { gzipSync } from 'node:zlib'
import { expect, type Page, test } from '@playwright/test'
import { FIRST_SCREEN_BUDGET_BYTES as BUDGET_BYTES } from '../../src/app/lib/first-screen.ts'
import { EVENT } from './helpers.ts'

// The first screen's JavaScript stays under 125 KB gzipped (map, Stripe, the later steps and the
// rest of the catalog load lazily), on the home page and on the flow's first step, where the QR code
// on a billboard lands. Every script loaded until the network is idle counts. `npm run size` shows
// what the first screen's scripts hold, module by module.
// Few requests, in few round trips. The location step from a QR code once took 28 scripts;
// now the entry, what it shares with the app, the bundler's runtime, the app (React, the router and
// the first screens together) and the first part of the catalog (the footer's code waits for idle).
const MAX_SCRIPTS = 6

async function firstScreenScripts(page: Page, path: string, ready: () => Promise<void>) {
  const scripts = new Map<string, number>()
  const requests = new Map<string, number>()
  const loaded: string[] = []
  page.on('request', (request) => {
    loaded.push(new URL(request.url()).pathname)
    const type = request.resourceType()
    requests.set(type, (requests.get(type) ?? 0) + 1)
  })
  page.on('response', async (response) => {
    const type = response.request().resourceType()
    if (type !== 'script') return
    const body = await response.body().catch(() => null)
    if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body).length)
  })
  await page.goto(path)
  await ready()
  await page.waitForLoadState('networkidle')
  const total = [...scripts.values()].reduce((a, b) => a + b, 0)
  console.log(
    `${path}: ${scripts.size} scripts, ${total} B gzipped, ${BUDGET_BYTES - total} B under the budget\n` +
      [...scripts].map(([p, size]) => `  ${p} ${size} B`).join('\n') +
      `\n  requests: ${[...requests.values()].reduce((a, b) => a + b, 0)} (${[...requests]
        .map(([type, n]) => `${n} ${type}`)
        .join(', ')})`,
  )
  expect(scripts.size).toBeLessThanOrEqual(MAX_SCRIPTS)
  expect([...scripts.keys()].some((p) => p.includes('billboard-map'))).toBe(false)
  expect([...scripts.keys()].some((p) => p.includes('stripe'))).toBe(false)
  // The billboard player is its own chunk, never on the shop's first screen
  expect([...scripts.keys()].some((p) => /\/assets\/play[.-]/.test(p))).toBe(false)
  // Nor is the operators' console (its code and its catalogs)
  expect([...scripts.keys()].some((p) => /\/assets\/ops[./-]/.test(p))).toBe(false)
  // Nor are the advertisers' pages: their shared chunks and stylesheet (assets/advertisers-…) and
  // their routes' chunks, named by the route files (see vite.config.ts)
  const advertisers =
    /\/assets\/(advertisers|advertise|advertiser-loaders|account|_advertiser|campaigns\.\w+|_proposalGuid)-[\w-]+\.(js|css)$/
  expect(loaded.filter((p) => advertisers.test(p))).toEqual([])
  return total
}

test('the home page loads under 125 KB of gzipped JavaScript', async ({ page }) => {
  const total = await firstScreenScripts(page, '/', () =>
    expect(page.getByRole('heading', { name: 'Share the Love' })).toBeVisible(),
  )
  expect(total).toBeLessThan(BUDGET_BYTES)
})

test("the flow's first step, from a billboard's QR code, loads under 125 KB of gzipped JavaScript", async ({
  page,
}) => {
  const total = await firstScreenScripts(page, `/${EVENT}?device=paris-opera-1`, async () => {
    await expect(page).toHaveURL(/\/design\/location/)
    await expect(page.getByRole('button', { name: /^Selected: Place de l'Opéra/ })).toBeVisible()
  })
  expect(total).toBeLessThan(BUDGET_BYTES)
})

test("the server's first screen is painted before the app's code is asked for", async ({
  page,
}) => {
  // The page is there to read without the app: its code (React, the router, the first screens) is
  // fetched once the first screen is painted, never ahead of it (src/app/main.tsx). A module the
  // entry shares with the app, bundled into the app's chunk, would make the entry wait for it.
  await page.goto(`/${EVENT}/design/location`)
  await page.waitForLoadState('networkidle')
  const { paint, app } = await page.evaluate(() => ({
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    app:
      performance
        .getEntriesByType('resource')
        .find((e) => /\/assets\/app-[\w-]+\.js$/.test(new URL(e.name).pathname))?.startTime ?? null,
  }))
  expect(paint).not.toBeNull()
  expect(app).not.toBeNull()
  expect(app as number).toBeGreaterThanOrEqual(paint as number)
})
