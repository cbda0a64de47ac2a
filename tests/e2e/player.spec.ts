import { expect, type Page, test } from '@playwright/test'
import jsQR from 'jsqr'
import sharp from 'sharp'
import type { OrderSummary } from '../../src/contract/order'
import { playsOfSlot, slotStartEpochMs } from '../../src/domain/index.ts'
import { sql } from '../../src/server/platform/db/sql'
import { heartbeatsOf } from '../../src/server/player/repo'
import {
  client,
  daySlots,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
} from '../api/helpers'
import {
  acceptAgreements,
  designShout,
  EVENT,
  expectPictureShown,
  fillCard,
  fillContact,
  pickSlots,
  T,
} from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

// A billboard that runs our player plays what was sold on time, by the wall clock, with the
// network down and across a reload; between plays it sells its own next slot; every play reaches the
// server exactly once when the network is back.
//
// The player needs a player link, which `npm run player-link` makes with the embedded database closed,
// so this test runs a server of its own (the production build, a fresh embedded database) in-process
// and makes the link through the same service the command uses.

const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'
let server: TestServer
/**
 * The server's clock, ahead of the real one by this much: the player plays by the server's time (its
 * heartbeat measures its own clock against it), so a test that moves the page's clock moves the
 * server's with it (`playerClock`).
 */
let serverAheadMs = 0

test.beforeAll(async () => {
  server = await startTestServer('pglite', {
    serveApp: true,
    now: () => Date.now() + serverAheadMs,
  })
})
test.beforeEach(() => {
  serverAheadMs = 0
})

/**
 * The page's and the server's clocks, installed at `serverTime` (the page's `pageAheadMs` ahead) and
 * moved on together.
 */
async function playerClock(page: Page, serverTime: number, pageAheadMs = 0) {
  serverAheadMs = serverTime - Date.now()
  await page.clock.install({ time: serverTime + pageAheadMs })
  return {
    /** The server's time now. */
    now: () => Date.now() + serverAheadMs,
    forward: async (ms: number) => {
      serverAheadMs += ms
      await page.clock.fastForward(ms)
    },
  }
}
test.afterAll(async () => {
  await server?.stop()
})

/** Decodes the QR code an element shows. */
async function qrOf(page: Page, testId: string): Promise<string | null> {
  const png = await page.getByTestId(testId).screenshot()
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? null
}

