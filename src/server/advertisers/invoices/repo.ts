import type { BillingParty, VatExemption } from '../../../domain/invoice.ts'
import type { Locale } from '../../../domain/locale.ts'
import type { Queryable } from '../../platform/db/client.ts'
import { iso, json, sql } from '../../platform/db/sql.ts'
import { AD_CHARGES, INVOICES } from '../columns.ts'

// The SQL of invoices (migration 0045_invoices): the accounts' billing details, the series'
// counters, the invoices and credit notes as issued, and the refunds of charged days.

export async function billingOf(db: Queryable, accountId: string): Promise<BillingParty | null> {
  const [row] = await db.query(sql<{ billing: BillingParty | null }>`
    select billing from advertiser_accounts where account_id = ${accountId}`)
  return row?.billing ?? null
}

export async function setBilling(
  db: Queryable,
  accountId: string,
  billing: BillingParty,
): Promise<void> {
  await db.query(sql`
    update advertiser_accounts set billing = ${json(billing)}::jsonb
    where account_id = ${accountId}`)
}

/** A line of an invoice: a billboard's plays of the day, or the budget's cap (no billboard). */
export type InvoiceLine = {
  deviceId: string | null
  /** The billboard's location and city as the catalogue named them when the invoice was issued. */
  label: string
  plays: number
  impressions: number
  unitCents: number
  amountCents: number
}

export type SellerParty = {
  legalName: string
  address: string
  country: string
  vatNumber: string
}

export type InvoiceRow = {
  invoiceId: string
  prefix: string
  number: number
  label: string
  kind: 'invoice' | 'credit_note'
  sourceKey: string
  refersTo: string | null
  /** The credit note's invoice's label. */
  refersToLabel: string | null
  accountId: string
  campaignId: string
  campaignName: string
  day: string
  issuedAtEpochMs: number
  currency: string
  netCents: number
  vatCents: number
  grossCents: number
  vatRateBasisPoints: number
  vatExemption: VatExemption | null
  locale: Locale
  seller: SellerParty
  buyer: BillingParty & { email: string }
  lines: InvoiceLine[]
}

const COLUMNS = sql`${INVOICES.select({ from: 'i' })}, r.label as "refersToLabel"`

const FROM = sql`from invoices i left join invoices r on r.invoice_id = i.refers_to`

type Stored = Omit<InvoiceRow, 'campaignName' | 'lines'> & {
  lines: { campaignName: string; lines: InvoiceLine[] }
}
const read = (row: Stored): InvoiceRow => ({
  ...row,
  campaignName: row.lines.campaignName,
  lines: row.lines.lines,
})

export async function invoiceById(db: Queryable, invoiceId: string): Promise<InvoiceRow | null> {
  const [row] = await db.query(sql<Stored>`select ${COLUMNS} ${FROM}
    where i.invoice_id = ${invoiceId}`)
  return row ? read(row) : null
}

export async function invoiceOf(
  db: Queryable,
  kind: InvoiceRow['kind'],
  sourceKey: string,
): Promise<InvoiceRow | null> {
  const [row] = await db.query(sql<Stored>`select ${COLUMNS} ${FROM}
    where i.kind = ${kind} and i.source_key = ${sourceKey}`)
  return row ? read(row) : null
}

export async function invoicesOf(
  db: Queryable,
  by: { accountId: string } | { campaignId: string },
): Promise<InvoiceRow[]> {
  const where =
    'accountId' in by ? sql`i.account_id = ${by.accountId}` : sql`i.campaign_id = ${by.campaignId}`
  const rows = await db.query(sql<Stored>`select ${COLUMNS} ${FROM}
    where ${where} order by i.issued_at desc, i.number desc`)
  return rows.map(read)
}

export type NewInvoice = Omit<
  InvoiceRow,
  'number' | 'label' | 'refersToLabel' | 'issuedAtEpochMs' | 'prefix'
>

/**
 * Issues an invoice or credit note with the next number of the prefix's series, in the caller's
 * transaction: the series' row is locked until it commits, so instances number one after another,
 * and a rollback (a crash) gives the number back, leaving no hole. Once per (kind, source): an
 * existing one is answered as it is, and takes no number.
 */
export async function issueInvoice(
  tx: Queryable,
  prefix: string,
  invoice: NewInvoice,
  labelOf: (number: number) => string,
  nowMs: number,
): Promise<InvoiceRow> {
  await tx.query(sql`insert into invoice_series (prefix, last_number) values (${prefix}, 0)
    on conflict (prefix) do nothing`)
  const [series] = await tx.query(sql<{ last: number }>`
    select last_number::float8 as last from invoice_series where prefix = ${prefix} for update`)
  const existing = await invoiceOf(tx, invoice.kind, invoice.sourceKey)
  if (existing) return existing
  const number = Number(series?.last ?? 0) + 1
  await tx.query(sql`update invoice_series set last_number = ${number} where prefix = ${prefix}`)
  const { campaignName, lines, ...columns } = invoice
  const stored = {
    ...columns,
    prefix,
    number,
    label: labelOf(number),
    issuedAtEpochMs: nowMs,
    lines: { campaignName, lines },
  }
  await tx.query(sql`insert into ${INVOICES.insert(stored)}`)
  return (await invoiceById(tx, invoice.invoiceId)) as InvoiceRow
}

const REFUNDABLE_FIELDS = ['key', 'status', 'amountCents', 'currency', 'paymentId'] as const

/** A charge as its refunds see it: what it took, and what its refunds give back or will. */
export async function refundableCharge(
  db: Queryable,
  campaignId: string,
  day: string,
): Promise<{
  key: string
  status: string
  amountCents: number
  currency: string
  paymentId: string | null
  refundedCents: number
  refunds: number
} | null> {
  const [row] = await db.query(sql<{
    key: string
    status: string
    amountCents: number
    currency: string
    paymentId: string | null
    refundedCents: number
    refunds: number
  }>`
    select ${AD_CHARGES.select({ from: 'c', fields: REFUNDABLE_FIELDS })},
      coalesce((select sum(amount_cents) from ad_charge_refunds f where f.campaign_id = c.campaign_id
        and f.day = c.day and f.status <> 'failed'), 0)::float8 as "refundedCents",
      (select count(*) from ad_charge_refunds f where f.campaign_id = c.campaign_id
        and f.day = c.day)::int as refunds
    from ad_charges c where c.campaign_id = ${campaignId} and c.day = ${day} for update`)
  return row ?? null
}

export async function addRefund(
  db: Queryable,
  refund: {
    key: string
    campaignId: string
    day: string
    amountCents: number
    currency: string
    reason: string
  },
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into ad_charge_refunds (refund_key, campaign_id, day, amount_cents, currency, reason,
      status, created_at)
    values (${refund.key}, ${refund.campaignId}, ${refund.day}, ${refund.amountCents},
      ${refund.currency}, ${refund.reason}, 'pending', ${iso(nowMs)}::timestamptz)`)
}

/** Settles a pending refund; false when it was settled already. */
export async function settleRefund(
  db: Queryable,
  key: string,
  outcome: { refunded: true; refundId: string } | { refunded: false },
  nowMs: number,
): Promise<boolean> {
  const rows = await db.query(sql`
    update ad_charge_refunds set status = ${outcome.refunded ? 'refunded' : 'failed'},
      provider_refund_id = ${outcome.refunded ? outcome.refundId : null}::text,
      settled_at = ${iso(nowMs)}::timestamptz
    where refund_key = ${key} and status = 'pending' returning refund_key`)
  return rows.length > 0
}
