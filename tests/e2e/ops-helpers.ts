import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, type Page } from '@playwright/test'

// The e2e operator, made by the real CLI before the server starts (playwright.config.ts).
export const OPS_ADMIN = 'e2e-admin@shouts.test'
export const OPS_PASSWORD = 'correct horse battery staple'

/** The path of the one-time link the CLI printed as its last line. */
export function printedLinkPath(): string {
  const dir = process.env.E2E_DATA_DIR
  if (!dir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)')
  const lines = readFileSync(join(dir, 'operator-admin.txt'), 'utf8').trim().split('\n')
  const link = new URL(lines.at(-1) ?? '')
  expect(link.pathname).toBe('/ops/set-password')
  return `${link.pathname}${link.search}`
}

/** Signs the e2e admin in on the sign-in page (the password set from the printed link). */
export async function signIn(page: Page, path = '/ops') {
  await page.goto(path)
  await expect(page).toHaveURL(/\/ops\/sign-in/)
  await page.getByLabel('E-mail').fill(OPS_ADMIN)
  await page.getByLabel('Password').fill(OPS_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
}
