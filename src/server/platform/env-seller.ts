import * as v from 'valibot'
import { BILLING_COUNTRY_PATTERN, vatNumberFits, vatRateBasisPoints } from '../../domain/invoice.ts'

// The seller's details every invoice names (docs/configuration.md "Invoices"; the rules are
// src/domain/invoice.ts). Outside prod an unset detail is the demo seller's, so a fresh install
// issues invoices to try; a production shop names itself (productionProblems, env-prod.ts).

const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)))

export const SELLER_ENTRIES = {
  SELLER_LEGAL_NAME: optionalText,
  // one line per line of the address, separated by "\n" or "|"
  SELLER_ADDRESS: optionalText,
  SELLER_COUNTRY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toUpperCase(),
      v.regex(BILLING_COUNTRY_PATTERN, 'SELLER_COUNTRY must be a two-letter country code (FR)'),
    ),
  ),
  SELLER_VAT_NUMBER: optionalText,
  SELLER_VAT_RATE: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check(
        (rate) => vatRateBasisPoints(rate) !== null,
        'SELLER_VAT_RATE must be a percentage (20, 5.5)',
      ),
    ),
  ),
  INVOICE_PREFIX: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^[A-Za-z0-9\-/]{1,20}$/, 'INVOICE_PREFIX must be 1 to 20 letters, digits, - or /'),
    ),
  ),
} as const

type SellerSettings = { [K in keyof typeof SELLER_ENTRIES]?: string | undefined }

/** The seller as invoices name it. */
export type Seller = {
  legalName: string
  address: string
  country: string
  vatNumber: string
  vatRateBasisPoints: number
  prefix: string
}

const DEMO_SELLER: Seller = {
  legalName: 'Shouts Demo SAS',
  address: '1 rue de la Démo\n75001 Paris\nFrance',
  country: 'FR',
  vatNumber: 'FR40303265045',
  vatRateBasisPoints: 2000,
  prefix: 'DEMO-',
}

/** The seller of these settings, the demo seller's details where one is unset. */
export function sellerOf(e: SellerSettings): Seller {
  return {
    legalName: e.SELLER_LEGAL_NAME ?? DEMO_SELLER.legalName,
    address: (e.SELLER_ADDRESS ?? DEMO_SELLER.address).replaceAll('|', '\n'),
    country: e.SELLER_COUNTRY ?? DEMO_SELLER.country,
    vatNumber: e.SELLER_VAT_NUMBER ?? DEMO_SELLER.vatNumber,
    vatRateBasisPoints:
      vatRateBasisPoints(e.SELLER_VAT_RATE ?? '') ?? DEMO_SELLER.vatRateBasisPoints,
    prefix: e.INVOICE_PREFIX ?? DEMO_SELLER.prefix,
  }
}

/** What a production shop's invoices would lack: each an invoice's legal mention. */
export function sellerProblems(e: SellerSettings): string[] {
  const missing = (Object.keys(SELLER_ENTRIES) as (keyof SellerSettings)[]).filter((k) => !e[k])
  const problems: string[] = []
  if (missing.length > 0) {
    problems.push(
      `${missing.join(', ')} must be set when APP_ENV=prod (the seller's legal name, address, country, VAT number, VAT rate and invoice prefix): every invoice names them`,
    )
  }
  if (
    e.SELLER_COUNTRY &&
    e.SELLER_VAT_NUMBER &&
    !vatNumberFits(e.SELLER_COUNTRY, e.SELLER_VAT_NUMBER)
  ) {
    problems.push(
      `SELLER_VAT_NUMBER is not a VAT number of ${e.SELLER_COUNTRY} (SELLER_COUNTRY): invoices must carry the seller's own`,
    )
  }
  return problems
}
