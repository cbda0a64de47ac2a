// spec §5 "once per customer" promo codes: one customer, one redemption, whatever spelling of their
// address they type (`once+1@…` used to pass). A customer is known by their mailbox,
// so two addresses that the provider delivers to the same mailbox are one customer. Only rules that
// providers document are applied; any other domain keeps its local part as typed (a `+` may be a real
// character there), in lower case.

/** Domains whose addresses ignore dots in the local part and take a +tag (Google's documentation). */
const GOOGLE = new Set(['gmail.com', 'googlemail.com'])

/** Providers documenting plus addressing (subaddressing): `name+tag@` reaches `name@`. */
const PLUS_ADDRESSING = new Set([
  // Microsoft (Outlook.com)
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  // Apple (iCloud Mail)
  'icloud.com',
  'me.com',
  'mac.com',
  // Proton, Fastmail, Zoho, Yandex
  'proton.me',
  'protonmail.com',
  'pm.me',
  'fastmail.com',
  'zohomail.com',
  'yandex.com',
  'yandex.ru',
])

/** The mailbox an address reaches, as the key of a once-per-customer redemption. */
export function customerEmailKey(email: string): string {
  const address = email.trim().toLowerCase()
  const at = address.lastIndexOf('@')
  if (at <= 0) return address
  let local = address.slice(0, at)
  let domain = address.slice(at + 1)
  if (GOOGLE.has(domain)) {
    local = local.split('+')[0]?.replaceAll('.', '') ?? local
    domain = 'gmail.com'
  } else if (PLUS_ADDRESSING.has(domain)) {
    local = local.split('+')[0] ?? local
  }
  return `${local || address.slice(0, at)}@${domain}`
}
