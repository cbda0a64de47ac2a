import { randomUUID } from 'node:crypto'
import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test'
import { zonedDateTimeAt } from '../../src/domain/dates.ts'
import { playsOfSlot, slotStartEpochMs } from '../../src/domain/index.ts'
import { demoCatalogue } from '../../src/server/catalogue/demo-catalogue.ts'
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
import { signedInOperator } from '../api/ops-helpers'
import { expectAccessible, screenshot } from './helpers'

// The console's second part: the schedule (sold, free, proved and missing plays, a new
// player link shown once), the catalogue upload (problems by path, a preview, apply on confirm) and
// the dashboard (figures, the sales chart, the plays and make-good refunds per day, each chart with
// its text alternative), each axe clean, at 390 px
// and 1280 px. A server of its own (the production build, a fresh embedded database) in-process, so
// the test makes its operator and its orders through the real services and API.

const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'
let server: TestServer
let day: string
let soldTime: string
let guid: string
let lastSlotEnd: number
let clock = Date.now()

test.beforeAll(async () => {
  server = await startTestServer('pglite', { serveApp: true, now: () => clock })
  const api = client(server.url)
  const content = await generateContent(api, DEVICE)
  const event = (await api.get<Parameters<typeof playsOfSlot>[0]>(`/spotlight/events/${LIVE}`)).body
  const slots = daySlots(2, 40, 2)
  const checkout = await savedCard(api)
  const placed = await placeOrder(api, orderBody({ slots, content, checkout }))
  expect(placed.status).toBe(201)
  expect((await settledStatus(api, LIVE, placed.body.guid)).orderState).toBe('Confirmed')
  guid = placed.body.guid
  const first = slots[0] as number
  day = zonedDateTimeAt(slotStartEpochMs(event, PARIS, first), PARIS)
    .toPlainDate()
    .toString()
  soldTime = new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: PARIS }).format(
    slotStartEpochMs(event, PARIS, first),
  )
  // the billboard proves the first play of the first slot
  const linked = await server.deps.player.link(DEVICE)
  if (!linked.ok) throw new Error('no player link')
  const play = playsOfSlot(event, PARIS, first)[0] as { startEpochMs: number; endEpochMs: number }
  // a billboard reports a play once it has played (a proof before its play began is refused)
  clock = play.endEpochMs + 60_000
  const proof = await api.post(
    `/player/${DEVICE}/plays`,
    {
      plays: [
        {
          playId: randomUUID(),
          orderGuid: guid,
          slotNumber: first,
          playIndex: 0,
          startedAtEpochMs: play.startEpochMs,
          endedAtEpochMs: play.endEpochMs,
        },
      ],
    },
    { authorization: `Bearer ${linked.value.token}` },
  )
  expect(proof.status).toBe(202)
  expect(proof.body).toMatchObject({ accepted: 1, refused: 0 })
  // the console looks at that day after it: the other plays should have been proved by now
  clock = slotStartEpochMs(event, PARIS, slots[1] as number) + 2 * 3_600_000
  lastSlotEnd = slotStartEpochMs(event, PARIS, slots[1] as number) + event.slotWidthMS
})
test.afterAll(async () => {
  await server?.stop()
})

/** The day's band (a picture named by its summary) and the same day as a list. */
const timelineOf = (within: Page | Locator) => within.getByTestId('day-timeline').first()

/** A browser context signed in as an admin (the session cookie the sign-in call set). */
async function adminContext(
  browser: import('@playwright/test').Browser,
  width: number,
  height = 844,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const admin = await signedInOperator(server, 'admin')
  const [name, value] = admin.cookie.split('=') as [string, string]
  const context = await browser.newContext({
    viewport: { width, height },
    isMobile: width < 600,
    hasTouch: width < 600,
  })
  await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Strict' }])
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  return { context, page, errors }
}

