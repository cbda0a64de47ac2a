import AxeBuilder from '@axe-core/playwright'
import { type Browser, expect, type Locator, type Page } from '@playwright/test'
import sharp from 'sharp'

// The live event of the demo catalogue the server imports on first start (src/server/db/demo-catalogue.ts).
export const EVENT = 'share-the-love'
export const EVENT_NAME = 'Share the Love'
export const BILLBOARD = "Place de l'Opéra"
export const TEMPLATE = 'Hearts'

export type Lang = 'en' | 'fr' | 'de'
export const PREFIX: Record<Lang, string> = { en: '', fr: '/fr', de: '/de' }

/** What a shopper reads on the buttons and fields, per language (the catalogs' translations). */
export const T = {
  en: {
    continue: 'Continue',
    choose: /^Choose Place de l'Opéra/,
    chooseTemplate: 'Choose Hearts',
    uploadPhoto: 'Upload a photo',
    to: "To (recipient's name)",
    message: 'Message',
    from: 'From (your name)',
    create: 'Create my design',
    firstName: 'First name',
    lastName: 'Last name',
    email: 'Email',
    phone: 'Phone',
    cardNumber: 'Card number',
    expiry: 'Expiry (MM/YY)',
    cvc: 'CVC',
    review: 'Review order',
    placeOrder: 'Place order',
    booked: 'Thank you! Your shout is booked',
    agreements: [
      /not look at or film/,
      /terms and conditions/,
      /cannot be changed/,
      /privacy policy/,
    ],
    stepLabel: 'Select Location',
  },
  fr: {
    continue: 'Continuer',
    choose: /^Choisir Place de l'Opéra/,
    chooseTemplate: 'Choisir Cœurs',
    uploadPhoto: 'Ajouter une photo',
    to: 'Pour (nom du destinataire)',
    message: 'Message',
    from: 'De (votre nom)',
    create: 'Créer mon visuel',
    firstName: 'Prénom',
    lastName: 'Nom',
    email: 'E-mail',
    phone: 'Téléphone',
    cardNumber: 'Numéro de carte',
    expiry: 'Expiration (MM/AA)',
    cvc: 'CVC',
    review: 'Vérifier la commande',
    placeOrder: 'Passer la commande',
    booked: 'Merci ! Votre shout est réservé',
    agreements: [
      /ne regarderai pas/,
      /conditions générales/,
      /ne pourront plus être modifiés/,
      /politique de confidentialité/,
    ],
    stepLabel: 'Choisir le lieu',
  },
  de: {
    continue: 'Weiter',
    choose: /^Place de l'Opéra.* wählen$/,
    chooseTemplate: 'Herzen wählen',
    uploadPhoto: 'Foto hochladen',
    to: 'An (Name der beschenkten Person)',
    message: 'Nachricht',
    from: 'Von (dein Name)',
    create: 'Mein Design erstellen',
    firstName: 'Vorname',
    lastName: 'Nachname',
    email: 'E-Mail',
    phone: 'Telefon',
    cardNumber: 'Kartennummer',
    expiry: 'Ablaufdatum (MM/JJ)',
    cvc: 'CVC',
    review: 'Bestellung prüfen',
    placeOrder: 'Bestellung aufgeben',
    booked: 'Danke! Dein Shout ist gebucht',
    agreements: [
      /nicht auf die Werbetafel schauen/,
      /Allgemeinen Geschäftsbedingungen/,
      /nicht mehr geändert werden/,
      /Datenschutzerklärung/,
    ],
    stepLabel: 'Standort wählen',
  },
} as const

let photo: Buffer | null = null
export async function photoFile() {
  photo ??= await sharp({
    create: { width: 800, height: 600, channels: 3, background: { r: 250, g: 140, b: 90 } },
  })
    .png()
    .toBuffer()
  return { name: 'family.png', mimeType: 'image/png', buffer: photo }
}

export async function screenshot(page: Page, name: string) {
  // from the top, so the sticky header is drawn where a shopper sees it, not mid-page
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: `tests/e2e/screenshots/${name}.png`, fullPage: true })
}

/** No serious or critical accessibility violation on the screen. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  )
}

/** Location → template → customize, the design part of the flow. */
export async function designShout(page: Page, lang: Lang, shots?: string, axe = false) {
  const t = T[lang]
  await page.goto(`${PREFIX[lang]}/${EVENT}`)
  await expect(page).toHaveURL(new RegExp(`${PREFIX[lang]}/${EVENT}/design/location$`))
  await page.getByRole('button', { name: t.choose }).click()
  if (shots) await screenshot(page, `${shots}-location`)
  if (axe) await expectAccessible(page)
  await page.getByRole('button', { name: t.continue }).click()

  await expect(page).toHaveURL(/\/design\/template$/)
  await page.getByRole('button', { name: t.chooseTemplate }).click()
  if (shots) await screenshot(page, `${shots}-template`)
  if (axe) await expectAccessible(page)
  await page.getByRole('button', { name: t.continue }).click()

  await expect(page).toHaveURL(/\/design\/customize$/)
  await page.locator('input[type=file]').setInputFiles(await photoFile())
  await expect(page.locator('img.upload__preview')).toBeVisible()
  await page.getByLabel(t.to).fill('Maman')
  await page.getByLabel(t.message, { exact: true }).fill('Happy day!\nWe love you')
  await page.getByLabel(t.from).fill('Léa')
  await page.getByRole('button', { name: t.create }).click()
  await expect(page.locator('img.generated')).toBeVisible({ timeout: 30_000 })
  if (shots) await screenshot(page, `${shots}-customize`)
  if (axe) await expectAccessible(page)
  await page.getByRole('button', { name: t.continue }).click()
  await expect(page).toHaveURL(/\/order\/select-shouts$/)
}

