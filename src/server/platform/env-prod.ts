import { sellerProblems } from './env-seller.ts'

export { SELLER_ENTRIES } from './env-seller.ts'

// What a production shop (APP_ENV=prod) must set, beyond what every server must: each rule says
// why, in the message the server stops with (platform/env.ts checks the settings with these).

type ProductionSettings = {
  PUBLIC_BASE_URL?: string | undefined
  STRIPE_SECRET_KEY?: string | undefined
  STRIPE_PUBLISHABLE_KEY?: string | undefined
  STRIPE_WEBHOOK_SECRET?: string | undefined
  ALLOW_TEST_PAYMENTS?: string | undefined
  ADVERTISER_TOKEN_KEYS?: readonly string[] | undefined
  ERASURE_LINK_KEY?: string | undefined
} & Parameters<typeof sellerProblems>[0]

/** The problems of a production shop's settings, as the messages the server stops with. */
export function productionProblems(e: ProductionSettings): string[] {
  const problems: string[] = []
  // A production shop prints its QR codes and links for its own address only.
  if (!e.PUBLIC_BASE_URL) {
    problems.push(
      "PUBLIC_BASE_URL must be set when APP_ENV=prod (the shop's public address, e.g. https://shouts.example): QR codes and links are made from it",
    )
  }
  // Without Stripe the local provider confirms orders for Stripe's test card numbers and takes no
  // money: a production shop never starts that way.
  const stripeMissing = (['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'] as const).filter(
    (key) => !e[key],
  )
  if (stripeMissing.length > 0) {
    problems.push(
      `${stripeMissing.join(' and ')} must be set when APP_ENV=prod (STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY of the shop's Stripe account): without them the shop takes test card numbers and no money`,
    )
  }
  // Refunds that fail later, payments settled late and chargebacks arrive only as Stripe's events.
  if (!e.STRIPE_WEBHOOK_SECRET) {
    problems.push(
      "STRIPE_WEBHOOK_SECRET must be set when APP_ENV=prod (the signing secret of the shop's webhook endpoint in Stripe's dashboard): without it refunds that fail later, late payments and disputes never reach the orders",
    )
  }
  // A test key takes no money: only a copy of production that must not charge cards runs on one.
  const testPaymentsAllowed = e.ALLOW_TEST_PAYMENTS === '1' || e.ALLOW_TEST_PAYMENTS === 'true'
  if (e.STRIPE_SECRET_KEY?.startsWith('sk_test_') && !testPaymentsAllowed) {
    problems.push(
      'STRIPE_SECRET_KEY is a test key (sk_test_…) and APP_ENV=prod: test keys take no money. Set the live key, or ALLOW_TEST_PAYMENTS=1 for a copy of production that must not charge cards',
    )
  }
  // Tokens signed with a key made by the server itself would let anyone who reads the database
  // sign in as any advertiser: production names its keys.
  if (!e.ADVERTISER_TOKEN_KEYS) {
    problems.push(
      "ADVERTISER_TOKEN_KEYS must be set when APP_ENV=prod (random keys of 32 characters or more: the first signs advertisers' access tokens)",
    )
  }
  // Likewise the key of the shoppers' "Forget my data" links: one made by the server would let
  // anyone who reads the database erase any order's data.
  if (!e.ERASURE_LINK_KEY) {
    problems.push(
      'ERASURE_LINK_KEY must be set when APP_ENV=prod (a random key of 32 characters or more, the same on every instance: it signs the mails\' "Forget my data" links)',
    )
  }
  problems.push(...sellerProblems(e))
  return problems
}
