import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { startTestServer, type TestServer } from '../api/helpers'
import { writeStreetArchive } from '../api/map-archive'
import { EVENT, expectAccessible, screenshot } from './helpers'
import { waitForServiceWorker } from './pwa-helpers'

// The location step's map, as a shopper finds their way on it: without a street extract (the
// embedded default) real land, borders and the catalogue's cities; pins that cluster and split; "Near
// me" sorting the list; with an extract the test writes itself, streets and names drawn from it, and
// drawn again offline after one visit.

type Drawn = { layer: string; sourceLayer?: string; name?: string }

/** What the map has drawn on screen: each rendered feature's layer and name. */
async function drawn(page: Page): Promise<Drawn[]> {
  return page.evaluate(() => {
    const container = document.querySelector('.maplibregl-map') as
      | (HTMLElement & { maplibreMap?: { queryRenderedFeatures(): unknown[] } })
      | null
    const map = container?.maplibreMap
    if (!map) return []
    return (
      map.queryRenderedFeatures() as {
        layer: { id: string }
        sourceLayer?: string
        properties: Record<string, unknown>
      }[]
    ).map((f) => ({
      layer: f.layer.id,
      ...(f.sourceLayer ? { sourceLayer: f.sourceLayer } : {}),
      ...(typeof f.properties.name === 'string' ? { name: f.properties.name } : {}),
    }))
  })
}

async function openMap(page: Page, label = 'Explore the map') {
  await page.getByRole('button', { name: label }).click()
  await expect(page.locator('.maplibregl-canvas')).toBeVisible()
}

test('without a street extract the map shows land, borders and the cities, with pins that cluster and zoom in on a tap', async ({
  page,
}) => {
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  await page.goto(`/${EVENT}`)
  await openMap(page)
  await expect
    .poll(async () => {
      const layers = new Set((await drawn(page)).map((f) => f.layer))
      return ['land', 'borders', 'city-names'].filter((l) => layers.has(l))
    })
    .toEqual(['land', 'borders', 'city-names'])
  const cities = (await drawn(page)).filter((f) => f.layer === 'city-names').map((f) => f.name)
  expect(cities).toEqual(expect.arrayContaining(['Paris', 'Berlin']))
  await expect(
    page.getByText('Street detail appears once the shop adds a map extract.'),
  ).toBeVisible()

  // Billboards close together are one pin with their count at this zoom (the catalogue's whole
  // world is in view); a tap on the largest zooms in until it splits
  const clusters = page.locator('.map-cluster')
  await expect(clusters.first()).toBeVisible()
  const counts = (await clusters.allTextContents()).map(Number)
  const pins = page.locator('.map-pin')
  expect(counts.reduce((a, b) => a + b, 0) + (await pins.count())).toBe(
    await page.locator('.billboard__name').count(),
  )
  const largest = Math.max(...counts)
  const zoom = () =>
    page.evaluate(
      () =>
        (
          document.querySelector('.maplibregl-map') as HTMLElement & {
            maplibreMap?: { getZoom(): number }
          }
        ).maplibreMap?.getZoom() ?? 0,
    )
  const before = await zoom()
  await clusters
    .filter({ hasText: new RegExp(`^${largest}$`) })
    .first()
    .click()
  // a tap on a cluster zooms in on its billboards
  await expect.poll(zoom).toBeGreaterThan(before)
  await screenshot(page, 'en-location-map-atlas')
  await expectAccessible(page)
  expect(errors).toEqual([])
})

test('the map speaks French: its gesture hint and its controls', async ({ page }) => {
  await page.goto(`/fr/${EVENT}`)
  await openMap(page, 'Explorer la carte')
  await expect(page.locator('.maplibregl-cooperative-gesture-screen')).toContainText(
    'Utilisez deux doigts pour déplacer la carte',
  )
  await expect(page.getByRole('button', { name: 'Zoomer', exact: true })).toBeAttached()
  await expect(page.getByRole('button', { name: 'Dézoomer' })).toBeAttached()
  await screenshot(page, 'fr-location-map-atlas')
})

