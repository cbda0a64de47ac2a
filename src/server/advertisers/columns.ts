import type { MemberRole } from '../../domain/team.ts'
import { columnMap } from '../platform/db/columns.ts'
import type { AccountRow } from './accounts/repo.ts'
import type { AdChargeRow } from './billing/repo.ts'
import type { AdContentRow, CampaignRow, StateHistoryRow } from './campaigns/repo.ts'
import type { InvoiceRow } from './invoices/repo.ts'
import type { ProposalRow } from './proposals/repo.ts'

// The advertisers' tables (migrations 0015 onwards) as the repos' rows name their fields: each
// repo's select and `returning` lists are written from these declarations instead of naming each
// alias again. A field worked out in SQL (`verified_at is not null`, a sum) stays in its query.

// ---------- accounts and teams ----------

/** An account's own columns (its `verified` and `teamId` are worked out from two of them). */
export const ACCOUNTS = columnMap<
  Omit<AccountRow, 'verified' | 'teamId'> & { teamId: string | null }
>('advertiser_accounts', {
  accountId: 'account_id',
  email: 'email',
  name: 'name',
  company: 'company',
  locale: 'locale',
  passwordHash: 'password_hash',
  teamId: 'team_id',
  role: 'role',
})

/** A one-time link (verify, reset), by its hash; a reset's carries the new password's hash. */
export const LINKS = columnMap<{
  tokenHash: string
  accountId: string
  passwordHash: string | null
}>('advertiser_links', {
  tokenHash: 'token_hash',
  accountId: 'account_id',
  passwordHash: 'password_hash',
})

/** A signed-in family of refresh tokens. */
export const SESSIONS = columnMap<{ familyId: string; accountId: string }>('advertiser_sessions', {
  familyId: 'family_id',
  accountId: 'account_id',
})

export const REFRESH_TOKENS = columnMap<{ tokenHash: string; familyId: string }>(
  'advertiser_refresh_tokens',
  { tokenHash: 'token_hash', familyId: 'family_id' },
)

/** A sign-up or reset asked for, made by a job (migration 0037). */
export const REQUESTS = columnMap<{
  requestId: string
  kind: string
  email: string
  details: Record<string, unknown>
}>('advertiser_requests', {
  requestId: 'request_id',
  kind: 'kind',
  email: 'email',
  details: { column: 'details', json: true },
})

export const INVITES = columnMap<{
  tokenHash: string
  teamId: string
  email: string
  role: MemberRole
  expiresAtEpochMs: number
}>('advertiser_invites', {
  tokenHash: 'token_hash',
  teamId: 'team_id',
  email: 'email',
  role: 'role',
  expiresAtEpochMs: { column: 'expires_at', epochMs: true },
})

/** Who made each change of a campaign (migration 0046). */
export const CAMPAIGN_CHANGES = columnMap<{
  campaignId: string
  atEpochMs: number
  memberEmail: string
  change: string
}>('campaign_changes', {
  campaignId: 'campaign_id',
  atEpochMs: { column: 'at', epochMs: true },
  memberEmail: 'member_email',
  change: 'change',
})

// ---------- campaigns and their ads ----------

export const CAMPAIGNS = columnMap<CampaignRow & { customerId: string | null }>('campaigns', {
  campaignId: 'campaign_id',
  accountId: 'account_id',
  name: 'name',
  budgetCents: { column: 'budget_cents', cast: 'bigint' },
  currency: 'currency',
  startEpochMs: { column: 'start_epoch_ms', cast: 'bigint' },
  endEpochMs: { column: 'end_epoch_ms', cast: 'bigint' },
  deviceIds: 'device_ids',
  dayparts: 'dayparts',
  state: 'state',
  resumeState: 'resume_state',
  contentGuid: 'content_guid',
  rejectionReason: 'rejection_reason',
  completedReason: 'completed_reason',
  checkoutSecretKey: 'checkout_secret_key',
  spentCents: 'spent_cents',
  bookedAtEpochMs: { column: 'booked_at', epochMs: true },
  customerId: 'customer_id',
})

