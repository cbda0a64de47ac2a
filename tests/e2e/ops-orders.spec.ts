import AxeBuilder from '@axe-core/playwright'
import { type Browser, expect, type Page, test } from '@playwright/test'
import {
  acceptAgreements,
  designShout,
  expectAccessible,
  fillCard,
  fillContact,
  newPage,
  pickSlots,
  screenshot,
  T,
} from './helpers'
import { OPS_ORDERS_ADMIN, openFromNavigation, ordersAdminReady, signIn } from './ops-helpers'

// Orders and e-mail in the console: an admin finds a shopper's order by its code and by
// e-mail, reads its payment and states, cancels it with a reason (the shopper reads it), then finds
// the order's mails in the embedded outbox (no SMTP_URL in e2e) and reads one.
// Signed in as an admin of its own, made by the CLI before the server started, whose password it
// sets from the link the CLI printed: it runs alone as well as after the other console specs.

const SHOPPER = 'orders-desk@example.com'

test.beforeAll(async ({ baseURL }) => {
  await ordersAdminReady(baseURL ?? '')
})

/** A shopper's clean order (nothing to review): paid and Confirmed; its confirmation code. */
async function placeOrder(browser: Browser): Promise<{ page: Page; code: string }> {
  const page = await newPage(browser)
  const t = T.en
  await designShout(page, 'en')
  await pickSlots(page, 1)
  await page.getByRole('button', { name: t.continue }).click()
  await fillContact(page, 'en', SHOPPER)
  await fillCard(page, 'en')
  await page.getByRole('button', { name: t.review }).click()
  await acceptAgreements(page, 'en')
  await page.getByRole('button', { name: t.placeOrder }).click()
  await expect(page.getByRole('heading', { name: t.booked })).toBeVisible({ timeout: 30_000 })
  const code = page.locator('.confirm__code strong')
  await expect(code).toHaveText(/^[0-9a-f-]{8}$/)
  return { page, code: (await code.textContent()) ?? '' }
}

const SEARCH = 'Confirmation code, e-mail or billboard'

