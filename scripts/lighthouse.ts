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
const chromePath = process.env.CHROME_PATH ?? findChromium() ?? chromium.executablePath()
// Each page gets its own Chrome with a fresh temporary profile (chrome-launcher makes one per launch):
// a shared profile carried the first page's IndexedDB, service worker and caches into the second
// page's run ("stored data may affect loading") and once failed its trace (NO_NAVSTART).
const launch = () =>
  chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', ...chromiumArgs] })

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr']

/** One Lighthouse run in a fresh browser; a runtime error (a failed trace) is retried once, and said. */
async function audit(name: string, url: string): Promise<Lhr> {
  for (let attempt = 1; ; attempt++) {
    const chrome = await launch()
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' })
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`)
      const error = result.lhr.runtimeError
      if (!error || attempt === 2) return result.lhr
      console.log(
        `${name}: Lighthouse runtime error ${error.code} (${error.message}); retrying once`,
      )
    } finally {
      chrome.kill()
    }
  }
}

let failed = false
try {
  const res = await fetch(`${server.url}/api/v1/spotlight/live-events`).catch(() => null)
  const live = res?.ok ? ((await res.json()) as { events?: Array<{ slug: string }> }) : null
  const slug = live?.events?.[0]?.slug ?? process.env.LIGHTHOUSE_EVENT ?? 'share-the-love'
  const pages = [
    ['home', `${server.url}/`],
    ['location', `${server.url}/${slug}/design/location`],
  ] as const

  for (const [name, url] of pages) {
    const lhr = await audit(name, url)
    const { categories, audits } = lhr
    // LIGHTHOUSE_JSON_DIR=dir keeps each full report for a closer look
    if (process.env.LIGHTHOUSE_JSON_DIR) {
      writeFileSync(join(process.env.LIGHTHOUSE_JSON_DIR, `${name}.json`), JSON.stringify(lhr))
    }
    if (lhr.runtimeError) {
      failed = true
      console.log(
        `${name}: Lighthouse runtime error ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`,
      )
    }
    for (const w of lhr.runWarnings) console.log(`${name}: warning: ${w}`)
    const score = (key: string) => Math.round((categories[key]?.score ?? 0) * 100)
    const metric = (key: string) => audits[key]?.displayValue ?? 'n/a'
    console.log(
      `${name.padEnd(9)} performance ${score('performance')}  accessibility ${score('accessibility')}  best-practices ${score('best-practices')}  seo ${score('seo')}  |  FCP ${metric('first-contentful-paint')}  LCP ${metric('largest-contentful-paint')}  TBT ${metric('total-blocking-time')}  CLS ${metric('cumulative-layout-shift')}`,
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

  const chrome = await launch()
  try {
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`)
    const context = browser.contexts()[0] ?? (await browser.newContext())
    const page = await context.newPage()
    await page.goto(`${server.url}/${slug}`)
    await page.evaluate(() => navigator.serviceWorker?.ready)
    const cdp = await context.newCDPSession(page)
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string }>
    }
    if (installabilityErrors.length > 0) failed = true
    console.log(
      installabilityErrors.length === 0
        ? 'installable: yes (Chromium reports no installability errors)'
        : `installable: NO (${installabilityErrors.map((e) => e.errorId).join(', ')})`,
    )
    await browser.close()
  } finally {
    chrome.kill()
  }
} finally {
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
}
// a runtime error that survived its retry, or a page that cannot be installed, fails the command
if (failed) process.exitCode = 1
