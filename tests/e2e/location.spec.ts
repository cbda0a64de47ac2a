import { expect, test } from '@playwright/test'
import { EVENT, expectAccessible, screenshot } from './helpers'

// Performance: the location step paints a light overview; maplibre loads only on request.
test('the location step shows an overview, and the interactive map only when asked', async ({
  page,
}) => {
  const scripts: string[] = []
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname)
  })
  await page.goto(`/fr/${EVENT}`)
  await expect(page).toHaveURL(/\/fr\/share-the-love\/design\/location$/)
  await expect(page.getByRole('img', { name: /^Aperçu : \d+ panneaux à .*Paris/ })).toBeVisible()
  await expect(page.getByRole('button', { name: /^Choisir Place de l'Opéra/ })).toBeVisible()
  expect(scripts.some((p) => p.includes('billboard-map'))).toBe(false)

  await page.getByRole('button', { name: 'Explorer la carte' }).click()
  await expect(page.locator('.maplibregl-map')).toBeVisible()
  // the billboards and their viewing areas are on the interactive map
  await expect(page.locator('.maplibregl-marker')).not.toHaveCount(0)
  expect(scripts.some((p) => p.includes('billboard-map'))).toBe(true)
  await screenshot(page, 'fr-location-map')
  await expectAccessible(page)
})
