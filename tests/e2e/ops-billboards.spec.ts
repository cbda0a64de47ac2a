import { type Browser, expect, type Page, test } from '@playwright/test'
import type { Heartbeat } from '../../src/contract/index.ts'
import type { playsOfSlot } from '../../src/domain/index.ts'
import {
  boughtOrder,
  client,
  daySlots,
  generateContent,
  LIVE,
  proofsOfSlot,
  startTestServer,
  type TestServer,
} from '../api/helpers'
import { signedInOperator } from '../api/ops-helpers'
import { expectAccessible, screenshot } from './helpers'

// The console's Billboards page: one billboard playing (its web player beat a minute ago, a shout
// sold and proven today), one offline (its SMIL player last fetched 25 minutes ago), the rest never
// connected, each with its day's timeline, its last 7 days and its proofs, the fleet's map coloured
// by state; in English on a phone, in English and French at the issue's desk size (1366×900) and in
// German at a desk, axe clean, from a chunk of its own. A server of its own (the
// production build, a fresh embedded database) in-process, its clock the test's.

const PLAYING = 'paris-opera-1'
const OFFLINE = 'paris-republique'
let server: TestServer
let clock = Date.UTC(2027, 4, 7, 8, 0, 0)

test.beforeAll(async () => {
  server = await startTestServer('pglite', { serveApp: true, now: () => clock })
  const tokens: Record<string, string> = {}
  for (const device of [PLAYING, OFFLINE]) {
    const linked = await server.deps.player.link(device)
    if (!linked.ok) throw new Error('no player link')
    tokens[device] = linked.value.token
  }
  // a shout sold for 17:00 in Paris today (the live event's first day), its four plays proven
  const api = client(server.url)
  const event = (await api.get<Parameters<typeof playsOfSlot>[0]>(`/spotlight/events/${LIVE}`)).body
  const content = await generateContent(api, PLAYING)
  const [slot] = daySlots(0, 68, 1) as [number]
  const order = await boughtOrder(api, { slots: [slot], content })
  expect(order.state).toBe('Confirmed')
  const plays = proofsOfSlot(event, 'Europe/Paris', order.guid, slot, { start: 30, end: 10 })
  clock = Math.max(...plays.map((p) => p.endedAtEpochMs)) + 60_000
  const proven = await api.post(
    `/player/${PLAYING}/plays`,
    { plays },
    { authorization: `Bearer ${tokens[PLAYING]}` },
  )
  expect(proven.body).toMatchObject({ accepted: 4, refused: 0 })
  const smil = `${server.url}/api/v1/player/${OFFLINE}/schedule.smil?token=${tokens[OFFLINE]}`
  expect((await fetch(smil)).status).toBe(200)
  clock += 24 * 60_000
  const beat: Heartbeat = {
    sentAtEpochMs: clock - 5 * 60_000, // its clock is five minutes slow
    showing: { kind: 'house' },
    clockCorrectionMs: 5 * 60_000,
    window: null,
    files: { cached: 4, failed: 1 },
    pendingPlays: 2,
    version: 'e2e-1',
    screen: { widthPx: 1400, heightPx: 400 },
  }
  const beaten = await client(server.url).post(`/player/${PLAYING}/heartbeat`, beat, {
    authorization: `Bearer ${tokens[PLAYING]}`,
  })
  expect(beaten.status).toBe(200)
  clock += 60_000
})
test.afterAll(async () => {
  await server?.stop()
})

/** No two tick labels of any day's timeline overlap: their boxes are compared. */
async function expectTicksApart(page: Page) {
  const axes = page.locator('.tl__axis')
  await expect(axes.first()).toBeVisible()
  for (const axis of await axes.all()) {
    const boxes = await axis
      .locator('.tl__tick')
      .evaluateAll((ticks) => ticks.map((t) => t.getBoundingClientRect().toJSON()))
    expect(boxes.length).toBeGreaterThan(1)
    for (let i = 1; i < boxes.length; i++) {
      expect(boxes[i].left, `tick ${i} starts after tick ${i - 1} ends`).toBeGreaterThanOrEqual(
        boxes[i - 1].right,
      )
    }
  }
}