test('"Near me" sorts the billboards by distance once the shopper asks, and says how far', async ({
  page,
  context,
}) => {
  // standing at Alexanderplatz, Berlin
  await context.grantPermissions(['geolocation'])
  await context.setGeolocation({ latitude: 52.5219, longitude: 13.4132 })
  await page.goto(`/de/${EVENT}`)
  const names = page.locator('.billboard__name')
  await expect(names.first()).toBeVisible()
  const before = await names.allTextContents()
  await page.getByRole('button', { name: 'In meiner Nähe' }).click()
  await expect(page.locator('.billboard__distance').first()).toHaveText(/ · \d+ m$/)
  const after = await names.allTextContents()
  expect(after).not.toEqual(before)
  // Berlin's billboard first, Paris's further down, each with its distance
  await expect(page.locator('.billboard__city').first()).toContainText('Berlin')
  await expect(page.locator('.billboard__distance').last()).toHaveText(/ · \d[\d.,]* km$/)
  await expect(page.locator('.map-here')).toBeVisible()
  // centred there, at street zoom: still land under the shopper, never a blank plane
  await expect
    .poll(async () => (await drawn(page)).some((f) => f.layer === 'land'), { timeout: 20_000 })
    .toBe(true)
  const centre = await page.evaluate(() => {
    const map = (
      document.querySelector('.maplibregl-map') as HTMLElement & {
        maplibreMap?: { getCenter(): { lat: number; lng: number }; getZoom(): number }
      }
    ).maplibreMap
    return map ? { ...map.getCenter(), zoom: map.getZoom() } : null
  })
  expect(centre?.lat).toBeCloseTo(52.52, 1)
  expect(centre?.lng).toBeCloseTo(13.41, 1)
  expect(centre?.zoom).toBeGreaterThanOrEqual(13)
  await screenshot(page, 'de-location-near-me')
})

test.describe('with a street extract', () => {
  let server: TestServer
  test.beforeAll(async () => {
    server = await startTestServer('pglite', {
      serveApp: true,
      env: { MAP_TILES: 'maps/city.pmtiles' },
    })
    mkdirSync(join(server.dataDir, 'maps'), { recursive: true })
    // around the Opéra: a boulevard, a street and the quarter's name, zooms 10 to 15
    writeStreetArchive(
      join(server.dataDir, 'maps', 'city.pmtiles'),
      [2.3317, 48.8708],
      [
        {
          layer: 'roads',
          kind: 'major_road',
          name: 'Boulevard Haussmann',
          line: [
            [2.32, 48.8711],
            [2.345, 48.871],
          ],
        },
        {
          layer: 'roads',
          kind: 'minor_road',
          name: 'Rue Auber',
          line: [
            [2.3285, 48.8725],
            [2.3317, 48.8706],
          ],
        },
        { layer: 'places', kind: 'neighbourhood', name: 'Opéra', point: [2.333, 48.8712] },
      ],
    )
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  async function streetsAroundTheOpera(page: Page) {
    // chosen on the first visit, still chosen after (the map opens around it)
    const choose = page.getByRole('button', { name: "Choose Place de l'Opéra" })
    if (await choose.isVisible()) await choose.click()
    await expect
      .poll(
        async () => {
          const names = new Set((await drawn(page)).filter((f) => f.sourceLayer).map((f) => f.name))
          return ['Boulevard Haussmann', 'Rue Auber'].filter((n) => names.has(n))
        },
        { timeout: 30_000 },
      )
      .toEqual(['Boulevard Haussmann', 'Rue Auber'])
    // the names are drawn as labels, not only the lines (once the glyphs have come)
    await expect
      .poll(
        async () => (await drawn(page)).filter((f) => f.layer.includes('label')).map((f) => f.name),
        { timeout: 30_000 },
      )
      .toContain('Boulevard Haussmann')
  }

  test('streets and names come from it, and after one visit the map draws offline', async ({
    page,
    context,
  }) => {
    await page.goto(`${server.url}/${EVENT}`)
    await waitForServiceWorker(page)
    await openMap(page)
    await streetsAroundTheOpera(page)
    await expect(page.getByText('Street detail appears')).toHaveCount(0)
    await screenshot(page, 'en-location-map-streets')

    // the venue, no signal: the same streets from what the worker kept
    await context.setOffline(true)
    await page.reload()
    await openMap(page)
    await streetsAroundTheOpera(page)
    await screenshot(page, 'en-location-map-offline')
  })
})
