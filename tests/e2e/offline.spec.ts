import { expect, test } from '@playwright/test'
import {
  BILLBOARD,
  designShout,
  EVENT,
  fillCard,
  fillContact,
  pickSlots,
  screenshot,
  T,
} from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

const t = T.en

// After one visit every route of the flow renders offline (precached code, cached event).
test('after one visit, every flow route reloads offline and shows its screen', async ({
  page,
  context,
}) => {
  await page.goto('/')
  await waitForServiceWorker(page)
  await designShout(page, 'en')
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', 'offline@example.com')
  await fillCard(page, 'en')
  await page.getByRole('button', { name: t.review }).click()
  await expect(page.getByRole('heading', { name: 'Order Review' })).toBeVisible()

  await context.setOffline(true)
  const screens: Array<[string, string | RegExp]> = [
    ['/', 'Share the Gift of a Billboard'],
    [`/${EVENT}/design/location`, 'Choose a billboard'],
    [`/${EVENT}/design/template`, 'Choose a design'],
    [`/${EVENT}/design/customize`, 'Make it yours'],
    [`/${EVENT}/order/select-shouts`, 'Choose your shout times'],
    [`/${EVENT}/order/checkout`, 'Billing Info'],
    [`/${EVENT}/order/review`, 'Order Review'],
    [`/fr/${EVENT}/design/location`, 'Choisissez un panneau'],
  ]
  for (const [path, heading] of screens) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: /offline|hors ligne/ })).toBeVisible()
  }
  // the chosen billboard and the generated design come back from the device, not the network
  await page.goto(`/${EVENT}/design/location`)
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a billboard' })).toBeVisible()
  await expect(page.getByText('No billboard chosen yet')).toHaveCount(0)
  await page.goto(`/${EVENT}/design/customize`)
  await expect(page.locator('img.generated')).toBeVisible()
  await expect(page.getByLabel(t.to)).toHaveValue('Maman')
  await screenshot(page, 'en-customize-offline')
  await context.setOffline(false)
})

// The repeat visit: the worker keeps the server's own page and answers the next visit with
// it, so the first screen is in the HTML before any script runs (as on a first visit), also offline,
// instead of the shell that the app then renders in the browser.
test("a repeat visit gets the server's page from the worker, the first screen in its HTML", async ({
  page,
  context,
}) => {
  const location = `/fr/${EVENT}/design/location`
  await page.goto(location)
  await waitForServiceWorker(page)
  const keptPaths = () =>
    page.evaluate(async () => {
      const paths: string[] = []
      for (const name of await caches.keys()) {
        if (!name.startsWith('shouts-pages-')) continue
        for (const request of await (await caches.open(name)).keys()) {
          paths.push(new URL(request.url).pathname)
        }
      }
      return paths.sort()
    })
  // the page the worker was installed on, and its event's QR code landing (a redirect to it)
  await expect.poll(keptPaths).toEqual([`/fr/${EVENT}`, location])

  // a billboard's QR code scanned again, offline: the worker answers as the server would, with the
  // redirect to the location step and the server's page, its first screen in the HTML
  await context.setOffline(true)
  const answer = await page.goto(`/fr/${EVENT}?device=paris-opera-1`)
  await expect(page).toHaveURL(`${location}?device=paris-opera-1`)
  expect(answer?.fromServiceWorker()).toBe(true)
  const html = (await answer?.text()) ?? ''
  expect(html).toContain('<html lang="fr">')
  expect(html).toContain('<h1 class="page__title">Choisissez un panneau</h1>')
  expect(html).toContain('<h3 class="billboard__name">Place de l&#x27;Opéra')
  // and the app takes it over as on a first visit: the billboard of the QR code is chosen
  await expect(page.getByRole('heading', { level: 1, name: 'Choisissez un panneau' })).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: /hors ligne/ })).toBeVisible()
  await expect(page.locator('.action-bar')).toContainText(BILLBOARD)

  // the root page speaks the cookie's or the browser's language: never kept, the shell answers it
  await context.setOffline(false)
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect.poll(keptPaths).toEqual([`/fr/${EVENT}`, location])
  await context.setOffline(true)
  const root = await page.goto('/')
  expect(await root?.text()).not.toContain('<h1')
  await context.setOffline(false)
})

// Offline in the first seconds of a first visit, before the worker controls the page: no code
// chunk can come. The page stays as it is (no reload, which would land on the browser's own offline
// page), the parts it can do without (the offline banner, the footer) stay away, and a step whose
// code cannot come says so, and comes by itself once the connection is back.
test('offline before the worker controls the page, the page stays and a step that cannot load says so', async ({
  page,
  context,
}) => {
  await page.goto(`/${EVENT}/design/location`)
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a billboard' })).toBeVisible()
  // hydrated: the menu button works
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeEnabled()
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull()
  // a reload would lose this
  await page.evaluate(() => Object.assign(window, { stillThisPage: true }))
  const stillThisPage = () =>
    page.evaluate(() => (window as { stillThisPage?: boolean }).stillThisPage === true)

  await context.setOffline(true)
  // the footer's code is asked for once the page has been idle for 2 s, the offline banner's at once
  const footerAskedFor = page.waitForEvent('requestfailed', (r) => /\/footer-/.test(r.url()))
  await page.getByRole('button', { name: T.en.choose }).click()
  await footerAskedFor
  await expect(page.getByRole('button', { name: /^Selected: / })).toBeVisible()
  expect(await stillThisPage()).toBe(true)
  await expect(page.getByRole('contentinfo')).toHaveCount(0)

  await page.getByRole('button', { name: T.en.continue }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible()
  expect(await stillThisPage()).toBe(true)

  // back online, the step loads by itself, still without a reload
  await context.setOffline(false)
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a design' })).toBeVisible()
  expect(await stillThisPage()).toBe(true)
})
