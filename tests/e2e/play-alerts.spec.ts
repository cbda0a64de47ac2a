import { type BrowserContext, type CDPSession, expect, type Page, test } from '@playwright/test'
import type { OrderSummary } from '../../src/contract/order'
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
import { type PushStandIn, type StandInSubscription, startPushStandIn } from '../api/push-stand-in'
import { BILLBOARD } from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

// "Tell me when it plays", from the shopper's side: on the order's page (the mail's link) the shopper
// turns alerts on, the shop's server sends "plays soon" 5 minutes before the shout time to the push
// service, the browser's worker shows it as a notification, and a tap opens the order's page, also
// offline.
//
// What stands in, and why: the push service is the stand-in on loopback (tests/api/push-stand-in.ts),
// which decrypts what the server sends with the subscription's own keys. Headless Chromium has no
// push service of its own (PushManager.subscribe rejects), so the page's PushManager hands out the
// stand-in's subscription (the init script below records the key the page subscribed with), and what
// the stand-in received is delivered to the worker through the DevTools protocol
// (ServiceWorker.deliverPushMessage), as the browser's push service would. Headless Chromium shows
// no notification to tap either: the tap is the worker's notificationclick, dispatched in the worker
// with the notification the browser holds (Chromium refuses focus() to such an event; navigating
// the open window is allowed).
//
// The server runs in-process with a manual clock: the alert is due 5 minutes before a slot a day ahead.

const POLL_MS = 30_000
const LEAD_MS = 5 * 60_000
const PARIS = 'Europe/Paris'

let clock: ManualClock
let standIn: PushStandIn
let server: TestServer

test.beforeAll(async () => {
  clock = createManualClock(Date.now())
  standIn = await startPushStandIn(() => clock.now())
  server = await startTestServer('pglite', {
    serveApp: true,
    clock,
    now: () => clock.now(),
    pushAgent: standIn.agent,
    env: { PUSH_SERVICE_HOSTS: standIn.host, PUSH_POLL_SECONDS: String(POLL_MS / 1000) },
  })
})
test.afterAll(async () => {
  await server?.stop()
  await standIn?.close()
})

/** The page's PushManager hands out the stand-in's subscription (kept across reloads, as the
 * browser keeps its own), and records the key the page subscribed with. */
async function standInPushManager(context: BrowserContext, subscription: StandInSubscription) {
  await context.addInitScript((sub: StandInSubscription) => {
    const KEY = 'e2e:push-subscribed-with'
    const b64u = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '')
    const made = (key: string) => {
      const raw = Uint8Array.from(atob(key.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
        c.charCodeAt(0),
      )
      return {
        endpoint: sub.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: raw.buffer },
        toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
        unsubscribe: async () => {
          localStorage.removeItem(KEY)
          return true
        },
      }
    }
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const key = options?.applicationServerKey
      if (!(key instanceof Uint8Array) || options?.userVisibleOnly !== true)
        throw new DOMException('not a visible subscription with a key', 'NotAllowedError')
      localStorage.setItem(KEY, b64u(key))
      return made(b64u(key)) as unknown as PushSubscription
    }
    PushManager.prototype.getSubscription = async () => {
      const key = localStorage.getItem(KEY)
      return key ? (made(key) as unknown as PushSubscription) : null
    }
  }, subscription)
}

/** The worker's registration id, as the DevTools protocol names it. */
async function registrationIdOf(cdp: CDPSession): Promise<string> {
  const ids: string[] = []
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    for (const r of e.registrations) if (!r.isDeleted) ids.push(r.registrationId)
  })
  await cdp.send('ServiceWorker.enable')
  await expect.poll(() => ids.length).toBeGreaterThan(0)
  return ids[0] as string
}

type Shown = { title: string; body: string; tag: string; icon: string; timestamp: number }

function notificationsOf(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      icon: n.icon,
      timestamp: (n as Notification & { timestamp: number }).timestamp,
    }))
  })
}

/** Moves the server's clock a job interval at a time until the stand-in has `count` messages. */
async function untilReceived(count: number, untilEpochMs: number) {
  await server.deps.jobs.idle()
  while (standIn.received().length < count && clock.now() < untilEpochMs) {
    clock.advance(POLL_MS)
    await server.deps.jobs.idle()
  }
}

