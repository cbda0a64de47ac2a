// npm run bytes:first-visit: what a shopper's first visit downloads, in bytes on the wire (headers and
// compressed bodies, every request of the page and of its service worker: the precache is part of the
// first visit on venue data). Three steps in one fresh Chromium profile: the home page until the
// worker is installed and the network is quiet, then the event's location step (the QR code's
// address, its redirect included), then the interactive map opened there. The bytes are counted by a
// TCP relay in front of the server, so nothing a browser target hides (the worker's own fetches) is
// missed.
//
// Against this build (npm run build first; a fresh embedded database with the demo catalogue), or
// against a shop already running: FIRST_VISIT_URL=http://127.0.0.1:3000 (another build to compare).
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { LIVE_EVENT_SLUG } from '../src/server/catalogue/demo-catalogue.ts'
import { chromiumArgs, findChromium } from '../tests/setup/find-chromium.ts'

const given = process.env.FIRST_VISIT_URL
const dataDir = given ? null : mkdtempSync(join(tmpdir(), 'shouts-bytes-'))
const server = given
  ? null
  : await (await import('../src/server/main.ts')).startServer({
      port: 0,
      dataDir: dataDir ?? undefined,
      env: { LOG_LEVEL: 'error' },
    })
const upstream = new URL(given ?? server?.url ?? '')

let received = 0
let requests = 0
const relay = createServer((browserSide) => {
  const shopSide = connect(Number(upstream.port), upstream.hostname)
  browserSide.pipe(shopSide)
  shopSide.on('data', (chunk: Buffer) => {
    received += chunk.length
  })
  shopSide.pipe(browserSide)
  const close = () => {
    browserSide.destroy()
    shopSide.destroy()
  }
  browserSide.on('error', close)
  shopSide.on('error', close)
})
await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
const base = `http://127.0.0.1:${(relay.address() as { port: number }).port}`

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? findChromium() ?? chromium.executablePath(),
  args: chromiumArgs,
})
const context = await browser.newContext({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
})
context.on('request', () => {
  requests++
})
// the largest answers the page saw (the worker's own fetches are in the total, not in this list)
let largest: { url: string; bytes: number }[] = []
context.on('requestfinished', async (request) => {
  const sizes = await request.sizes().catch(() => null)
  if (!sizes) return
  largest.push({
    url: new URL(request.url()).pathname,
    bytes: sizes.responseBodySize + sizes.responseHeadersSize,
  })
})
const page = await context.newPage()

/** Waits until no byte has arrived for three seconds (the worker's precache included). */
async function quiet() {
  let last = -1
  while (last !== received) {
    last = received
    await page.waitForTimeout(3000)
  }
}

const rows: [string, number, number][] = []
const step = async (name: string, run: () => Promise<void>) => {
  const before = received
  const beforeRequests = requests
  largest = []
  await run()
  await quiet()
  rows.push([name, received - before, requests - beforeRequests])
  if (process.env.FIRST_VISIT_FILES) {
    for (const file of largest.sort((a, b) => b.bytes - a.bytes).slice(0, 6)) {
      console.log(`    ${name}: ${file.url} ${file.bytes}`)
    }
  }
}

await step('home (with the worker installed)', async () => {
  await page.goto(`${base}/`)
  await page.evaluate(async () => {
    await navigator.serviceWorker?.ready
  })
})
await step('location step (QR code address)', async () => {
  await page.goto(`${base}/${LIVE_EVENT_SLUG}?device=paris-opera-1`)
  await page.waitForURL(/\/design\/location/)
})
await step('the map opened', async () => {
  await page
    .getByRole('button', { name: 'Explore the map' })
    .click()
    .catch(() => undefined)
  await page
    .locator('.maplibregl-canvas')
    .waitFor({ timeout: 30_000 })
    .catch(() => undefined)
})

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
console.log(
  `first visit of ${given ?? 'this build'} (bytes on the wire, requests of page and worker)`,
)
let total = 0
for (const [name, bytes, count] of rows) {
  total += bytes
  console.log(
    `  ${name.padEnd(36)} ${kb(bytes).padStart(10)}  ${String(count).padStart(3)} requests`,
  )
}
console.log(
  `  ${'home + location step'.padEnd(36)} ${kb((rows[0]?.[1] ?? 0) + (rows[1]?.[1] ?? 0)).padStart(10)}`,
)
console.log(`  ${'all three'.padEnd(36)} ${kb(total).padStart(10)}`)

await browser.close()
relay.close()
await server?.close()
if (dataDir) rmSync(dataDir, { recursive: true, force: true })
