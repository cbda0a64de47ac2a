// npm run lighthouse: Lighthouse (the npm package) in its default mobile preset on the home page and the
// location step of the live event, against the production build served by the real server on a fresh
// embedded database. Prints the four category scores, LCP, TBT and CLS, and the browser's own
// installability verdict (Lighthouse 12 dropped its PWA category; Chromium's
// Page.getInstallabilityErrors is the check the install prompt itself uses).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { startServer } from '../src/server/main.ts'
import { chromiumArgs, findChromium } from '../tests/setup/find-chromium.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'shouts-lh-'))
const server = await startServer({ port: 0, dataDir, env: { LOG_LEVEL: 'error' } })
const chromePath = findChromium() ?? chromium.executablePath()
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', ...chromiumArgs],
})

try {
  const res = await fetch(`${server.url}/api/v1/spotlight/live-events`).catch(() => null)
  const live = res?.ok ? ((await res.json()) as { events?: Array<{ slug: string }> }) : null
  const slug = live?.events?.[0]?.slug ?? process.env.LIGHTHOUSE_EVENT ?? 'share-the-love'
  const pages = [
    ['home', `${server.url}/`],
    ['location', `${server.url}/${slug}/design/location`],
  ] as const

  for (const [name, url] of pages) {
    // One warm-up visit so the service worker is installed, as for a shopper's second page.
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' })
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`)
    const { categories, audits } = result.lhr
    // LIGHTHOUSE_JSON_DIR=dir keeps each full report for a closer look
    if (process.env.LIGHTHOUSE_JSON_DIR) {
      writeFileSync(
        join(process.env.LIGHTHOUSE_JSON_DIR, `${name}.json`),
        JSON.stringify(result.lhr),
      )
    }
    if (result.lhr.runtimeError) {
      console.log(
        `${name}: Lighthouse runtime error ${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`,
      )
    }
    for (const w of result.lhr.runWarnings) console.log(`${name}: warning: ${w}`)
    const score = (key: string) => Math.round((categories[key]?.score ?? 0) * 100)
    const metric = (key: string) => audits[key]?.displayValue ?? 'n/a'
    console.log(
      `${name.padEnd(9)} performance ${score('performance')}  accessibility ${score('accessibility')}  best-practices ${score('best-practices')}  seo ${score('seo')}  |  LCP ${metric('largest-contentful-paint')}  TBT ${metric('total-blocking-time')}  CLS ${metric('cumulative-layout-shift')}`,
    )
    for (const key of ['performance', 'accessibility', 'best-practices']) {
      const c = categories[key]
      if (!c || (c.score ?? 0) >= 1) continue
      const failing = c.auditRefs
        .map((ref) => audits[ref.id])
        .filter((a) => a && a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative')
        .map((a) => a?.id)
      if (failing.length) console.log(`  ${key} below 100: ${failing.join(', ')}`)
    }
  }

  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`)
  const context = browser.contexts()[0] ?? (await browser.newContext())
  const page = await context.newPage()
  await page.goto(`${server.url}/${slug}`)
  await page.evaluate(() => navigator.serviceWorker?.ready)
  const cdp = await context.newCDPSession(page)
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: Array<{ errorId: string }>
  }
  console.log(
    installabilityErrors.length === 0
      ? 'installable: yes (Chromium reports no installability errors)'
      : `installable: NO (${installabilityErrors.map((e) => e.errorId).join(', ')})`,
  )
  await browser.close()
} finally {
  chrome.kill()
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
}