/** Picks the first `count` open slots of the first open day that has that many (late in the day the
 * 5-hour cut-off leaves today fewer); `last` picks the day's last ones, far from the cut-off, for a
 * journey long enough for the first open slot to cross it before the order is placed. */
/** How many of the first open slots a journey leaves alone: an hour of 15-minute slots. */
const CUT_OFF_MARGIN_SLOTS = 4

export async function pickSlots(
  page: Page,
  count: number,
  { last = false }: { last?: boolean } = {},
): Promise<string[]> {
  const slots = page.locator('button.slot')
  await expect(slots.first()).toBeVisible()
  // The first open slots sit just past the 5-hour cut-off, which moves with the wall clock: a slot
  // picked there can close while a slow journey is still filling in the order. The first few are
  // left alone (on a day that has enough), or the day's last ones taken.
  const skip = last ? 0 : CUT_OFF_MARGIN_SLOTS
  const days = page.locator('.days button')
  for (let d = 0; (await slots.count()) < count + skip && d < (await days.count()); d++) {
    const day = days.nth(d)
    if ((await day.getAttribute('aria-pressed')) === 'true' || !(await day.isEnabled())) continue
    await day.click()
    await expect(day).toHaveAttribute('aria-pressed', 'true')
    await expect(slots.first()).toBeVisible()
  }
  const labels: string[] = []
  const shown = await slots.count()
  const first = last ? shown - count : Math.min(skip, Math.max(0, shown - count))
  for (let i = first; i < first + count; i++) {
    const slot = slots.nth(i)
    labels.push(((await slot.textContent()) ?? '').trim())
    await slot.click()
    await expect(slot).toHaveAttribute('aria-pressed', 'true')
  }
  return labels
}

export async function fillContact(page: Page, lang: Lang, email = 'lea@example.com') {
  const t = T[lang]
  await page.getByLabel(t.firstName, { exact: true }).fill('Léa')
  await page.getByLabel(t.lastName, { exact: true }).fill('Martin')
  await page.getByLabel(t.email, { exact: true }).fill(email)
  // an international number is taken whatever the billboard's country
  await page.getByLabel(t.phone, { exact: true }).fill('+33 6 12 34 56 78')
}

export async function fillCard(page: Page, lang: Lang, number = '4242 4242 4242 4242') {
  const t = T[lang]
  await page.getByLabel(t.cardNumber, { exact: true }).fill(number)
  await page.getByLabel(t.expiry).fill('12/34')
  await page.getByLabel(t.cvc).fill('123')
}

export async function acceptAgreements(page: Page, lang: Lang) {
  for (const label of T[lang].agreements) await page.getByLabel(label).check()
}

export async function newPage(browser: Browser, lang: Lang = 'en') {
  const context = await browser.newContext({
    locale: lang === 'en' ? 'en-US' : lang === 'fr' ? 'fr-FR' : 'de-DE',
  })
  return context.newPage()
}

/** Moves every saved envelope of the shop back in time, as if the shopper left for `ms`. */
export async function ageSavedState(page: Page, ms: number) {
  await page.evaluate(async (age) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('keyval-store')
      open.onsuccess = () => resolve(open.result)
      open.onerror = () => reject(open.error)
    })
    const store = db.transaction('keyval', 'readwrite').objectStore('keyval')
    const keys = await new Promise<IDBValidKey[]>((resolve) => {
      const req = store.getAllKeys()
      req.onsuccess = () => resolve(req.result)
    })
    for (const key of keys) {
      if (typeof key !== 'string' || !key.startsWith('shouts:')) continue
      const value = await new Promise<{ savedAt?: number }>((resolve) => {
        const req = store.get(key)
        req.onsuccess = () => resolve(req.result)
      })
      if (value && typeof value.savedAt === 'number') {
        store.put({ ...value, savedAt: value.savedAt - age }, key)
      }
    }
    await new Promise((resolve) => {
      store.transaction.oncomplete = resolve
    })
    db.close()
  }, ms)
}

/**
 * Waits until the billboard player's picture has loaded, not only laid out: the player counts a play
 * as shown, and proves it, from the picture's load. A test that moves the clock past the play's end
 * before the file has arrived (it comes while the worker precaches the app) ends a play nobody saw,
 * which rightly sends no proof.
 */
export async function expectPictureShown(picture: Locator) {
  await expect(picture).toBeVisible()
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true)
}
