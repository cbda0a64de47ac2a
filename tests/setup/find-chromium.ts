import { existsSync } from 'node:fs'
import { chromium } from '@playwright/test'

// Playwright's own browser when it was installed (a machine with internet), else the system's Chromium
// (Debian's package here). CHROMIUM_PATH wins over both.
export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) return fromEnv
  try {
    const bundled = chromium.executablePath()
    if (bundled && existsSync(bundled)) return undefined
  } catch {
    // no bundled browser registered
  }
  for (const candidate of [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ]) {
    if (existsSync(candidate)) return candidate
  }
  throw new Error(
    'No Chromium found: install Playwright browsers (npx playwright install chromium) or Debian chromium, or set CHROMIUM_PATH',
  )
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
