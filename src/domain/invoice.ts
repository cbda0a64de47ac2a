// Invoices of advertisers' charges (docs/advertisers.md "Invoices"): the buyer's billing details,
// the VAT a charge carries and how its cents are split, and the numbers of the seller's one series.
// Pure: the server issues and numbers them (src/server/advertisers/invoices/invoices.ts), the app
// checks a VAT number as it is typed with the same rules.

/** The member states of the European Union by ISO 3166-1 code, with the VAT number's own prefix. */
export const EU_VAT_PREFIXES: Readonly<Record<string, string>> = {
  AT: 'AT',
  BE: 'BE',
  BG: 'BG',
  CY: 'CY',
  CZ: 'CZ',
  DE: 'DE',
  DK: 'DK',
  EE: 'EE',
  // Greece's VAT numbers begin with EL, not GR (Directive 2006/112/EC, art. 215)
  GR: 'EL',
  ES: 'ES',
  FI: 'FI',
  FR: 'FR',
  HR: 'HR',
  HU: 'HU',
  IE: 'IE',
  IT: 'IT',
  LT: 'LT',
  LU: 'LU',
  LV: 'LV',
  MT: 'MT',
  NL: 'NL',
  PL: 'PL',
  PT: 'PT',
  RO: 'RO',
  SE: 'SE',
  SI: 'SI',
  SK: 'SK',
}

// The shape of each member state's VAT number after its prefix, as the Commission's VIES
// documents them; a number of the right shape may still not exist (VIES is not asked here).
const EU_VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  GR: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
}

export const isEuCountry = (country: string): boolean => country in EU_VAT_PREFIXES

/** A VAT number as written on an invoice: capitals, no spaces, dots or dashes ('fr 40 303…' → 'FR40303…'). */
export const normalizeVatNumber = (typed: string): string =>
  typed.toUpperCase().replace(/[\s.-]/g, '')

/**
 * Whether a VAT number has the shape of its country's: in the EU its prefix and format are checked;
 * elsewhere any 2 to 20 letters and digits (a tax number of another country, kept as written).
 */
export function vatNumberFits(country: string, vatNumber: string): boolean {
  const number = normalizeVatNumber(vatNumber)
  const prefix = EU_VAT_PREFIXES[country]
  const format = EU_VAT_FORMATS[country]
  if (!prefix || !format) return /^[A-Z0-9]{2,20}$/.test(number)
  return number.startsWith(prefix) && format.test(number.slice(prefix.length))
}

export const BILLING_COUNTRY_PATTERN = /^[A-Z]{2}$/

/** What an invoice says of its buyer (the account's billing details). */
export type BillingParty = {
  legalName: string
  address: string
  /** ISO 3166-1 alpha-2. */
  country: string
  vatNumber: string | null
}

/** A problem of billing details, by field. */
export type BillingProblem =
  | { code: 'country_unknown' }
  | { code: 'vat_number_invalid'; params: { country: string } }

/** The problems of billing details as typed: an EU VAT number must have its country's shape. */
export function billingProblems(details: BillingParty): BillingProblem[] {
  if (!BILLING_COUNTRY_PATTERN.test(details.country)) {
    return [{ code: 'country_unknown' }]
  }
  if (details.vatNumber && !vatNumberFits(details.country, details.vatNumber)) {
    return [{ code: 'vat_number_invalid', params: { country: details.country } }]
  }
  return []
}

/** Why an invoice bears no VAT, or null when it does. */
export type VatExemption = 'reverse_charge' | 'outside_eu'

export type VatTreatment = { rateBasisPoints: number; exemption: VatExemption | null }

/**
 * The VAT a charge carries, by where the buyer is (advertising services: Directive 2006/112/EC,
 * art. 44 for businesses, art. 59 for any customer outside the EU): an EU business with a VAT
 * number in another member state than the seller's accounts for the VAT itself (reverse charge);
 * a buyer outside the EU pays no EU VAT; anyone else pays the seller's rate.
 */
export function vatTreatment(
  seller: { country: string; vatRateBasisPoints: number },
  buyer: Pick<BillingParty, 'country' | 'vatNumber'> | null,
): VatTreatment {
  if (buyer && buyer.country !== seller.country) {
    if (!isEuCountry(buyer.country)) return { rateBasisPoints: 0, exemption: 'outside_eu' }
    if (buyer.vatNumber && vatNumberFits(buyer.country, buyer.vatNumber)) {
      return { rateBasisPoints: 0, exemption: 'reverse_charge' }
    }
  }
  return { rateBasisPoints: seller.vatRateBasisPoints, exemption: null }
}

export type InvoiceTotals = { netCents: number; vatCents: number; grossCents: number }

/**
 * How a charged amount splits into net and VAT. The card is charged what the plays cost (prices and
 * budgets are what the advertiser pays, VAT included where it is due), so the gross is the charge
 * and the VAT is taken out of it once, on the invoice's total, never line by line:
 * net = gross × 10000 / (10000 + rate in basis points), rounded half away from zero to the cent,
 * and VAT = gross − net, so net + VAT is always the charge to the cent. A credit note splits its
 * (negative) gross by the same rule, so a full refund mirrors its invoice exactly.
 */
export function splitGross(grossCents: number, rateBasisPoints: number): InvoiceTotals {
  if (!Number.isSafeInteger(grossCents)) throw new Error(`not cents: ${grossCents}`)
  const sign = grossCents < 0 ? -1n : 1n
  const gross = BigInt(Math.abs(grossCents))
  const denominator = 10_000n + BigInt(rateBasisPoints)
  const scaled = gross * 10_000n
  // half away from zero: add half the denominator before the integer division
  const net = (scaled * 2n + denominator) / (denominator * 2n)
  const netCents = Number(sign * net)
  return { netCents, vatCents: grossCents - netCents, grossCents }
}

/** A VAT rate as people write it, 20 → 2000 basis points; '5.5' → 550. */
export function vatRateBasisPoints(percent: string): number | null {
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(percent)) return null
  const [whole = '0', fraction = ''] = percent.split('.')
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}

/** An invoice's number as printed: the seller's prefix and the series' number on six digits or more. */
export const invoiceNumberLabel = (prefix: string, number: number): string =>
  `${prefix}${String(number).padStart(6, '0')}`
