import { randomUUID } from 'node:crypto'
import type { BillingDetails, InvoiceSummary } from '../../../contract/advertisers-billing.ts'
import {
  type BillingParty,
  billingProblems,
  invoiceNumberLabel,
  normalizeVatNumber,
  splitGross,
  vatTreatment,
} from '../../../domain/invoice.ts'
import { adBillboards } from '../../catalogue/ad-reads.ts'
import type { MailAttachment as Attachment } from '../../mail/service.ts'
import type { PaymentService } from '../../payment/service.ts'
import type { Database, Queryable } from '../../platform/db/client.ts'
import type { Seller } from '../../platform/env-seller.ts'
import type { Logger } from '../../platform/log.ts'
import { err, ok } from '../../platform/result.ts'
import { accountById } from '../accounts/repo.ts'
import { type ChargeRow, chargedDayLines } from '../billing/repo.ts'
import { campaignById } from '../campaigns/repo.ts'
import type { Operator } from '../campaigns/review.ts'
import { invoicePdf } from './pdf.ts'
import {
  addRefund,
  billingOf,
  type InvoiceLine,
  type InvoiceRow,
  invoiceById,
  invoiceOf,
  invoicesOf,
  issueInvoice,
  refundableCharge,
  setBilling,
  settleRefund,
} from './repo.ts'

// Invoices of campaigns' charges (docs/advertisers.md "Invoices"; rules in src/domain/invoice.ts):
// each charge that went through gets one invoice, issued in the transaction that marks it charged
// (billing/settlement.ts), so a crash leaves neither a charge without its invoice nor a number
// without its invoice; a refund of a charged day gets a credit note in the same series, issued in the
// transaction that marks the refund made. What an invoice says (seller, buyer, lines, VAT) is
// copied in when it is issued and never changed.

export type Invoices = ReturnType<typeof createInvoices>

export const summaryOf = (row: InvoiceRow): InvoiceSummary => ({
  invoiceId: row.invoiceId,
  label: row.label,
  kind: row.kind,
  refersTo: row.refersToLabel,
  campaignId: row.campaignId,
  day: row.day,
  issuedAtEpochMs: row.issuedAtEpochMs,
  currency: row.currency,
  netCents: row.netCents,
  vatCents: row.vatCents,
  grossCents: row.grossCents,
  vatRateBasisPoints: row.vatRateBasisPoints,
  vatExemption: row.vatExemption,
})

