import { expect, test } from '@playwright/test'
import {
  ageSavedState,
  designShout,
  EVENT,
  expectAccessible,
  pickSlots,
  screenshot,
  T,
} from './helpers'

test('home page: title, live events and its accessibility', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveTitle('Share the Gift of a Billboard')
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await expect(page.getByRole('heading', { name: 'Share the Love' })).toBeVisible()
  // home layout: content only, no header
  await expect(page.getByRole('banner')).toHaveCount(0)
  await screenshot(page, 'en-home')
  await expectAccessible(page)
  await page.getByRole('link', { name: 'Create a shout for Share the Love' }).click()
  await expect(page).toHaveURL(new RegExp(`/${EVENT}/design/location$`))
})

test('the language is detected at the root only, and kept in the i18n_redirected cookie', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'de-DE' })
  const page = await context.newPage()
  await page.goto('/')
  await expect(page).toHaveURL(/\/de$/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verschenke eine Werbetafel')
  const cookie = (await context.cookies()).find((c) => c.name === 'i18n_redirected')
  expect(cookie?.value).toBe('de')
  expect(cookie?.sameSite).toBe('Lax')
  // about 365 days
  expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(364 * 86400)
  await screenshot(page, 'de-home')
  // an unprefixed deep link is English whatever the browser says
  await page.goto(`/${EVENT}/design/location`)
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await context.close()
})

