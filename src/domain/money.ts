import { assertCents } from './price'

// spec §9: money is cents, shown '$ 1,234.56' — symbol, a space, comma thousands, 2 decimals.
// English writes any currency that way ('€ 1,234.56', 'CA$ 1,234.56'); French and German use
// their own locale's format through Intl with the event's currency ('1 234,56 €', '1.234,56 €').

export type MoneyOptions = { currency?: string; locale?: string }

const languageOf = (locale: string): string => locale.toLowerCase().split(/[-_]/)[0] ?? 'en'

const INTL_LOCALES: Record<string, string> = { en: 'en-US', fr: 'fr-FR', de: 'de-DE' }

/** Digits after the decimal point of a currency: 2 for USD and EUR, 0 for JPY. */
export function minorUnitDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2
  )
}

/** Minor units to a decimal string without float arithmetic: 123456, 2 → '1234.56'. */
function toDecimalString(minorUnits: number, digits: number): string {
  const abs = String(Math.abs(minorUnits)).padStart(digits + 1, '0')
  const sign = minorUnits < 0 ? '-' : ''
  return digits === 0 ? `${sign}${abs}` : `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}`
}

export function formatMoney(
  cents: number,
  { currency = 'USD', locale = 'en' }: MoneyOptions = {},
): string {
  assertCents(cents)
  const language = languageOf(locale)
  const digits = minorUnitDigits(currency)
  const format = new Intl.NumberFormat(INTL_LOCALES[language] ?? locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'symbol',
  })
  // Intl accepts a decimal string, so no cents / 100 float ever appears.
  const amount = toDecimalString(cents, digits) as `${number}`
  if (language !== 'en') return format.format(amount)
  const parts = format.formatToParts(amount)
  const symbol = parts.find((p) => p.type === 'currency')?.value ?? currency
  const number = parts
    .filter((p) => p.type !== 'currency' && p.type !== 'minusSign' && p.type !== 'literal')
    .map((p) => p.value)
    .join('')
  return `${cents < 0 ? '-' : ''}${symbol} ${number}`
}

/**
 * An amount a person typed ("500", "1 250,50", "1,250.50") in minor units of the currency, or null
 * when it is no amount (or has more decimals than the currency). The last "." or "," with one to
 * the currency's digits after it is the decimal point; other separators group thousands.
 */
export function parseAmount(typed: string, currency: string): number | null {
  const digits = minorUnitDigits(currency)
  const compact = typed.trim().replace(/[\s\u00a0\u202f']/g, '')
  if (!/^\d[\d.,]*$/.test(compact)) return null
  const decimal = digits > 0 ? new RegExp(`[.,](\\d{1,${digits}})$`).exec(compact) : null
  const whole = (decimal ? compact.slice(0, decimal.index) : compact).replace(
    /[.,](?=\d{3}(\D|$))/g,
    '',
  )
  if (!/^\d+$/.test(whole)) return null
  const fraction = (decimal?.[1] ?? '').padEnd(digits, '0')
  const minor = Number(whole + fraction)
  return Number.isSafeInteger(minor) ? minor : null
}