test('the player shows sold shouts on time, offline and after a reload, then proves every play once', async ({
  browser,
}) => {
  const api = client(server.url)
  const content = await generateContent(api, DEVICE)
  const event = (await api.get<Parameters<typeof playsOfSlot>[0]>(`/spotlight/events/${LIVE}`)).body
  // two sold slots three hours apart, on day 2 of the live event (well past the purchase cut-off)
  const [first, second] = [daySlots(2, 40, 1)[0] as number, daySlots(2, 52, 1)[0] as number]
  const checkout = await savedCard(api)
  const placed = await placeOrder(api, orderBody({ slots: [first, second], content, checkout }))
  expect(placed.status).toBe(201)
  expect((await settledStatus(api, LIVE, placed.body.guid)).orderState).toBe('Confirmed')
  const linked = await server.deps.player.link(DEVICE)
  if (!linked.ok) throw new Error('no player link')

  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } })
  const page = await context.newPage()
  const errors: string[] = []
  let offline = false
  page.on('console', (m) => {
    // while offline, the browser logs each request the player tries (schedule, proofs): expected
    const expected = offline && /ERR_INTERNET_DISCONNECTED|ERR_FAILED/.test(m.text())
    if (m.type() === 'error' && !expected) errors.push(m.text())
  })
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`)
  })
  const referrers: (string | undefined)[] = []
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/') && r.headers().referer)
      referrers.push(`${r.url()} ${r.headers().referer}`)
  })

  const firstPlays = playsOfSlot(event, PARIS, first)
  const secondPlays = playsOfSlot(event, PARIS, second)
  expect(slotStartEpochMs(event, PARIS, first)).toBe(firstPlays[0]?.startEpochMs)
  const clock = await playerClock(page, (firstPlays[0]?.startEpochMs as number) + 2_000)
  await page.goto(`${server.url}/play/${DEVICE}?token=${linked.value.token}`)

  // the token leaves the address bar; the shout plays as an <img> of its content URL
  await expect(page).toHaveURL(`${server.url}/play/${DEVICE}`)
  const played = page.locator('[data-testid="player"] > img')
  await expectPictureShown(played)
  const src = await played.getAttribute('src')
  expect(src).toMatch(new RegExp(`^${server.url}/api/v1/content/files/`))
  await waitForServiceWorker(page)

  // the play ends after 15 s: the house card, whose QR code opens the shop on this billboard
  await clock.forward(20_000)
  await expect(page.getByTestId('house-card')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Votre message ici' })).toBeVisible()
  await expect(page.getByText(/40,00\s€ le shout/)).toBeVisible()
  await expect.poll(() => qrOf(page, 'house-qr')).toBe(`${server.url}/${LIVE}?device=${DEVICE}`)

  // offline, hours later, reloaded: the second slot still plays from the kept schedule and files
  await context.setOffline(true)
  offline = true
  await clock.forward((secondPlays[0]?.startEpochMs as number) + 2_000 - clock.now())
  await page.reload()
  await expectPictureShown(played)
  await expect(played).toHaveAttribute('src', src as string)
  await clock.forward(20_000)
  await expect(page.getByTestId('house-card')).toBeVisible()
  await expect(page.getByTestId('player-status')).toContainText('à envoyer')

  // back online: the kept proofs arrive, exactly once each
  await context.setOffline(false)
  offline = false
  const summary = () =>
    api.get<OrderSummary>(`/order/events/${LIVE}/orders/${placed.body.guid}`).then((r) => r.body)
  await expect.poll(async () => (await summary()).plays.length, { timeout: 30_000 }).toBe(2)
  await expect(page.getByTestId('player-status')).not.toContainText('à envoyer')
  // sent again (a reconnect), they are still counted once
  await page.evaluate(() => window.dispatchEvent(new Event('online')))
  await clock.forward(30_000)
  const plays = (await summary()).plays
  expect(plays.map((p) => [p.slotNumber, p.playIndex])).toEqual([
    [first, 0],
    [second, 0],
  ])
  expect(plays[0]?.startedAtEpochMs).toBeGreaterThanOrEqual(firstPlays[0]?.startEpochMs as number)

  expect(referrers.filter(Boolean)).toEqual([])
  expect(errors).toEqual([])
  await context.close()
})

test('a player whose clock is 5 minutes fast plays at the server’s time, and its proofs count', async ({
  browser,
}) => {
  const api = client(server.url)
  const content = await generateContent(api, DEVICE)
  const event = (await api.get<Parameters<typeof playsOfSlot>[0]>(`/spotlight/events/${LIVE}`)).body
  const slot = daySlots(3, 30, 1)[0] as number
  const checkout = await savedCard(api)
  const placed = await placeOrder(api, orderBody({ slots: [slot], content, checkout }))
  expect(placed.status).toBe(201)
  expect((await settledStatus(api, LIVE, placed.body.guid)).orderState).toBe('Confirmed')
  const linked = await server.deps.player.link(DEVICE)
  if (!linked.ok) throw new Error('no player link')
  const [play] = playsOfSlot(event, PARIS, slot)
  if (!play) throw new Error('no play')

  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } })
  const page = await context.newPage()
  // half a minute before the play by the server's clock; by the page's own, the play ended 4.5 min ago
  const clock = await playerClock(page, play.startEpochMs - 30_000, 5 * 60_000)
  await page.goto(`${server.url}/play/${DEVICE}?token=${linked.value.token}`)
  await expect(page.getByTestId('house-card')).toBeVisible()
  // its first heartbeat reports a clock 5 minutes off, as the server measures it
  await expect
    .poll(async () => (await heartbeatsOf(server.deps.database, [DEVICE]))[0]?.clockOffsetMs ?? 0)
    .toBeLessThan(-295_000)

  // at the play's time by the server's clock, the shout shows (the page's own clock says 5:02 past)
  await clock.forward(32_000)
  const played = page.locator('[data-testid="player"] > img')
  await expectPictureShown(played)
  await clock.forward(20_000)
  await expect(page.getByTestId('house-card')).toBeVisible()
  // its proof carries the server's time, so the server accepts it as this play
  await clock.forward(25_000)
  const summary = () =>
    api.get<OrderSummary>(`/order/events/${LIVE}/orders/${placed.body.guid}`).then((r) => r.body)
  await expect.poll(async () => (await summary()).plays.length, { timeout: 30_000 }).toBe(1)
  const [proof] = (await summary()).plays
  expect(Math.abs((proof?.startedAtEpochMs ?? 0) - play.startEpochMs)).toBeLessThan(5_000)
  // and its heartbeat (the one a minute in) says what it holds, shows and corrects
  const beat = async () => (await heartbeatsOf(server.deps.database, [DEVICE]))[0]?.beat
  await expect.poll(beat).toMatchObject({
    showing: { kind: 'house' },
    files: { cached: 1, failed: 0 },
    screen: { widthPx: 1280, heightPx: 720 },
  })
  expect(Math.abs(((await beat())?.clockCorrectionMs ?? 0) + 5 * 60_000)).toBeLessThan(5_000)
  await context.close()
})

test("the shopper sees the package, then the confirmation page follows the billboard's plays", async ({
  browser,
}) => {
  const t = T.en
  const context = await browser.newContext({ baseURL: server.url })
  const page = await context.newPage()
  // the shopper's page runs on a clock the test can move to the slot's time, starting now
  await page.clock.install({ time: Date.now() })
  await designShout(page, 'en')
  await expect(page.getByTestId('slot-package')).toHaveText(
    'Each shout plays 4 times in its 15-minute slot, 15 seconds each',
  )
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', 'airing@example.com')
  await fillCard(page, 'en')
  await page.getByRole('button', { name: t.review }).click()
  await acceptAgreements(page, 'en')
  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect(page.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })
  expect(page.url()).toContain(`/${EVENT}/order/confirmation`)

  const [order] = await server.deps.database.query(sql<{ guid: string; slots: number[] }>`
    select guid, slot_numbers as slots from orders where email = 'airing@example.com'`)
  if (!order) throw new Error('order not found')
  const slot = order.slots[0] as number
  const api = client(server.url)
  const event = (await api.get<Parameters<typeof playsOfSlot>[0]>(`/spotlight/events/${LIVE}`)).body
  const plays = playsOfSlot(event, PARIS, slot)
  const linked = await server.deps.player.link(DEVICE)
  if (!linked.ok) throw new Error('no player link')
  const report = (playIndex: number) => {
    // a billboard reports a play once it has begun by the server's clock (an earlier proof is refused)
    const begun = (plays[playIndex]?.startEpochMs as number) + 1_000
    serverAheadMs = Math.max(serverAheadMs, begun - Date.now())
    return api.post(
      `/player/${DEVICE}/plays`,
      {
        plays: [
          {
            playId: crypto.randomUUID(),
            orderGuid: order.guid,
            slotNumber: slot,
            playIndex,
            startedAtEpochMs: plays[playIndex]?.startEpochMs,
            endedAtEpochMs: plays[playIndex]?.endEpochMs,
          },
        ],
      },
      { authorization: `Bearer ${linked.value.token}` },
    )
  }

  // during the slot: on air
  await report(0)
  const now = await page.evaluate(() => Date.now())
  await page.clock.fastForward((plays[1]?.startEpochMs as number) + 1_000 - now)
  await expect(page.locator('.airing li')).toContainText('On air now')
  // after it: how often it played, and when first, in the billboard's time zone
  await report(1)
  await report(2)
  await page.clock.fastForward(15 * 60_000)
  const first = new Intl.DateTimeFormat('en', {
    timeStyle: 'short',
    timeZone: PARIS,
  }).format(plays[0]?.startEpochMs)
  await expect(page.locator('.airing li')).toContainText(`Played 3 of 4 times · first at ${first}`)
  // a proof that arrives later shows without a reload
  await report(3)
  await page.clock.fastForward(6_000)
  await expect(page.locator('.airing li')).toContainText('Played 4 of 4 times')
  await context.close()
})
