import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { EVENT, expectAccessible, type Lang, PREFIX, photoFile, screenshot, T } from './helpers'

const PROHIBITED = {
  en: "This content can't be shown",
  fr: 'Ce contenu ne peut pas être affiché',
} as const

/** Location → template `templateName` → the customize step. */
async function toCustomize(page: Page, lang: Lang, templateName: string | RegExp) {
  const t = T[lang]
  await page.goto(`${PREFIX[lang]}/${EVENT}`)
  await page.getByRole('button', { name: t.choose }).click()
  await page.getByRole('button', { name: t.continue }).click()
  await expect(page).toHaveURL(/\/design\/template$/)
  await page.getByRole('button', { name: templateName }).first().click()
  await page.getByRole('button', { name: t.continue }).click()
  await expect(page).toHaveURL(/\/design\/customize$/)
}

async function writeMessage(page: Page, lang: Lang, message: string) {
  const t = T[lang]
  await page.getByLabel(t.to).fill('Maman')
  await page.getByLabel(t.message, { exact: true }).fill(message)
  await page.getByLabel(t.from).fill('Léa')
  await page.getByRole('button', { name: t.create }).click()
}

// Flagged content opens the ProhibitedContent modal with the link to contact support; the
// design is still made (the order is reviewed before it plays).
for (const [lang, message] of [
  ['en', 'fuck you'],
  ['fr', 'va te faire foutre'],
] as const) {
  test(`a profane message opens the prohibited-content modal with the support link (${lang})`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ locale: lang === 'fr' ? 'fr-FR' : 'en-US' })
    const page = await context.newPage()
    await toCustomize(page, lang, T[lang].chooseTemplate)
    await page.locator('input[type=file]').setInputFiles(await photoFile())
    await expect(page.locator('img.upload__preview')).toBeVisible()
    await writeMessage(page, lang, message)
    const modal = page.getByRole('dialog', { name: PROHIBITED[lang] })
    await expect(modal).toBeVisible({ timeout: 30_000 })
    await expect(modal.getByRole('link')).toHaveAttribute('href', /^mailto:/)
    await expect(modal).toContainText(
      lang === 'en' ? /review your order before it plays/ : /vérifiera votre commande/,
    )
    await expect(page.locator('img.generated')).toBeVisible()
    if (lang === 'en') {
      await screenshot(page, 'en-modal-prohibited')
      await expectAccessible(page)
    }
    await context.close()
  })
}

test('a clean message makes the design without the prohibited-content modal', async ({ page }) => {
  await toCustomize(page, 'en', T.en.chooseTemplate)
  await page.locator('input[type=file]').setInputFiles(await photoFile())
  await expect(page.locator('img.upload__preview')).toBeVisible()
  await writeMessage(page, 'en', 'Happy birthday, we love you')
  await expect(page.locator('img.generated')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

// A video template — the clip is uploaded and processed (up to 30 s), then the composite
// is made by an async job the app polls every 3 s, and its video preview shows.
test('a video shout: upload a real clip, wait for processing, see the generated video', async ({
  page,
}) => {
  let hasFfmpeg = true
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' })
  } catch {
    hasFfmpeg = false
  }
  test.skip(!hasFfmpeg, 'ffmpeg is not installed: the test cannot make a clip to upload')
  test.setTimeout(180_000)
  const dir = mkdtempSync(join(tmpdir(), 'shouts-clip-'))
  try {
    const clip = join(dir, 'clip.mp4')
    execFileSync(
      'ffmpeg',
      [
        ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15'],
        ...['-t', '2', '-pix_fmt', 'yuv420p', clip],
      ],
      { stdio: 'ignore' },
    )
    await toCustomize(page, 'en', /^Choose (Fireworks|Starlight) \(video/)
    await expect(page.getByRole('heading', { name: 'Your video' })).toBeVisible()
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: readFileSync(clip) })
    await expect(page.locator('video.upload__preview')).toBeVisible()
    // spec §4: processing takes up to 30 s; the button shows it is busy until the clip is ready
    await expect(page.locator('.upload__button')).not.toHaveClass(/btn--loading/, {
      timeout: 35_000,
    })
    await expect(page.locator('.notice--error')).toHaveCount(0)
    await writeMessage(page, 'en', 'Happy birthday!')
    const video = page.locator('video.generated')
    await expect(video).toBeVisible({ timeout: 120_000 })
    await expect(video).toHaveAttribute('src', /\.mp4/)
    // the composite really plays: the browser reads its duration
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.duration), { timeout: 15_000 })
      .toBeGreaterThan(0)
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await screenshot(page, 'en-customize-video')
    await expect(page.getByText('Your design is ready')).toBeVisible()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
