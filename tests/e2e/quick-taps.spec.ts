import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test'
import { EVENT, photoFile, T } from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

// A tap that lands right after a step appears must count. A real finger does
// not wait for the page to settle: these taps go in as soon as the button is on screen (force: no
// waiting for stability), and the choice must hold afterwards.

const t = T.en

async function slowCpu(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page)
  // a slow phone: what runs after a step's first render takes longer, so a late write shows
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
}

/**
 * Taps the button as soon as it can be tapped, the way a finger does. On the server's page a button
 * shows as disabled until the app holds it (ui/button.tsx): a tap before that does nothing, by
 * design, and a finger would see so.
 */
async function tapAtOnce(button: Locator) {
  await expect(button).toBeEnabled()
  await button.tap({ force: true })
}

const billboard = (page: Page) =>
  page.getByRole('button', { name: /^(Choose |Selected: )Place de l'Opéra/ })

test('with the worker in control, after an offline spell, a tap right after each step appears counts', async ({
  page,
  context,
}) => {
  await page.goto('/')
  await waitForServiceWorker(page)
  await page.goto(`/${EVENT}`)
  await expect(billboard(page)).toBeVisible()
  // the offline spell: the step reloaded offline (the worker's shell), then the network comes back
  await context.setOffline(true)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a billboard' })).toBeVisible()
  await context.setOffline(false)
  await slowCpu(context, page)

  await tapAtOnce(page.getByRole('button', { name: t.choose }))
  await expect(billboard(page)).toHaveAttribute('aria-pressed', 'true')
  await page.getByRole('button', { name: t.continue }).click()

  await tapAtOnce(page.getByRole('button', { name: t.chooseTemplate }))
  await expect(page.getByRole('button', { name: 'Selected: Hearts' })).toBeVisible()
  await expect(page.getByRole('button', { name: t.continue })).toBeEnabled()
  await page.getByRole('button', { name: t.continue }).click()

  await expect(page).toHaveURL(/\/design\/customize$/)
  await page.locator('input[type=file]').setInputFiles(await photoFile())
  await expect(page.locator('img.upload__preview')).toBeVisible()
  await page.getByLabel(t.to).fill('Maman')
  await page.getByLabel(t.message, { exact: true }).fill('Happy day!')
  await page.getByLabel(t.from).fill('Léa')
  await page.getByRole('button', { name: t.create }).click()
  await expect(page.locator('img.generated')).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: t.continue }).click()

  await expect(page).toHaveURL(/\/order\/select-shouts$/)
  const slot = page.locator('button.slot').first()
  await tapAtOnce(slot)
  await expect(slot).toHaveAttribute('aria-pressed', 'true')
  await page.getByRole('button', { name: t.continue }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Billing Info' })).toBeVisible()
  // what was tapped is also what was saved: a reload shows the same choices
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Billing Info' })).toBeVisible()
})

test.describe('a server-rendered first screen whose saved state arrives late', () => {
  // the server renders the location step and the page is live before the saved state is read
  test.use({ serviceWorkers: 'block' })

  test('the choices made before the saved state arrives win over it, and are saved', async ({
    page,
  }) => {
    // an earlier visit left a billboard, the design Sunshine and a recipient saved
    await page.goto(`/${EVENT}`)
    await page.getByRole('button', { name: t.choose }).click()
    await page.getByRole('button', { name: t.continue }).click()
    await page.getByRole('button', { name: 'Choose Sunshine' }).click()
    await page.getByRole('button', { name: t.continue }).click()
    await page.getByLabel(t.to).fill('Maman')
    await expect
      .poll(() =>
        page.evaluate(() => {
          return new Promise<string>((resolve) => {
            const open = indexedDB.open('keyval-store')
            open.onsuccess = () => {
              const get = open.result
                .transaction('keyval')
                .objectStore('keyval')
                .get('shouts:order')
              get.onsuccess = () => {
                resolve(String(get.result?.data?.recipientName ?? ''))
                open.result.close()
              }
            }
          })
        }),
      )
      .toBe('Maman')

    // a weak network: the code that checks the saved state comes late
    let delayed = 0
    await page.route(/\/assets\/saved-state-[^/]*\.js$/, async (route) => {
      delayed++
      await new Promise((resolve) => setTimeout(resolve, 3000))
      await route.continue()
    })
    await page.goto(`/${EVENT}/design/location`)
    // the billboard is not shown as chosen until the saved state is read: the shopper taps it
    await billboard(page).click()
    await page.getByRole('button', { name: t.continue }).click()
    await tapAtOnce(page.getByRole('button', { name: t.chooseTemplate }))
    await expect(page.getByRole('button', { name: 'Selected: Hearts' })).toBeVisible()

    // the saved state arrives: the recipient comes back, the newer design stays
    await page.getByRole('button', { name: t.continue }).click()
    await expect(page).toHaveURL(/\/design\/customize$/)
    await expect(page.getByLabel(t.to)).toHaveValue('Maman')
    expect(delayed).toBeGreaterThan(0)
    await page.goto(`/${EVENT}/design/template`)
    await expect(page.getByRole('button', { name: 'Selected: Hearts' })).toBeVisible()
  })
})