export function createInvoices(deps: {
  database: Database
  now: () => number
  seller: Seller
  payment: PaymentService
  log: Logger
  audit: (entry: {
    operator: Operator
    action: string
    detail: Record<string, unknown>
  }) => Promise<void>
}) {
  const db = deps.database
  const { seller } = deps
  const sellerParty = {
    legalName: seller.legalName,
    address: seller.address,
    country: seller.country,
    vatNumber: seller.vatNumber,
  }
  const labelOf = (number: number) => invoiceNumberLabel(seller.prefix, number)

  /** The day's lines, billboard by billboard, and the budget's cap when it took less. */
  async function linesOf(q: Queryable, charge: ChargeRow): Promise<InvoiceLine[]> {
    const found = await chargedDayLines(q, charge.campaignId, charge.day)
    const named = new Map(
      (
        await adBillboards(
          q,
          found.map((l) => l.deviceId),
        )
      ).map((b) => [b.deviceId, `${b.location}, ${b.city}`]),
    )
    const lines: InvoiceLine[] = found.map((l) => ({
      deviceId: l.deviceId,
      label: named.get(l.deviceId) ?? l.deviceId,
      plays: l.plays,
      impressions: l.impressions,
      unitCents: l.plays > 0 ? Math.round(Number(l.costCents) / l.plays) : 0,
      amountCents: Number(l.costCents),
    }))
    const full = lines.reduce((n, l) => n + l.amountCents, 0)
    if (full > charge.amountCents) {
      lines.push({
        deviceId: null,
        label: '',
        plays: 0,
        impressions: 0,
        unitCents: 0,
        amountCents: charge.amountCents - full,
      })
    }
    return lines
  }

  /**
   * The charge's invoice, in the caller's transaction (the one that marked it charged): once per
   * charge, numbered under the series' lock.
   */
  async function issueForCharge(tx: Queryable, charge: ChargeRow): Promise<InvoiceRow | null> {
    if (charge.amountCents <= 0) return null
    const campaign = await campaignById(tx, charge.campaignId)
    const account = campaign ? await accountById(tx, campaign.accountId) : null
    if (!campaign || !account) return null
    const billing = await billingOf(tx, account.accountId)
    const vat = vatTreatment(seller, billing)
    const totals = splitGross(charge.amountCents, vat.rateBasisPoints)
    return issueInvoice(
      tx,
      seller.prefix,
      {
        invoiceId: randomUUID(),
        kind: 'invoice',
        sourceKey: charge.key,
        refersTo: null,
        accountId: account.accountId,
        campaignId: campaign.campaignId,
        campaignName: campaign.name,
        day: charge.day,
        currency: charge.currency,
        ...totals,
        vatRateBasisPoints: vat.rateBasisPoints,
        vatExemption: vat.exemption,
        locale: account.locale,
        seller: sellerParty,
        buyer: {
          legalName: billing?.legalName ?? account.company,
          address: billing?.address ?? '',
          country: billing?.country ?? '',
          vatNumber: billing?.vatNumber ?? null,
          email: account.email,
        },
        lines: await linesOf(tx, charge),
      },
      labelOf,
      deps.now(),
    )
  }

  return {
    issueForCharge,

    async billing(accountId: string): Promise<BillingParty | null> {
      return billingOf(db, accountId)
    },

    async setBilling(accountId: string, details: BillingDetails) {
      const billing: BillingParty = {
        legalName: details.legalName,
        address: details.address,
        country: details.country,
        vatNumber: details.vatNumber ? normalizeVatNumber(details.vatNumber) : null,
      }
      const [problem] = billingProblems(billing)
      if (problem) return err(problem)
      await setBilling(db, accountId, billing)
      return ok(billing)
    },

    async ofAccount(accountId: string): Promise<InvoiceSummary[]> {
      return (await invoicesOf(db, { accountId })).map(summaryOf)
    },

    async ofCampaign(campaignId: string): Promise<InvoiceSummary[]> {
      return (await invoicesOf(db, { campaignId })).map(summaryOf)
    },

    /** The invoice's PDF; `accountId`: only one of this account's (null: an operator's). */
    async pdf(invoiceId: string, accountId: string | null) {
      const invoice = await invoiceById(db, invoiceId)
      if (!invoice || (accountId !== null && invoice.accountId !== accountId)) {
        return err({ code: 'invoice_not_found' as const })
      }
      return ok({ label: invoice.label, bytes: await invoicePdf(invoice) })
    },

    /** The charge's invoice as a mail's attachment (the receipt's), or null when it has none. */
    async attachmentOf(chargeKey: string): Promise<Attachment | null> {
      const invoice = await invoiceOf(db, 'invoice', chargeKey)
      if (!invoice) return null
      return {
        filename: `${invoice.label}.pdf`,
        contentType: 'application/pdf',
        contentBase64: Buffer.from(await invoicePdf(invoice)).toString('base64'),
      }
    },

    /**
     * Gives back part or all of a charged day (an admin's), under a key of its own: written pending
     * with what the day has left to give back, sent to the provider, then marked made with its
     * credit note (the invoice's VAT mirrored) in one transaction.
     */
    async refund(
      campaignId: string,
      day: string,
      request: { amountCents: number; reason: string },
      operator: Operator,
    ) {
      const nowMs = deps.now()
      const owed = await db.transaction(async (tx) => {
        const charge = await refundableCharge(tx, campaignId, day)
        if (!charge) return err({ code: 'campaign_not_found' as const })
        const left = charge.amountCents - charge.refundedCents
        if (charge.status !== 'charged' || !charge.paymentId || request.amountCents > left) {
          return err({
            code: 'charge_not_refundable' as const,
            params: { leftCents: charge.status === 'charged' ? left : 0 },
          })
        }
        const invoice = await invoiceOf(tx, 'invoice', charge.key)
        if (!invoice) return err({ code: 'invoice_not_found' as const })
        const key = `${charge.key}-refund-${charge.refunds + 1}`
        await addRefund(
          tx,
          {
            key,
            campaignId,
            day,
            amountCents: request.amountCents,
            currency: charge.currency,
            reason: request.reason,
          },
          nowMs,
        )
        return ok({ key, invoice, paymentId: charge.paymentId, currency: charge.currency })
      })
      if (!owed.ok) return owed
      const { key, invoice } = owed.value
      const made = await deps.payment.refundCharge({
        reference: campaignId,
        paymentId: owed.value.paymentId,
        amountCents: request.amountCents,
        currency: owed.value.currency,
        idempotencyKey: key,
      })
      if (!made.ok) {
        await settleRefund(db, key, { refunded: false }, deps.now())
        return made
      }
      const note = await db.transaction(async (tx) => {
        await settleRefund(tx, key, { refunded: true, refundId: made.value.refundId }, deps.now())
        const totals = splitGross(-request.amountCents, invoice.vatRateBasisPoints)
        return issueInvoice(
          tx,
          seller.prefix,
          {
            ...invoice,
            invoiceId: randomUUID(),
            kind: 'credit_note',
            sourceKey: key,
            refersTo: invoice.invoiceId,
            ...totals,
            seller: sellerParty,
            lines: [
              {
                deviceId: null,
                label: request.reason,
                plays: 0,
                impressions: 0,
                unitCents: 0,
                amountCents: -request.amountCents,
              },
            ],
          },
          labelOf,
          deps.now(),
        )
      })
      await deps.audit({
        operator,
        action: 'campaign_charge_refund',
        detail: { campaignId, day, amountCents: request.amountCents, creditNote: note.label },
      })
      deps.log.info('campaign charge refunded', { campaignId, day, creditNote: note.label })
      return ok({ creditNote: summaryOf(note) })
    },
  }
}