test('the language switcher moves to the same page in another language', async ({ page }) => {
  await page.goto(`/${EVENT}/design/location?ref=qr`)
  await page.getByRole('button', { name: 'Language: English' }).click()
  await page.getByRole('button', { name: 'Français' }).click()
  await expect(page).toHaveURL(new RegExp(`/fr/${EVENT}/design/location\\?ref=qr$`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choisissez un panneau')
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
  await page.getByRole('button', { name: 'Langue : Français' }).click()
  await expect(page.getByRole('button', { name: 'Deutsch' })).toBeVisible()
  await screenshot(page, 'fr-location-language-menu')
  await page.getByRole('button', { name: 'English' }).click()
  await expect(page).toHaveURL(new RegExp(`127.0.0.1:\\d+/${EVENT}/design/location\\?ref=qr$`))
})

test('the hamburger menu opens, and closes on Escape and on a route change', async ({ page }) => {
  await page.goto(`/${EVENT}/design/location`)
  await page.getByRole('link', { name: /How to get there: Place de l'Opéra/ }).click()
  await expect(page).toHaveURL(/shout-location\?deviceId=paris-opera-1$/)
  await page.getByRole('button', { name: 'Open menu' }).click()
  const menu = page.getByRole('navigation', { name: 'Main menu' })
  await expect(menu).toBeVisible()
  await expect(menu.getByRole('link', { name: 'FAQs' })).toHaveAttribute('href', /\/s\/faqs\/en$/)
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await page.getByRole('button', { name: 'Open menu' }).click()
  await expect(menu.getByRole('link', { name: 'Privacy Policy' })).toBeVisible()
  await screenshot(page, 'en-menu')
  await page.goBack()
  await expect(page).toHaveURL(/design\/location$/)
  await expect(menu).toBeHidden()
  await page.goForward()
  await expect(page.getByRole('link', { name: 'Open in my maps app' })).toHaveAttribute(
    'href',
    /^geo:48\.87/,
  )
  await screenshot(page, 'en-shout-location')
  await expectAccessible(page)
})

test('deep links are guarded: the first missing step wins, language and query kept', async ({
  page,
}) => {
  await page.goto(`/fr/${EVENT}/order/review?utm=poster`)
  await expect(page).toHaveURL(new RegExp(`/fr/${EVENT}/design/location\\?utm=poster$`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choisissez un panneau')

  await page.goto(`/${EVENT}`)
  await expect(page).toHaveURL(new RegExp(`/${EVENT}/design/location$`))
  await page.getByRole('button', { name: T.en.choose }).click()
  await page.goto(`/de/${EVENT}/order/checkout`)
  await expect(page).toHaveURL(new RegExp(`/de/${EVENT}/design/template$`))
})

test('an unknown event goes to the localized event-not-found page with its query', async ({
  page,
}) => {
  await page.goto('/no-such-event/design/location?promo=X1')
  await expect(page).toHaveURL(/\/event-not-found\?promo=X1$/)
  await expect(page.getByRole('heading', { name: 'Event not found' })).toBeVisible()
  await screenshot(page, 'en-event-not-found')
  await expectAccessible(page)
  await page.getByRole('link', { name: 'Back to the homepage' }).click()
  await expect(page.getByRole('heading', { name: 'Share the Gift of a Billboard' })).toBeVisible()

  await page.goto('/fr/no-such-event')
  await expect(page).toHaveURL(/\/fr\/event-not-found$/)
  await expect(page.getByRole('heading', { name: 'Événement introuvable' })).toBeVisible()
})

test('an unknown page shows the 404 page', async ({ page }) => {
  await page.goto(`/${EVENT}/design/nowhere/at-all`)
  await expect(page.getByRole('heading', { name: "This page doesn't exist" })).toBeVisible()
  await expect(page.getByText('The link you followed is not valid.')).toBeVisible()
  await screenshot(page, 'en-404')
  await expectAccessible(page)
  await page.goto(`/de/${EVENT}/nothing/here`)
  await expect(page.getByRole('heading', { name: 'Diese Seite gibt es nicht' })).toBeVisible()
})

test('saved state expires after its lifetime and is never shown', async ({ page }) => {
  await designShout(page, 'en')
  // a time on the event's last open day, not the day the page opens on
  const lastDay = page.locator('.days button:enabled').last()
  await lastDay.click()
  await expect(lastDay).toHaveAttribute('aria-pressed', 'true')
  const dayName = ((await lastDay.textContent()) ?? '').trim()
  const [time] = await pickSlots(page, 1, { last: true })
  await page.reload()
  // still fresh: the shopper is where they were, on the day of the time they chose
  await expect(page).toHaveURL(/\/order\/select-shouts$/)
  const shownDay = page.locator('.days button[aria-pressed="true"]')
  await expect(shownDay).toContainText(dayName)
  // far along the strip that scrolls sideways on a phone, and still in view
  await expect(shownDay).toBeInViewport()
  await expect(page.locator('button.slot[aria-pressed="true"]')).toHaveText([time ?? ''])

  await ageSavedState(page, 61 * 60 * 1000)
  await page.reload()
  await expect(page).toHaveURL(new RegExp(`/${EVENT}/design/location$`))
  await expect(page.getByText('No billboard chosen yet')).toBeVisible()
})

test('modals: street view and the cut-off explanation', async ({ page }) => {
  await page.goto(`/${EVENT}/design/location`)
  await page.getByRole('button', { name: /Street view of Place de l'Opéra/ }).click()
  const street = page.getByRole('dialog', { name: /Place de l'Opéra/ })
  await expect(street).toBeVisible()
  await screenshot(page, 'en-modal-street-view')
  await street.getByRole('button', { name: 'Close' }).click()
  await expect(street).toBeHidden()

  await designShout(page, 'en')
  await page.getByRole('button', { name: "Why can't I pick earlier times?" }).click()
  const cutoff = page.getByRole('dialog', { name: "Why can't I pick earlier times?" })
  await expect(cutoff).toContainText('Orders must be purchased 5 hours before play time')
  await screenshot(page, 'en-modal-cut-off')
  await page.keyboard.press('Escape')
  await expect(cutoff).toBeHidden()
  await expect(
    page.getByText(/Times are shown in the billboard's time zone: .+ \(Europe\/Paris\)/),
  ).toBeVisible()
  await pickSlots(page, 1)
  await expect(page.getByText('At least 2 slots recommended')).toBeVisible()
})

test.describe('desktop width', () => {
  test.use({ viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false })
  test('screens look right on a desktop', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('heading', { name: 'Share the Love' })).toBeVisible()
    await screenshot(page, 'desktop-home')
    await designShout(page, 'en', 'desktop')
    await pickSlots(page, 2)
    await screenshot(page, 'desktop-select-shouts')
    await page.getByRole('button', { name: 'Continue' }).click()
    await screenshot(page, 'desktop-checkout')
  })
})

test('the location step works by keyboard', async ({ page }) => {
  await page.goto(`/${EVENT}/design/location`)
  const choose = page.getByRole('button', { name: T.en.choose })
  // The pre-rendered list's buttons are disabled until the app takes the page over (a disabled
  // button takes no focus): a keyboard user's Enter counts from then on.
  await expect(choose).toBeEnabled()
  await choose.focus()
  await expect(choose).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: /^Selected: Place de l'Opéra/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  const next = page.getByRole('button', { name: 'Continue' })
  await next.focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/design\/template$/)
})