export const CAMPAIGN_HISTORY = columnMap<StateHistoryRow & { campaignId: string }>(
  'campaign_state_history',
  {
    campaignId: 'campaign_id',
    state: 'state',
    atEpochMs: { column: 'at', epochMs: true },
    actor: 'actor',
    operatorId: 'operator_id',
    reason: 'reason',
  },
)

export const AD_CONTENTS = columnMap<AdContentRow>('ad_contents', {
  contentGuid: 'content_guid',
  campaignId: 'campaign_id',
  accountId: 'account_id',
  uploadId: 'upload_id',
  renditions: { column: 'renditions', json: true },
  error: { column: 'error', json: true },
})

// ---------- plays, charges, proposals, invoices ----------

/** A play a campaign holds, keyed by billboard and start. */
export const AD_PLAYS = columnMap<{
  deviceId: string
  startEpochMs: number
  endEpochMs: number
  campaignId: string
  costCents: number
  impressions: number
  provenAtEpochMs: number | null
  proofPlayId: string | null
  proofEndedAtEpochMs: number | null
  chargeDay: string | null
}>('ad_plays', {
  deviceId: 'device_id',
  startEpochMs: { column: 'start_epoch_ms', cast: 'bigint' },
  endEpochMs: { column: 'end_epoch_ms', cast: 'bigint' },
  campaignId: 'campaign_id',
  costCents: { column: 'cost_cents', cast: 'int' },
  impressions: { column: 'impressions', cast: 'int' },
  provenAtEpochMs: { column: 'proven_at_epoch_ms', cast: 'bigint' },
  proofPlayId: 'proof_play_id',
  proofEndedAtEpochMs: { column: 'proof_ended_at_epoch_ms', cast: 'bigint' },
  chargeDay: 'charge_day',
})

/** A campaign's day of proven plays, charged once under its key (migration 0027). */
export const AD_CHARGES = columnMap<AdChargeRow>('ad_charges', {
  campaignId: 'campaign_id',
  day: 'day',
  key: 'idempotency_key',
  plays: { column: 'plays', cast: 'int' },
  amountCents: { column: 'amount_cents', cast: 'bigint' },
  currency: 'currency',
  status: 'status',
  paymentId: 'payment_id',
})

export const PROPOSALS = columnMap<ProposalRow>('proposals', {
  proposalGuid: 'proposal_guid',
  campaignId: 'campaign_id',
  validUntilEpochMs: { column: 'valid_until_epoch_ms', cast: 'bigint' },
  currency: 'currency',
  lines: { column: 'lines', json: true },
  totalPlays: { column: 'total_plays', cast: 'int' },
  totalImpressions: { column: 'total_impressions', cast: 'bigint' },
  totalCents: { column: 'total_cents', cast: 'bigint' },
  status: 'status',
})

/**
 * An invoice or credit note as stored: its `lines` column keeps the campaign's name with them, and
 * the label of the invoice it refers to is read from that invoice's row.
 */
export const INVOICES = columnMap<
  Omit<InvoiceRow, 'campaignName' | 'refersToLabel' | 'lines'> & { lines: unknown }
>('invoices', {
  invoiceId: 'invoice_id',
  prefix: 'prefix',
  number: 'number',
  label: 'label',
  kind: 'kind',
  sourceKey: 'source_key',
  refersTo: 'refers_to',
  accountId: 'account_id',
  campaignId: 'campaign_id',
  day: 'charge_day',
  issuedAtEpochMs: { column: 'issued_at', epochMs: true },
  currency: 'currency',
  netCents: 'net_cents',
  vatCents: 'vat_cents',
  grossCents: 'gross_cents',
  vatRateBasisPoints: 'vat_rate_basis_points',
  vatExemption: 'vat_exemption',
  locale: 'locale',
  seller: { column: 'seller', json: true },
  buyer: { column: 'buyer', json: true },
  lines: { column: 'lines', json: true },
})