for (const width of [390, 1280]) {
  test(`schedule at ${width} px: the day's timeline shows the sold shout and the house card; a new player link once`, async ({
    browser,
  }) => {
    const { context, page, errors } = await adminContext(browser, width)
    await page.goto(`${server.url}/ops/schedule?device=${DEVICE}&day=${day}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible()
    await expect(page.getByText(/2 sold, 0 held, \d+ free of \d+ slots/)).toBeVisible()
    const timeline = timelineOf(page)
    // a picture of the day, not a table of 96 rows
    await expect(page.getByRole('table')).toHaveCount(0)
    await expect(
      timeline.getByRole('img', {
        name: /: 8 shout plays, 0 campaign plays, 7 plays without proof; the house card the rest of the time\.$/,
      }),
    ).toBeVisible()
    const shout = timeline.locator('.tl__run[data-kind="shout"]').first()
    await expect(shout).toBeVisible()
    await expect(shout).toHaveAttribute(
      'title',
      new RegExp(`^${soldTime}–.* Shout ${guid.slice(0, 8)} .* · 1 play · proved$`),
    )
    await expect(timeline.locator('.tl__run[data-kind="house"]').first()).toBeVisible()
    await expect(timeline.getByText('Times in Europe/Paris.')).toBeVisible()
    // the same day as a list, for screen readers and keyboards
    await timeline.getByText('The day as a list').focus()
    await page.keyboard.press('Enter')
    const list = timeline.getByRole('listitem').filter({ hasText: guid.slice(0, 8) })
    await expect(list.first()).toContainText(soldTime)
    await expect(
      timeline.getByRole('listitem').filter({ hasText: 'House card' }).first(),
    ).toBeVisible()
    await expect(page.getByText('A player link is live since', { exact: false })).toBeVisible()
    await expectAccessible(page)

    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: 'Make a new link (the old one stops)' }).click()
    const link = page.getByRole('figure', { name: 'New player link' })
    await expect(link).toContainText(new RegExp(`/play/${DEVICE}\\?token=`))
    await expect(page.getByRole('img', { name: /QR code of the player link/ })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Copy the link' })).toBeVisible()
    await expectAccessible(page)

    // the Billboards page draws each billboard's today: this one with its sold shout
    await page.goto(`${server.url}/ops/billboards?billboard=${DEVICE}`)
    const card = page.getByRole('article').filter({ hasText: DEVICE })
    const today = timelineOf(card)
    await expect(today.getByRole('img', { name: /: 8 shout plays, / })).toBeVisible()
    await expect(today.locator('.tl__run[data-kind="shout"]').first()).toBeVisible()
    await expect(today.locator('.tl__run[data-kind="house"]').first()).toBeVisible()
    await expectAccessible(page)
    expect(errors).toEqual([])
    await context.close()
  })
}

test('schedule marks past sold plays without proof', async ({ browser }) => {
  const { context, page, errors } = await adminContext(browser, 1280)
  await page.goto(`${server.url}/ops/schedule?device=${DEVICE}&day=${day}`)
  const timeline = timelineOf(page)
  await expect(timeline.locator('.tl__run--missing').first()).toBeVisible()
  await timeline.getByText('The day as a list').click()
  const shouts = timeline.getByRole('listitem').filter({ hasText: guid.slice(0, 8) })
  await expect(shouts.filter({ hasText: '· proved' })).toHaveCount(1)
  await expect(shouts.filter({ hasText: '· no proof' }).first()).toBeVisible()
  await expect(page.getByText(/plays: 1 proved, 7 without proof/)).toBeVisible()
  expect(errors).toEqual([])
  await context.close()
})

for (const width of [390, 1280]) {
  test(`catalogue at ${width} px: problems by path, then a preview applied on confirm`, async ({
    browser,
  }) => {
    const { context, page, errors } = await adminContext(browser, width)
    await page.goto(`${server.url}/ops/catalogue`)
    await expect(page.getByRole('heading', { level: 1, name: 'Catalogue' })).toBeVisible()
    await expectAccessible(page)
    const file = page.getByLabel('Catalogue file')
    const broken = structuredClone(demoCatalogue(Date.now())) as { devices: { city?: unknown }[] }
    ;(broken.devices[0] as Record<string, unknown>).city = ''
    await file.setInputFiles({
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(broken)),
    })
    await expect(page.getByText('$.devices[0].city: must not be empty')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Apply this catalogue' })).toHaveCount(0)
    await expectAccessible(page)

    const clean = structuredClone(demoCatalogue(Date.now())) as {
      events: Record<string, unknown>[]
    }
    const slug = `e2e-${width}`
    clean.events.push({
      slug,
      name: `E2E ${width}`,
      startDateHourLocalInclusive: '2031-01-05_00',
      endDateHourLocalExclusive: '2031-01-06_00',
      slotWidthMS: 900000,
      devices: [{ deviceId: DEVICE }],
    })
    await file.setInputFiles({
      name: 'clean.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(clean)),
    })
    await expect(page.getByRole('heading', { name: 'What clean.json changes' })).toBeVisible()
    const events = page.getByRole('row', { name: /^Events/ })
    await expect(events).toContainText(slug)
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Apply this catalogue' }).click()
    await expect(page.getByText('The catalogue was applied.')).toBeVisible()
    expect((await client(server.url).get(`/spotlight/events/${slug}`)).status).toBe(200)
    expect(errors).toEqual([])
    await context.close()
  })
}

// A refusal of the file reads in the console's language: each problem by its code, its JSON path
// and the values the file named written in.
const REFUSALS: [string, string, string, (path: string) => string][] = [
  [
    'fr',
    'Fichier de catalogue',
    '$.devices[0].city : ne doit pas être vide',
    (path) => `${path} : événement inconnu « no-such-event »`,
  ],
  [
    'de',
    'Katalogdatei',
    '$.devices[0].city: darf nicht leer sein',
    (path) => `${path}: unbekanntes Event „no-such-event“`,
  ],
]
for (const [locale, label, empty, unknownEvent] of REFUSALS) {
  test(`catalogue in ${locale}: the problems of a refused file in ${locale}`, async ({
    browser,
  }) => {
    const { context, page, errors } = await adminContext(browser, 1280)
    await page.goto(`${server.url}/${locale}/ops/catalogue`)
    const file = page.getByLabel(label)
    const shape = structuredClone(demoCatalogue(Date.now())) as { devices: { city?: unknown }[] }
    ;(shape.devices[0] as Record<string, unknown>).city = ''
    await file.setInputFiles({
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(shape)),
    })
    await expect(page.getByText(empty, { exact: true })).toBeVisible()
    const refs = structuredClone(demoCatalogue(Date.now())) as { promos: unknown[] }
    refs.promos.push({ promoCode: 'NOWHERE', eventSlug: 'no-such-event', percentOffTotal: 5 })
    await file.setInputFiles({
      name: 'references.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(refs)),
    })
    const path = `$.promos[${refs.promos.length - 1}].eventSlug`
    await expect(page.getByText(unknownEvent(path), { exact: true })).toBeVisible()
    expect(errors).toEqual([])
    await context.close()
  })
}

for (const width of [390, 1280]) {
  test(`dashboard at ${width} px: the live event's figures, sales, plays and make-good charts`, async ({
    browser,
  }) => {
    // the grace after the order's last slot has passed: its make-good is decided (once)
    clock = Math.max(clock, lastSlotEnd + 6 * 3_600_000)
    await server.deps.jobs.idle()
    await server.deps.jobs.runNow('make-goods')
    const { context, page, errors } = await adminContext(browser, width)
    await page.goto(`${server.url}/ops/dashboard`)
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
    const card = page.getByRole('article', { name: 'Share the Love' })
    await expect(card.getByText(/^2 of \d+/)).toBeVisible()
    // the event's hours on its billboards' clocks, never the browser's (UTC here), never in capitals
    await expect(card.getByText(/^\w{3} \d{1,2}, \d{4}, 12:00\sAM/)).toBeVisible()
    await expect(card.getByText(/^Times on each place's own clock: .*Europe\/Paris/)).toBeVisible()
    const sales = card.getByRole('img', { name: /^Sales per day/ })
    await expect(sales).toBeVisible()
    // the chart's own scales: a day axis, money in the event's currency, whole orders
    await expect(sales).toHaveAttribute('data-scales', /"title":"Day"/)
    const scales = JSON.parse((await sales.getAttribute('data-scales')) ?? '[]') as {
      id: string
      title: string
      ticks: string[]
    }[]
    expect(scales.map((s) => [s.id, s.title])).toEqual([
      ['x', 'Day'],
      ['left', expect.stringMatching(/^Sales \(\w{3}\)$/)],
      ['right', 'Orders'],
    ])
    expect(scales.find((s) => s.id === 'x')?.ticks.length).toBeGreaterThan(0)
    for (const tick of scales.find((s) => s.id === 'right')?.ticks ?? [])
      expect(tick).toMatch(/^\d+$/)
    await card.getByText('Sales per day as a table').click()
    await expect(card.getByRole('cell', { name: /80\.00/ })).toBeVisible()
    // one play of eight proven, seven missed; the make-good gave back 30.00 + 40.00
    await expect(
      card.getByRole('img', { name: /^Plays per day over \d+ days: 8 due, 1 proven, 7 missed\.$/ }),
    ).toBeVisible()
    await card.getByText('Plays per day as a table').click()
    const plays = card.getByRole('table', { name: 'Plays per day' })
    await expect(plays.getByRole('row', { name: /8 1 7$/ })).toHaveCount(1)
    const refundsChart = card.getByRole('figure').filter({ hasText: 'Make-good refunds' })
    await expect(
      refundsChart.getByRole('img', {
        name: /^Make-good refunds per day \(\w{3}\): .*70\.00 in all\.$/,
      }),
    ).toBeVisible()
    await refundsChart.getByText(/^Make-good refunds per day as a table/).click()
    await expect(refundsChart.getByRole('row', { name: /70\.00 1$/ })).toHaveCount(1)
    await expectAccessible(page)
    expect(errors).toEqual([])
    await context.close()
  })
}

// At the issue's desk size, in English and French: the Paris event starts at midnight on Paris's
// clock (the browser's zone is UTC), in the language's own words, never in capitals; the sales
// chart's scales are titled in the language, its days written in it, its orders whole.
const DESK = {
  en: {
    start: /^\w{3} \d{1,2}, \d{4}, 12:00\sAM/,
    zone: /^Times on each place's own clock: .*Europe\/Paris/,
    sales: /^Sales per day/,
    titles: ['Day', /^Sales \(\w{3}\)$/, 'Orders'],
    day: /^[A-Z][a-z]{2} \d{1,2}$/,
  },
  fr: {
    start: /^\d{1,2} [a-zéû]+\.? \d{4}(,| à) 00:00/,
    zone: /^Heures à l'horloge de chaque lieu\s?:\s.*Europe\/Paris/,
    sales: /^Ventes par jour/,
    titles: ['Jour', /^Ventes \(\w{3}\)$/, 'Commandes'],
    day: /^\d{1,2} [a-zéû]+\.?$/,
  },
} as const
for (const locale of ['en', 'fr'] as const) {
  test(`dashboard at 1366×900 in ${locale}: the Paris event from midnight Paris time, the sales chart's scales`, async ({
    browser,
  }) => {
    const words = DESK[locale]
    const { context, page, errors } = await adminContext(browser, 1366, 900)
    await page.goto(`${server.url}${locale === 'en' ? '' : `/${locale}`}/ops/dashboard`)
    const card = page.getByRole('article', { name: 'Share the Love' })
    const start = card.getByText(words.start)
    await expect(start).toBeVisible()
    expect(await start.textContent()).not.toMatch(/[A-ZÉ]{3}/)
    await expect(card.getByText(words.zone)).toBeVisible()
    const sales = card.getByRole('img', { name: words.sales })
    await expect(sales).toHaveAttribute('data-scales', /"id":"x"/)
    const scales = JSON.parse((await sales.getAttribute('data-scales')) ?? '[]') as {
      id: string
      title: string
      ticks: string[]
    }[]
    expect(scales.map((s) => s.id)).toEqual(['x', 'left', 'right'])
    scales.forEach((scale, i) => {
      const title = words.titles[i] as string | RegExp
      if (typeof title === 'string') expect(scale.title).toBe(title)
      else expect(scale.title).toMatch(title)
    })
    const days = scales.find((s) => s.id === 'x')?.ticks ?? []
    expect(days.length).toBeGreaterThan(0)
    for (const day of days) expect(day).toMatch(words.day)
    for (const tick of scales.find((s) => s.id === 'right')?.ticks ?? [])
      expect(tick).toMatch(/^\d+$/)
    await screenshot(page, `ops-dashboard-1366-${locale}`)
    await expectAccessible(page)
    expect(errors).toEqual([])
    await context.close()
  })
}

for (const locale of ['en', 'fr'] as const) {
  test(`at 390 px in ${locale}: no console page is wider than the phone`, async ({ browser }) => {
    const { context, page, errors } = await adminContext(browser, 390)
    const prefix = locale === 'en' ? '' : `/${locale}`
    for (const path of [
      'campaigns',
      'orders',
      'billboards',
      `schedule?device=${DEVICE}&day=${day}`,
      'outbox',
      'dashboard',
      'audit',
    ]) {
      await page.goto(`${server.url}${prefix}/ops/${path}`)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.getByText(/Loading|Chargement/)).toHaveCount(0)
      // what sticks out of the page, named (tag and class), if anything does
      const wider = await page.evaluate(() => {
        const width = document.documentElement.clientWidth
        if (document.documentElement.scrollWidth <= width) return []
        return [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > width + 1)
          .filter((e) => !e.closest('.ops-table-wrap') || e.matches('.ops-table-wrap'))
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
      })
      expect(wider, path).toEqual([])
    }
    // Orders lists the newest orders before any search
    await page.goto(`${server.url}${prefix}/ops/orders`)
    await expect(page.getByRole('row').filter({ hasText: guid.slice(0, 8) })).toHaveCount(1)
    await expectAccessible(page)
    expect(errors).toEqual([])
    await context.close()
  })
}
