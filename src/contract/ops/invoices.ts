import * as v from 'valibot'
import { InvoiceSummarySchema, InvoicesSchema } from '../advertisers-billing'
import { endpoint } from '../endpoint'
import { CancelRequestSchema } from './orders'

// api-v1 "Operations", advertisers' invoices in the console (admins): an account's invoices and
// credit notes, their PDFs, and a refund of a charged day, which issues its credit note.

export const RefundChargeRequestSchema = v.strictObject({
  ...CancelRequestSchema.entries,
  amountCents: v.pipe(v.number(), v.integer(), v.minValue(1)),
})

export const RefundedChargeSchema = v.object({ creditNote: InvoiceSummarySchema })

const guarded = ['sign_in_required', 'role_forbidden', 'cross_origin'] as const

export const opsInvoices = {
  accountInvoices: endpoint({
    name: 'opsAccountInvoices',
    method: 'GET',
    path: '/ops/advertisers/{accountId}/invoices',
    summary: "An advertiser's invoices and credit notes, newest first (admins)",
    access: 'admin',
    response: InvoicesSchema,
    errors: guarded,
  }),
  invoicePdf: endpoint({
    name: 'opsInvoicePdf',
    method: 'GET',
    path: '/ops/invoices/{invoiceId}/pdf',
    summary: "An invoice or credit note as a PDF, in its account's language (admins)",
    access: 'admin',
    file: ['application/pdf'],
    errors: [...guarded, 'invoice_not_found'],
  }),
  refundCharge: endpoint({
    name: 'opsRefundCharge',
    method: 'POST',
    path: '/ops/campaigns/{campaignId}/charges/{day}/refund',
    summary:
      "Gives back part or all of a campaign's charged day to its card (admins); its credit note is issued in the invoice's series",
    access: 'admin',
    body: RefundChargeRequestSchema,
    response: RefundedChargeSchema,
    errors: [
      ...guarded,
      'campaign_not_found',
      'charge_not_refundable',
      'invoice_not_found',
      'refund_failed',
    ],
  }),
} as const
