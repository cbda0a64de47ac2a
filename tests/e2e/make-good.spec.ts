import { expect, test } from '@playwright/test'
import type { OrderSummary } from '../../src/contract/order'
import { formatMoney } from '../../src/domain/money'
import { createManualClock, type ManualClock } from '../../src/server/platform/clock'
import {
  boughtOrder,
  client,
  daySlots,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from '../api/helpers'

// A shout that did not play, from the shopper's side: the billboard sent no proof for a slot, and
// MAKE_GOOD_GRACE_HOURS (6) after it ended the order's page says so, with what came back to the
// card, before the order's later slot has played. The server runs in-process with a manual clock
// moved past the slot and the grace (the order is bought through the API, as a shopper's browser
// would).

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
const HOUR = 3_600_000

let clock: ManualClock
let server: TestServer

test.beforeAll(async () => {
  clock = createManualClock(Date.now())
  server = await startTestServer('pglite', { serveApp: true, clock, now: () => clock.now() })
})
test.afterAll(async () => {
  await server?.stop()
})

test("phone: the order's page says which plays did not happen and what was refunded", async ({
  browser,
}) => {
  const api = client(server.url)
  const content = await generateContent(api)
  const slots = [...daySlots(2, 44, 1), ...daySlots(3, 44, 1)]
  const bought = await boughtOrder(api, { slots, content, locale: 'en' })
  expect(bought.state).toBe('Confirmed')
  const order = (await api.get<OrderSummary>(`/order/events/${LIVE}/orders/${bought.guid}`)).body
  const firstEnd = order.slots[0]?.endEpochMs as number
  // no proof came for the first day's slot: the grace after its end decides it, and refunds its
  // share (half, the odd cent its own), while the next day's slot is still to play
  clock.advance(firstEnd + 6 * HOUR - clock.now())
  await server.deps.jobs.idle()
  await server.deps.jobs.runNow('make-goods')

  const context = await browser.newContext({ ...PHONE, baseURL: server.url, locale: 'en-US' })
  const page = await context.newPage()
  await page.goto(`/${LIVE}/order/confirmation?order=${order.guid}`)
  await expect(page.getByText('Not every play happened')).toBeVisible()
  await expect(page.getByText('The billboard showed your shout 0 of 4 times.')).toBeVisible()
  await expect(page.getByText('Each of your other slots is checked the same way')).toBeVisible()
  const share = Math.ceil(order.totalCents / 2)
  const refunded = formatMoney(share, { currency: order.currency, locale: 'en' })
  await expect(page.getByText(`${refunded} was refunded to your card.`)).toBeVisible()
  await context.close()
})
