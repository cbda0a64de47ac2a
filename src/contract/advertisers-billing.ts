import * as v from 'valibot'
import { BILLING_COUNTRY_PATTERN } from '../domain/invoice'
import { wellFormed } from '../domain/validation'
import { AcceptRequestSchema, CampaignSchema } from './advertisers-campaigns'
import { EpochMsSchema, issue, text } from './common'
import { endpoint } from './endpoint'

// api-v1 "Advertisers", billing: the account's billing details (the buyer its invoices name), and
// the invoices and credit notes of its campaigns' charges, each as a PDF (docs/advertisers.md
// "Invoices"; rules in src/domain/invoice.ts). Behind the advertisers' guard, like the campaigns.

export const BillingDetailsSchema = v.strictObject({
  legalName: text(200),
  /** Its lines separated by new lines. */
  address: v.pipe(
    v.string(),
    wellFormed(),
    v.trim(),
    v.nonEmpty(issue('field_required')),
    v.maxLength(500),
  ),
  country: v.pipe(
    v.string(),
    v.trim(),
    v.toUpperCase(),
    v.regex(BILLING_COUNTRY_PATTERN, issue('country_unknown')),
  ),
  /** Checked against the country's format in the EU (the server says which is wrong). */
  vatNumber: v.nullable(v.pipe(v.string(), wellFormed(), v.trim(), v.maxLength(30))),
})
export type BillingDetails = v.InferOutput<typeof BillingDetailsSchema>

export const BillingSchema = v.object({
  billing: v.nullable(
    v.object({
      legalName: v.string(),
      address: v.string(),
      country: v.string(),
      vatNumber: v.nullable(v.string()),
    }),
  ),
})

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const

export const InvoiceSummarySchema = v.object({
  invoiceId: v.string(),
  /** The number as printed: the seller's prefix and the series' number. */
  label: v.string(),
  kind: v.picklist(INVOICE_KINDS),
  /** A credit note's invoice, by its label. */
  refersTo: v.nullable(v.string()),
  campaignId: v.string(),
  /** The charged day, billboard-local. */
  day: v.string(),
  issuedAtEpochMs: EpochMsSchema,
  currency: v.string(),
  netCents: v.number(),
  vatCents: v.number(),
  grossCents: v.number(),
  vatRateBasisPoints: v.number(),
  vatExemption: v.nullable(v.picklist(['reverse_charge', 'outside_eu'])),
})
export type InvoiceSummary = v.InferOutput<typeof InvoiceSummarySchema>

export const InvoicesSchema = v.object({ invoices: v.array(InvoiceSummarySchema) })

const bearer = [
  { name: 'Authorization', required: true, description: 'Bearer {accessToken} (15 minutes)' },
] as const
const AUTH_ERRORS = [
  'authorization_missing',
  'session_token_unreadable',
  'session_token_expired',
  'session_ended',
  'member_role_forbidden',
] as const

export const advertiserBilling = {
  billing: endpoint({
    name: 'advertiserBilling',
    method: 'GET',
    path: '/advertisers/account/billing',
    summary: "The account's billing details, as its invoices name the buyer (null until given)",
    access: 'advertiser',
    headers: bearer,
    response: BillingSchema,
    errors: AUTH_ERRORS,
  }),
  setBilling: endpoint({
    name: 'advertiserSetBilling',
    method: 'PUT',
    path: '/advertisers/account/billing',
    summary:
      "Sets the account's billing details (the next invoices name them; those issued stay as they are)",
    access: 'advertiser',
    headers: bearer,
    body: BillingDetailsSchema,
    response: BillingSchema,
    errors: [...AUTH_ERRORS, 'vat_number_invalid', 'country_unknown'],
  }),
  invoices: endpoint({
    name: 'advertiserInvoices',
    method: 'GET',
    path: '/advertisers/invoices',
    summary: "The account's invoices and credit notes, newest first",
    access: 'advertiser',
    headers: bearer,
    response: InvoicesSchema,
    errors: AUTH_ERRORS,
  }),
  campaignInvoices: endpoint({
    name: 'advertiserCampaignInvoices',
    method: 'GET',
    path: '/advertisers/campaigns/{campaignId}/invoices',
    summary: "A campaign's invoices and credit notes, newest first",
    access: 'advertiser',
    headers: bearer,
    response: InvoicesSchema,
    errors: [...AUTH_ERRORS, 'campaign_forbidden', 'campaign_not_found'],
  }),
  invoicePdf: endpoint({
    name: 'advertiserInvoicePdf',
    method: 'GET',
    path: '/advertisers/invoices/{invoiceId}/pdf',
    summary: "An invoice or credit note as a PDF, in the account's language",
    access: 'advertiser',
    headers: bearer,
    file: ['application/pdf'],
    errors: [...AUTH_ERRORS, 'invoice_not_found'],
  }),
  replaceCard: endpoint({
    name: 'advertiserReplaceCard',
    method: 'POST',
    path: '/advertisers/campaigns/{campaignId}/card',
    summary:
      "Replaces the card of a booked, approved, live or paused campaign (owners) with one saved through the shop's payment flow; each day declined earlier is charged once on it",
    access: 'advertiser',
    headers: bearer,
    body: AcceptRequestSchema,
    response: CampaignSchema,
    errors: [
      ...AUTH_ERRORS,
      'campaign_forbidden',
      'campaign_not_found',
      'campaign_state_conflict',
      'checkout_mismatch',
      'setup_not_confirmed',
      'payment_already_saved',
      'payment_unavailable',
    ],
  }),
} as const