test('an admin finds an order by code and e-mail, cancels it with a reason, and reads its mails', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000)
  const shopper = await placeOrder(browser)
  const { code } = shopper

  await signIn(page, '/ops/orders', OPS_ORDERS_ADMIN)
  await expect(page).toHaveURL(/\/ops\/orders$/)
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible()

  // by confirmation code: one row, opened into its detail
  await page.getByLabel(SEARCH).fill(code)
  await page.getByRole('button', { name: 'Find' }).click()
  const row = page.getByRole('row').filter({ hasText: SHOPPER })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Confirmed')
  await row.getByRole('button', { name: code }).click()
  const detail = page.getByRole('article').filter({ hasText: `Order ${code}` })
  await expect(detail.getByRole('heading', { name: `Order ${code} · Confirmed` })).toBeVisible()
  await expect(detail.getByText('Léa Martin')).toBeVisible()
  await expect(detail.getByText('Happy day!')).toBeVisible()
  const payment = detail.getByRole('region', { name: 'Payment' })
  await expect(payment).toContainText('4242')
  await expect(payment.getByText('Charged', { exact: true })).toBeVisible()
  await expect(payment.getByText('Payment state')).toBeVisible()
  const history = detail.getByRole('region', { name: 'State history' })
  await expect(history.getByText('Confirmed')).toBeVisible()
  await expect(detail.getByRole('region', { name: /Proofs of play/ })).toContainText(
    'No play reported yet.',
  )
  await screenshot(page, 'ops-order-390')
  await expectAccessible(page)

  // the order opened is in the address: a reload keeps it
  await expect(page).toHaveURL(/[?&]order=/)
  await page.reload()
  await expect(page.getByRole('heading', { name: `Order ${code} · Confirmed` })).toBeVisible()

  // by e-mail
  await page.getByLabel(SEARCH).fill(SHOPPER)
  await page.getByRole('button', { name: 'Find' }).click()
  await expect(page.getByRole('row').filter({ hasText: code })).toHaveCount(1)
  await page.getByRole('button', { name: code, exact: true }).click()

  // cancel: the reason is required, then a confirm step, then the result
  const article = page.getByRole('article').filter({ hasText: `Order ${code}` })
  await article.getByRole('button', { name: 'Cancel and refund…' }).click()
  await article.getByRole('button', { name: 'Cancel and refund', exact: true }).click()
  await expect(article.getByText('Say why: the shopper receives this reason.')).toBeVisible()
  await expectAccessible(page)
  const reason = 'The billboard is out of order that day.'
  await article.getByLabel('Reason for cancelling (the shopper receives it)').fill(reason)
  await article.getByRole('button', { name: 'Cancel and refund', exact: true }).click()
  await expect(article.getByText(new RegExp(`Cancel order ${code} and refund .+\\?`))).toBeVisible()
  await article.getByRole('button', { name: 'Yes, cancel and refund' }).click()
  await expect(page.getByText(`Order ${code} cancelled and refunded.`)).toBeVisible()
  await expect(page.getByRole('heading', { name: `Order ${code} · Cancelled` })).toBeVisible()
  await expect(article.getByRole('region', { name: 'State history' })).toContainText(reason)
  await expect(article.getByRole('region', { name: 'Payment' })).toContainText('refund done')
  await expect(article.getByRole('button', { name: 'Cancel and refund…' })).toHaveCount(0)
  await expect(page.getByRole('row').filter({ hasText: code })).toContainText('Cancelled')

  // the shopper's confirmation page says cancelled and refunded, and why
  await shopper.page.reload()
  await expect(shopper.page.getByText('Your order was cancelled', { exact: true })).toBeVisible({
    timeout: 30_000,
  })
  await expect(
    shopper.page.getByText(/Your order was cancelled and your payment of .+ refunded\./),
  ).toBeVisible()
  await expect(shopper.page.getByText(reason)).toBeVisible()

  // the outbox: the order's mails (confirmed, then cancelled), made by the mail planner
  await openFromNavigation(page, 'Outbox')
  await expect(page.getByRole('heading', { name: 'Outbox', level: 1 })).toBeVisible()
  const mails = page.getByRole('row').filter({ hasText: SHOPPER })
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect(mails.filter({ hasText: 'Cancelled and refunded' })).toHaveCount(1, {
      timeout: 2_000,
    })
  }).toPass({ timeout: 60_000 })
  await expect(mails.filter({ hasText: 'Order confirmed' })).toHaveCount(1)
  await expect(mails.first()).toContainText('kept here (no SMTP)')
  await expectAccessible(page)

  // one mail opens: its subject, its text, its HTML in a sandboxed frame
  const cancelled = mails.filter({ hasText: 'Cancelled and refunded' })
  const subject = (await cancelled.getByRole('button').textContent()) ?? ''
  expect(subject).not.toBe('')
  await cancelled.getByRole('button').click()
  const mail = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: subject }) })
  await expect(mail.locator('pre')).toContainText(reason)
  // the mail's link to the shopper's order page opens it on any device: a fresh browser, no saved order
  const mailText = (await mail.locator('pre').textContent()) ?? ''
  const orderLink = /https?:\/\/\S+\/order\/confirmation\?order=[\w-]+/.exec(mailText)?.[0]
  expect(orderLink).toBeTruthy()
  const elsewhere = await newPage(browser)
  await elsewhere.goto(new URL(orderLink ?? '').pathname + new URL(orderLink ?? '').search)
  await expect(elsewhere.locator('.confirm__code strong')).toHaveText(code)
  await expect(elsewhere.getByRole('heading', { name: 'Your order was cancelled' })).toBeVisible()
  await expect(elsewhere.getByText(reason)).toBeVisible()
  await elsewhere.context().close()
  await screenshot(page, 'ops-mail-390')
  const frame = mail.locator('iframe')
  await expect(frame).toHaveAttribute('sandbox', '')
  await expect(page.frameLocator('iframe.ops-mail-html').getByText(reason)).toBeVisible()
  // axe on the console around the mail: inside the sandboxed frame no script runs, not even axe's
  // (it would wait there forever); the mail's own HTML is the mail's, checked where it is made
  const around = await new AxeBuilder({ page }).exclude('iframe.ops-mail-html').analyze()
  expect(
    around.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([])

  // the mail's order link opens the order in the orders page
  await mail.getByRole('link', { name: code.slice(0, 8) }).click()
  await expect(page).toHaveURL(/\/ops\/orders\?order=/)
  await expect(page.getByRole('heading', { name: `Order ${code} · Cancelled` })).toBeVisible()
})

test.describe('at a desk', () => {
  test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false })

  test('the orders page and the outbox at 1280x800', async ({ page }) => {
    await signIn(page, '/ops/orders', OPS_ORDERS_ADMIN)
    await page.getByLabel(SEARCH).fill(SHOPPER)
    await page.getByRole('button', { name: 'Find' }).click()
    const row = page.getByRole('row').filter({ hasText: SHOPPER })
    await expect(row).toContainText('Cancelled')
    await row.getByRole('button').click()
    await expect(page.getByRole('heading', { name: /^Order .+ · Cancelled$/ })).toBeVisible()
    await screenshot(page, 'ops-order-1280')
    await expectAccessible(page)
    await openFromNavigation(page, 'Outbox')
    await expect(page.getByRole('row').filter({ hasText: SHOPPER }).first()).toBeVisible()
    await screenshot(page, 'ops-outbox-1280')
    await expectAccessible(page)
  })
})
