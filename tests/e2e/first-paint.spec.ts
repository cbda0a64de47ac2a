import { expect, type Page, test } from '@playwright/test'
import { EVENT, EVENT_NAME } from './helpers'

// issue 4 Lighthouse: the server sends the first screen of the home page and of the location step in
// the HTML (src/server/prerender.ts), in the page's language, and the app replaces it without moving
// anything (no layout shift) once it has started.

const HOME = {
  en: 'Share the Gift of a Billboard',
  fr: 'Offrez un panneau publicitaire',
  de: 'Verschenke eine Werbetafel',
} as const

const LOCATION = {
  en: 'Choose a billboard',
  fr: 'Choisissez un panneau',
  de: 'Wähle eine Werbetafel',
} as const

test('the served HTML holds the first screen in the language of the page', async ({ request }) => {
  for (const [path, lang] of [
    ['/', 'en'],
    ['/fr', 'fr'],
    ['/de', 'de'],
  ] as const) {
    const html = await (await request.get(path)).text()
    expect(html).toContain(`<html lang="${lang}">`)
    expect(html).toContain(`<title>${HOME[lang]}</title>`)
    expect(html).toMatch(new RegExp(`<h1 class="home__title">${HOME[lang]}</h1>`))
    expect(html).toContain('class="home__lead"')
  }
  // the root follows the cookie, else the browser's languages, as the app's redirect does (spec §2)
  const byBrowser = await (
    await request.get('/', { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } })
  ).text()
  expect(byBrowser).toContain(`<h1 class="home__title">${HOME.de}</h1>`)
  const byCookie = await (
    await request.get('/', {
      headers: { 'accept-language': 'de-DE', cookie: 'i18n_redirected=fr' },
    })
  ).text()
  expect(byCookie).toContain(`<h1 class="home__title">${HOME.fr}</h1>`)

  for (const [prefix, lang] of [
    ['', 'en'],
    ['/fr', 'fr'],
    ['/de', 'de'],
  ] as const) {
    const html = await (await request.get(`${prefix}/${EVENT}/design/location`)).text()
    expect(html).toContain(`<html lang="${lang}">`)
    expect(html).toContain(`<h1 class="page__title">${LOCATION[lang]}</h1>`)
    expect(html).toContain(`<p class="page__lead">${EVENT_NAME}</p>`)
    // the route's code and the billboards are asked for with the page
    expect(html).toMatch(/<link rel="modulepreload"[^>]*href="\/assets\/location-[^"]+\.js"/)
    expect(html).toContain(`/api/v1/spotlight/events/${EVENT}/devices?`)
  }
  // an unknown event gets no pre-rendered step (the app sends it to event-not-found)
  const unknown = await (await request.get('/no-such-event/design/location')).text()
  expect(unknown).toContain('<div id="root"></div>')
  // the build's manifest the server reads is not public
  expect((await request.get('/.vite/manifest.json')).status()).toBe(404)
})

test('without JavaScript the first screen is there to read', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto('/fr')
  await expect(page.getByRole('heading', { level: 1, name: HOME.fr })).toBeVisible()
  await page.goto(`/de/${EVENT}/design/location`)
  await expect(page.getByRole('heading', { level: 1, name: LOCATION.de })).toBeVisible()
  await expect(page.getByText(EVENT_NAME, { exact: true })).toBeVisible()
  // the billboards too, as the API lists them
  await expect(page.getByRole('heading', { level: 3 }).first()).toBeVisible()
  await context.close()
})

/** Records layout shifts and whether #root was ever emptied, from the first byte on. */
async function watchFirstScreen(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: number[]; __emptied: boolean }
    w.__shifts = []
    w.__emptied = false
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        w.__shifts.push((entry as unknown as { value: number }).value)
    }).observe({ type: 'layout-shift', buffered: true })
    document.addEventListener('DOMContentLoaded', () => {
      const root = document.getElementById('root')
      if (!root) return
      new MutationObserver(() => {
        if (root.children.length === 0) w.__emptied = true
      }).observe(root, { childList: true })
    })
  })
}

async function firstScreenReport(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as { __shifts: number[]; __emptied: boolean }
    return { shifts: w.__shifts, emptied: w.__emptied }
  })
}

test('the app takes over the home page without a layout shift, with the same texts', async ({
  page,
}) => {
  await watchFirstScreen(page)
  for (const [path, lang] of [
    ['/', 'en'],
    ['/fr', 'fr'],
  ] as const) {
    const served = await (await page.request.get(path)).text()
    const lead = /<p class="home__lead">([^<]+)<\/p>/.exec(served)?.[1]
    await page.goto(path)
    // the live events and the code form come with the app
    await expect(page.getByRole('heading', { name: EVENT_NAME })).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOME[lang])
    await expect(page.locator('.home__lead')).toHaveText(lead ?? 'missing')
    // the language button, disabled in the served page, works once the app runs
    await expect(page.locator('.lang__current')).toBeEnabled()
    await page.waitForTimeout(500)
    expect(await firstScreenReport(page)).toEqual({ shifts: [], emptied: false })
  }
})

test('the app takes over the location step without a layout shift', async ({ page }) => {
  await watchFirstScreen(page)
  await page.goto(`/fr/${EVENT}/design/location`)
  await expect(page.getByRole('button', { name: /^Choisir Place de l'Opéra/ })).toBeVisible()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(LOCATION.fr)
  await expect(page.getByRole('button', { name: 'Ouvrir le menu' })).toBeEnabled()
  await page.waitForTimeout(500)
  expect(await firstScreenReport(page)).toEqual({ shifts: [], emptied: false })
})