for (const screen of [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desk', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
]) {
  test(`${screen.name}: alerts turned on from the order's page; "plays soon" shows as a notification and its tap opens the order, offline too`, async ({
    browser,
  }) => {
    const api = client(server.url)
    // a slot on day 2 (phone) or 3 (desk) of the live event: past the purchase cut-off from where
    // the shop's clock stands (the phone's test moves it on to day 2)
    const slot = daySlots(screen.name === 'phone' ? 2 : 3, 40, 1)[0] as number
    const content = await generateContent(api)
    const bought = await boughtOrder(api, { slots: [slot], content, locale: 'en' })
    expect(bought.state).toBe('Confirmed')
    const order = (await api.get<OrderSummary>(`/order/events/${LIVE}/orders/${bought.guid}`)).body
    const startsAt = (order.slots[0] as OrderSummary['slots'][0]).startEpochMs
    const orderPath = `/${LIVE}/order/confirmation?order=${bought.guid}`

    const context = await browser.newContext({
      baseURL: server.url,
      viewport: screen.viewport,
      isMobile: screen.isMobile,
      hasTouch: screen.hasTouch,
      locale: 'en-US',
      timezoneId: 'UTC',
    })
    await context.grantPermissions(['notifications'], { origin: server.url })
    const browserSubscription = standIn.subscribe()
    await standInPushManager(context, browserSubscription)
    const page = await context.newPage()

    // the mail's link to the order
    await page.goto(orderPath)
    await waitForServiceWorker(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Thank you! Your shout is booked',
    )
    const alerts = page.getByRole('region', { name: 'Play alerts' })
    await alerts.getByRole('button', { name: 'Tell me when it plays' }).click()
    await expect(alerts.getByRole('status')).toHaveText(
      'Alerts are on: this device will tell you when your shout plays.',
    )
    // the page subscribed with the shop's VAPID key, and the order holds the subscription
    const { publicKey } = (await api.get<{ publicKey: string }>('/push/key')).body
    expect(await page.evaluate(() => localStorage.getItem('e2e:push-subscribed-with'))).toBe(
      publicKey,
    )
    const listed = await api.get<{ subscriptions: { locale: string }[] }>(
      `/order/events/${LIVE}/orders/${bought.guid}/push-subscriptions`,
    )
    expect(listed.body.subscriptions.map((s) => s.locale)).toEqual(['en'])

    // the server's job sends "plays soon" 5 minutes before the slot
    const before = standIn.received().length
    clock.advance(startsAt - LEAD_MS - 2 * POLL_MS - clock.now())
    await untilReceived(before + 1, startsAt)
    const sent = standIn.received().slice(before)
    expect(sent.map((m) => m.subscription)).toEqual([browserSubscription.id])
    const message = sent[0] as (typeof sent)[0]

    // the push service hands it to the browser's worker
    const cdp = await context.newCDPSession(page)
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId: await registrationIdOf(cdp),
      data: message.text,
    })
    const time = new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: PARIS }).format(
      startsAt,
    )
    await expect.poll(() => notificationsOf(page)).toHaveLength(1)
    const [shown] = await notificationsOf(page)
    expect(shown).toMatchObject({
      title: `Your shout plays at ${time}`,
      body: expect.stringContaining(BILLBOARD),
      icon: expect.stringMatching(/\/icons\/icon-192\.png$/),
      timestamp: startsAt,
    })

    // the shopper is elsewhere in the shop, and offline, when they tap it
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await context.setOffline(true)
    const worker = context.serviceWorkers()[0]
    if (!worker) throw new Error('no service worker')
    await worker.evaluate(async () => {
      // the worker's global scope (this file is typed for pages)
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration
        dispatchEvent(event: Event): boolean
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event
      }
      const [tapped] = await scope.registration.getNotifications()
      if (!tapped) throw new Error('no notification to tap')
      scope.dispatchEvent(
        new scope.NotificationEvent('notificationclick', { notification: tapped }),
      )
    })
    await expect(page).toHaveURL(new RegExp(`/${LIVE}/order/confirmation\\?order=${bought.guid}$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Thank you! Your shout is booked',
    )
    await expect.poll(() => notificationsOf(page)).toHaveLength(0)
    await context.setOffline(false)

    // and the alerts can be turned off there
    await page.reload()
    await alerts.getByRole('button', { name: 'Turn alerts off' }).click()
    await expect(alerts.getByRole('button', { name: 'Tell me when it plays' })).toBeVisible()
    const after = await api.get<{ subscriptions: unknown[] }>(
      `/order/events/${LIVE}/orders/${bought.guid}/push-subscriptions`,
    )
    expect(after.body.subscriptions).toEqual([])
    await context.close()
  })
}
