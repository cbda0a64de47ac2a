import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium, expect, type Page } from '@playwright/test'
import { chromiumArgs, findChromium } from '../setup/find-chromium'

export const BASE_URL = `http://127.0.0.1:${process.env.E2E_PORT}`

/** Waits until the service worker is installed, activated and controls the page. */
export async function waitForServiceWorker(page: Page) {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
      timeout: 30_000,
    })
    .toBe(true)
}

export function newProfileDir(): string {
  return mkdtempSync(join(tmpdir(), 'shouts-profile-'))
}

/** A browser with a profile on disk: closing and launching it again is closing and reopening the app. */
export async function openProfile(
  userDataDir: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: findChromium(),
    args: chromiumArgs,
    headless: true,
    baseURL: BASE_URL,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    timezoneId: 'UTC',
  })
  const page = context.pages()[0] ?? (await context.newPage())
  return { context, page }
}

/** The installed app's start URL (vite.config.ts manifest). */
export const START_URL = '/?source=pwa'
