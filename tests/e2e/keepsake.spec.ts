import { expect, test } from '@playwright/test'
import type { OrderSummary } from '../../src/contract/order'
import {
  boughtOrder,
  client,
  daySlots,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from '../api/helpers'
import { BILLBOARD } from './helpers'

// The keepsake page, from both sides: the shopper shares the order from its page (the address copied
// where the browser has no share sheet, the picture offered to download, sharing stopped), and a
// friend opens the link on a phone, signed out and without JavaScript, and sees the shout on the
// billboard, where and when it played, and the way to make their own; the link preview's tags are
// in the page. The server runs in-process (the order is bought through the API, as a shopper's
// browser would).

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

let server: TestServer

test.beforeAll(async () => {
  server = await startTestServer('pglite', { serveApp: true })
})
test.afterAll(async () => {
  await server?.stop()
})

async function confirmedOrder(from: number) {
  const api = client(server.url)
  const content = await generateContent(api)
  const bought = await boughtOrder(api, { slots: daySlots(2, from, 1), content, locale: 'en' })
  expect(bought.state).toBe('Confirmed')
  return (await api.get<OrderSummary>(`/order/events/${LIVE}/orders/${bought.guid}`)).body
}

test('phone: a friend opens the shared link signed out, without JavaScript, and sees the shout on the billboard', async ({
  browser,
}) => {
  const order = await confirmedOrder(40)
  const made = await fetch(`${server.url}/api/v1/order/events/${LIVE}/orders/${order.guid}/share`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ locale: 'en' }),
  })
  expect(made.status).toBe(201)
  const { path } = (await made.json()) as { path: string }

  const context = await browser.newContext({
    ...PHONE,
    baseURL: server.url,
    javaScriptEnabled: false,
    locale: 'en-US',
  })
  const page = await context.newPage()
  await page.goto(path)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('On the big screen')
  const picture = page.getByRole('img', {
    name: `The message shown on the billboard at ${BILLBOARD}`,
  })
  await expect(picture).toBeVisible()
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(1200)
  // the picture fits the phone's width
  const box = await picture.boundingBox()
  expect(box?.width).toBeLessThanOrEqual(390)
  await expect(page.getByText(`For ${order.eventName}`)).toBeVisible()
  await expect(page.getByText(/^Plays on .+ at .+$/)).toBeVisible()
  await expect(page.getByText(order.confirmationCode)).toHaveCount(0)

  // the link preview: Open Graph and Twitter's card, with the same picture
  const meta = (selector: string) => page.locator(selector).getAttribute('content')
  const image = await meta('meta[property="og:image"]')
  expect(image).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{22}/keepsake\\.jpg$`))
  expect(await meta('meta[property="og:title"]')).toBe(
    `A shout on the billboard at ${BILLBOARD}, facing Boulevard Haussmann, Paris`,
  )
  expect(await meta('meta[property="og:image:width"]')).toBe('1200')
  expect(await meta('meta[property="og:image:height"]')).toBe('630')
  expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image')
  expect(await meta('meta[name="twitter:image"]')).toBe(image)

  // "Make your own shout" opens the same billboard's QR entry
  await page.getByRole('link', { name: 'Make your own shout' }).click()
  // (the QR entry's redirect to the location step, the billboard chosen)
  await expect(page).toHaveURL(`${server.url}/${LIVE}/design/location?device=paris-opera-1`)
  await context.close()
})

test("phone: the shopper shares from the order's page, downloads the picture, then stops sharing", async ({
  browser,
}) => {
  const order = await confirmedOrder(44)
  const context = await browser.newContext({ ...PHONE, baseURL: server.url, locale: 'en-US' })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  const page = await context.newPage()
  // no share sheet here (as on a desktop browser): the address is copied instead
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'share', { value: undefined })
  })
  await page.goto(`/${LIVE}/order/confirmation?order=${order.guid}`)
  await page.getByRole('button', { name: 'Share my shout' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: "The link to your shout's page is copied" }),
  ).toHaveText("The link to your shout's page is copied: paste it anywhere.")
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{22}$`))
  const link = page.getByRole('link', { name: copied })
  await expect(link).toHaveAttribute('href', new URL(copied).pathname)

  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download the keepsake picture' }).click()
  expect((await download).suggestedFilename()).toBe('keepsake.jpg')

  await page.getByRole('button', { name: 'Stop sharing' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Sharing stopped' })).toHaveText(
    'Sharing stopped: the page is gone.',
  )
  expect((await fetch(copied)).status).toBe(404)
  await context.close()
})
