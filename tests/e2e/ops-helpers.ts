import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, type Page } from '@playwright/test'

// The e2e operator, made by the real CLI before the server starts (playwright.config.ts).
export const OPS_ADMIN = 'e2e-admin@shouts.test'
export const OPS_PASSWORD = 'correct horse battery staple'

/** The path of the one-time link the CLI printed as its last line (into `file` in the DATA_DIR). */
export function printedLinkPath(file = 'operator-admin.txt'): string {
  const dir = process.env.E2E_DATA_DIR
  if (!dir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)')
  const lines = readFileSync(join(dir, file), 'utf8').trim().split('\n')
  const link = new URL(lines.at(-1) ?? '')
  expect(link.pathname).toBe('/ops/set-password')
  return `${link.pathname}${link.search}`
}

// A second admin made by the CLI, for the specs that need a signed-in admin but do not test the
// set-password page: they set its password themselves, whichever spec runs first.
export const OPS_ORDERS_ADMIN = 'e2e-orders@shouts.test'

/** Sets OPS_ORDERS_ADMIN's password once, through the link the CLI printed for it (as the page does). */
export async function ordersAdminReady(baseURL: string): Promise<void> {
  const token = new URL(printedLinkPath('operator-orders.txt'), baseURL).searchParams.get('token')
  const answer = await fetch(`${baseURL}/api/v1/ops/set-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({ token, password: OPS_PASSWORD }),
  })
  if (answer.ok) return
  // a link is good once: a spec after the first finds the password set already
  const problem = (await answer.json()) as { codes?: string[] }
  expect(problem.codes, `set-password answered ${answer.status}`).toEqual(['link_invalid'])
}

/** Signs an admin in on the sign-in page (the e2e admin, whose password is set from its link). */
export async function signIn(page: Page, path = '/ops', email = OPS_ADMIN) {
  await page.goto(path)
  await expect(page).toHaveURL(/\/ops\/sign-in/)
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(OPS_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** Opens a console page from its navigation: on a phone, from the menu behind the bar's button. */
export async function openFromNavigation(page: Page, name: string) {
  const menu = page.getByRole('button', { name: /^(Menu|Menü)/ })
  if (await menu.isVisible()) await menu.click()
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click()
}