async function adminPage(browser: Browser, width: number, height = 844) {
  const admin = await signedInOperator(server, 'admin')
  const [name, value] = admin.cookie.split('=') as [string, string]
  const context = await browser.newContext({
    viewport: { width, height },
    isMobile: width < 600,
    hasTouch: width < 600,
    timezoneId: 'UTC',
  })
  await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Strict' }])
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  const scripts: string[] = []
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname)
  })
  return { context, page, errors, scripts }
}

test('at 390 px: one billboard playing, one offline, the others never connected', async ({
  browser,
}) => {
  const { context, page, errors, scripts } = await adminPage(browser, 390)
  await page.goto(`${server.url}/ops/review`)
  await expect(page.getByRole('heading', { level: 1, name: 'Review' })).toBeVisible()
  // the page's code is not part of the console's first load
  expect(scripts.filter((s) => /billboards/.test(s))).toEqual([])
  // on a phone the navigation is a menu behind the bar's button
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeHidden()
  await page.getByRole('button', { name: /^Menu/ }).click()
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Billboards' })
    .click()
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeHidden()
  await expect(page.getByRole('heading', { level: 1, name: 'Billboards' })).toBeVisible()
  expect(scripts.filter((s) => /\/assets\/ops\/ops-billboards-/.test(s))).toHaveLength(1)

  // the fleet: counts by state that filter the list, trouble first, a search by name
  const counts = page.getByRole('list', { name: 'The fleet by state' })
  const fleet = page.getByRole('list', { name: 'Billboards and their state' })
  const names = fleet.getByRole('listitem').getByRole('button')
  await expect(names.first()).toBeVisible()
  const total = await names.count()
  expect(total).toBeGreaterThan(2)
  // trouble first: the one playing with its clock off and a file failing, then the one offline
  await expect(names.nth(0)).toHaveText(/Opéra/)
  await expect(names.nth(1)).toHaveText(/République/)
  await counts.getByRole('button', { name: '1 Offline' }).click()
  await expect(counts.getByRole('button', { name: '1 Offline' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await expect(names).toHaveText([/République/])
  await counts.getByRole('button', { name: '1 Playing' }).click()
  await expect(names).toHaveText([/Opéra/])
  await counts.getByRole('button', { name: new RegExp(`^${total - 2} Never connected`) }).click()
  await expect(names).toHaveCount(total - 2)
  await counts.getByRole('button', { name: new RegExp(`^${total} All`) }).click()
  await expect(names).toHaveCount(total)
  await screenshot(page, 'ops-fleet-390')
  await page.getByLabel('Find a billboard by name, city or id').fill('opera')
  await expect(names).toHaveText([/Opéra/])
  await expectAccessible(page)

  // a billboard's own page: its state line, its day, its proofs as CSV
  await fleet.getByRole('button', { name: 'Opéra' }).click()
  await expect(page.getByRole('heading', { level: 1, name: /Opéra/ })).toBeVisible()
  const playing = page.getByRole('article', { name: 'Opéra' })
  await expect(playing.getByText('Playing', { exact: true })).toBeVisible()
  await expect(playing.getByText('our web player')).toBeVisible()
  await expect(playing.getByText('5 min slow (corrected)')).toBeVisible()
  await expect(playing.getByText('4 cached, 1 failed')).toBeVisible()
  await expect(playing.getByText('the house card')).toBeVisible()
  await expect(playing.getByText('1 minute ago', { exact: false })).toBeVisible()
  await expect(playing.getByText('4 due, 4 proven, 0 missed')).toBeVisible()
  await expect(
    playing.getByRole('img', { name: /: 4 shout plays, 0 campaign plays, 0 plays without proof;/ }),
  ).toBeVisible()
  await expect(page.getByText('Times in Europe/Paris', { exact: true })).toBeVisible()
  await screenshot(page, 'ops-billboard-390')
  await expectTicksApart(page)
  const href = await page.getByRole('link', { name: 'Download the CSV' }).getAttribute('href')
  const csv = await page.request.get(`${server.url}${href}`)
  expect(csv.headers()['content-type']).toMatch(/^text\/csv/)
  const rows = (await csv.text()).trimEnd().split('\r\n').slice(1)
  // each proven play once, with its times in UTC and on the billboard's clock
  expect(rows).toHaveLength(4)
  expect(new Set(rows.map((r) => r.split(',')[12])).size).toBe(4)
  for (const row of rows) {
    const [billboard, zone, startUtc, , startLocal] = row.split(',')
    expect([billboard, zone]).toEqual([PLAYING, 'Europe/Paris'])
    expect(startUtc).toMatch(/^2027-05-07 15:/)
    expect(startLocal).toMatch(/^2027-05-07 17:/)
  }
  // nothing wider than the phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await expectAccessible(page)
  expect(errors).toEqual([])
  await context.close()
})

test('at 1280 px in German: the states side by side', async ({ browser }) => {
  const { context, page, errors } = await adminPage(browser, 1280)
  await page.goto(`${server.url}/de/ops/billboards`)
  await expect(page.getByRole('heading', { level: 1, name: 'Werbetafeln' })).toBeVisible()
  const counts = page.getByRole('list', { name: 'Die Flotte nach Zustand' })
  await counts.getByRole('button', { name: '1 Offline' }).click()
  const fleet = page.getByRole('list', { name: 'Die Werbetafeln und ihr Zustand' })
  await expect(fleet.getByRole('listitem').getByRole('button')).toHaveText([/République/])
  await fleet.getByRole('button', { name: 'République' }).click()
  const offline = page.getByRole('article', { name: 'République' })
  await expect(offline.getByText('Offline', { exact: true })).toBeVisible()
  await expect(offline.getByText('0 geplant, 0 belegt, 0 verpasst')).toBeVisible()
  await screenshot(page, 'ops-billboard-1280-de')
  await expectTicksApart(page)
  // every language's name shows whole in the console's sidebar, none cut off at its edge
  const nav = page.getByRole('navigation', { name: 'Konsole' })
  for (const language of ['English', 'Français', 'Deutsch']) {
    const whole = await nav.getByRole('link', { name: language, exact: true }).evaluate((a) => {
      const sidebar = (a.closest('nav') as HTMLElement).getBoundingClientRect()
      const list = a.closest('ul') as HTMLElement
      const r = a.getBoundingClientRect()
      return (
        r.left >= sidebar.left && r.right <= sidebar.right && list.scrollWidth <= list.clientWidth
      )
    })
    expect(whole, language).toBe(true)
  }
  await expectAccessible(page)
  expect(errors).toEqual([])
  await context.close()
})

/** The chart's own scales, as Chart.js drew them (the chart component writes them on its canvas). */
async function scalesOf(chart: import('@playwright/test').Locator) {
  await expect(chart).toHaveAttribute('data-scales', /"id":"x"/)
  return JSON.parse((await chart.getAttribute('data-scales')) ?? '[]') as {
    id: string
    title: string
    ticks: string[]
  }[]
}

const DESK: Record<'en' | 'fr', Record<string, string | RegExp>> = {
  en: {
    playing: 'Playing',
    offline: 'Offline',
    counts: 'The fleet by state',
    fleet: 'Billboards and their state',
    legend: 'Pins by state: playing, late, offline, never connected.',
    chart: /^The last 7 days: 4 of 4 sold plays proven; the lowest uptime of a day 100%\.$/,
    day: 'Day',
    plays: 'Sold plays',
    uptime: 'Uptime (%)',
    proofs: 'Last proofs of play',
    noOutage: 'No outage in the last 7 days.',
    time: /^May 7, 2027, 5:\d\d\sPM/,
  },
  fr: {
    playing: 'Diffuse',
    offline: 'Hors ligne',
    counts: 'La flotte par état',
    fleet: 'Les panneaux et leur état',
    legend: 'Repères par état\u202f: diffuse, en retard, hors ligne, jamais connecté.',
    chart:
      /^Les 7 derniers jours\s: 4 diffusions vendues prouvées sur 4\s; la plus faible disponibilité d’un jour\s: 100\s%\.$/,
    day: 'Jour',
    plays: 'Diffusions vendues',
    uptime: 'Disponibilité (%)',
    proofs: 'Dernières preuves de diffusion',
    noOutage: 'Aucune panne ces 7 derniers jours.',
    time: /^7 mai 2027,? (à )?17:\d\d/,
  },
}

for (const locale of ['en', 'fr'] as const) {
  test(`at 1366×900 in ${locale}: the fleet's map by state; a billboard's last 7 days and proofs`, async ({
    browser,
  }) => {
    const words = DESK[locale]
    const { context, page, errors } = await adminPage(browser, 1366, 900)
    await page.goto(`${server.url}${locale === 'en' ? '' : `/${locale}`}/ops/billboards`)
    const counts = page.getByRole('list', { name: words.counts as string })
    const fleet = page.getByRole('list', { name: words.fleet as string })
    await expect(page.getByText(words.legend as string)).toBeVisible()
    // each pin in its state's colour, the state badge's own; the counts filter the map too
    const pins = page.getByTestId('fleet-map').locator('.map-pin')
    const colour = (l: import('@playwright/test').Locator) =>
      l.evaluate((e) => getComputedStyle(e).color)
    for (const [state, label] of [
      ['playing', words.playing],
      ['offline', words.offline],
    ] as const) {
      await counts.getByRole('button', { name: `1 ${label as string}` }).click()
      await expect(pins).toHaveCount(1)
      const badge = fleet.locator(`.ops-billboard__state--${state}`)
      expect(await colour(pins.first()), state).toBe(await colour(badge))
    }
    await screenshot(page, `ops-fleet-map-1366-${locale}`)
    // a pin opens its billboard's page
    await counts.getByRole('button', { name: `1 ${words.playing as string}` }).click()
    await pins.first().click()
    await expect(page.getByRole('heading', { level: 1, name: /Opéra/ })).toBeVisible()
    // the last 7 days: uptime and proven / due plays as one chart, whole-number ticks, its days
    const chart = page.getByRole('img', { name: words.chart as RegExp })
    await expect(chart).toBeVisible()
    const scales = await scalesOf(chart)
    expect(scales.map((s) => [s.id, s.title])).toEqual([
      ['x', words.day],
      ['left', words.plays],
      ['right', words.uptime],
    ])
    expect(scales.find((s) => s.id === 'x')?.ticks).toHaveLength(7)
    for (const axis of ['left', 'right'])
      for (const tick of scales.find((s) => s.id === axis)?.ticks ?? [])
        expect(tick, axis).toMatch(/^\d+$/)
    await expect(page.getByText(words.noOutage as string)).toBeVisible()
    const proofs = page.getByTestId('billboard-proofs')
    await expect(page.getByRole('heading', { name: words.proofs as string })).toBeVisible()
    await expect(proofs.getByRole('row')).toHaveCount(5)
    // each on the billboard's clock (Paris: the shout sold for 17:00), not the browser's (UTC)
    await expect(proofs.getByRole('row').nth(1).getByRole('cell').first()).toHaveText(
      words.time as RegExp,
    )
    await screenshot(page, `ops-billboard-week-1366-${locale}`)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      1366,
    )
    await expectAccessible(page)
    expect(errors).toEqual([])
    await context.close()
  })
}
