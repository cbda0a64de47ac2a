import * as v from 'valibot'
import { ADVERTISER_PASSWORD_MAX_LENGTH } from '../domain/advertiser-account'
import { EmailSchema, wellFormed } from '../domain/validation'
import {
  AcceptRequestSchema,
  AdContentSchema,
  CampaignDraftSchema,
  CampaignPatchSchema,
  CampaignSchema,
  InventoryQuerySchema,
  InventorySchema,
  NextPlaysSchema,
  ProposalSchema,
  ReportQuerySchema,
  ReportSchema,
} from './advertisers-campaigns'
import { EmptyBodySchema, EpochMsSchema, issue, LocaleSchema, text } from './common'
import { UPLOAD_REFUSALS } from './content'
import { endpoint } from './endpoint'

// api-v1 "Advertisers": accounts, sessions (a bearer access token and a refresh cookie), inventory,
// campaigns, their ads, proposals, acceptance and reports. Every call but sign-up, verification,
// sign-in, refresh, sign-out, password reset and reading a proposal carries `Authorization: Bearer`
// (access 'advertiser'); the server's guard is src/server/advertisers/guard.ts.

const PasswordInputSchema = v.pipe(
  v.string(),
  wellFormed(),
  v.nonEmpty(issue('field_required')),
  v.maxLength(
    ADVERTISER_PASSWORD_MAX_LENGTH,
    issue('password_too_long', { max: ADVERTISER_PASSWORD_MAX_LENGTH }),
  ),
)

const TokenSchema = v.pipe(v.string(), v.maxLength(200))

export const SignUpRequestSchema = v.strictObject({
  email: EmailSchema,
  password: PasswordInputSchema,
  name: text(100),
  company: text(100),
  locale: LocaleSchema,
})
export type SignUpRequest = v.InferOutput<typeof SignUpRequestSchema>

export const AcceptedSchema = v.object({})

export const VerifyRequestSchema = v.strictObject({ token: TokenSchema })
export const VerifyResponseSchema = v.object({ accountId: v.string() })

export const AdvertiserSignInSchema = v.strictObject({
  email: text(320),
  // any string up to the bound: a wrong one is a 401 like a wrong e-mail, never a hint
  password: v.pipe(v.string(), v.maxLength(1000)),
})

export const AdvertiserAccountSchema = v.object({
  accountId: v.string(),
  email: v.string(),
  name: v.string(),
  company: v.string(),
  locale: LocaleSchema,
})
export type AdvertiserAccount = v.InferOutput<typeof AdvertiserAccountSchema>

export const AdvertiserSessionSchema = v.object({
  accessToken: v.string(),
  expiresAtEpochMs: EpochMsSchema,
  account: AdvertiserAccountSchema,
})
export type AdvertiserSession = v.InferOutput<typeof AdvertiserSessionSchema>

export const PasswordResetRequestSchema = v.strictObject({ email: text(320) })
export const PasswordResetConfirmSchema = v.strictObject({
  token: TokenSchema,
  password: PasswordInputSchema,
})

export * from './advertisers-campaigns'

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
const CAMPAIGN_ERRORS = [...AUTH_ERRORS, 'campaign_forbidden', 'campaign_not_found'] as const
const SCHEDULE_ERRORS = [
  'campaign_start_past',
  'campaign_start_too_soon',
  'campaign_start_too_far',
  'campaign_end_too_far',
  'campaign_end_before_start',
  'campaign_flight_too_long',
  'billboard_not_for_ads',
  'billboard_currency_mismatch',
] as const
const campaignPath = '/advertisers/campaigns/{campaignId}'

export const advertisers = {
  signUp: endpoint({
    name: 'advertiserSignUp',
    method: 'POST',
    path: '/advertisers/accounts',
    summary:
      'Sign up; a verification mail (the same answer whether or not the e-mail has an account)',
    body: SignUpRequestSchema,
    response: AcceptedSchema,
    status: 202,
    errors: ['password_not_strong', 'too_many_requests', 'sign_in_busy'],
  }),
  verify: endpoint({
    name: 'advertiserVerify',
    method: 'POST',
    path: '/advertisers/accounts/verify',
    summary: "Verifies the account's e-mail with the mail's one-time link",
    body: VerifyRequestSchema,
    response: VerifyResponseSchema,
    errors: ['token_missing_or_bad'],
  }),
  signIn: endpoint({
    name: 'advertiserSignIn',
    method: 'POST',
    path: '/advertisers/session',
    summary: 'Signs in: an access token, and a refresh cookie (HttpOnly)',
    body: AdvertiserSignInSchema,
    response: AdvertiserSessionSchema,
    errors: [
      'advertiser_credentials_invalid',
      'email_not_verified',
      'sign_in_limited',
      'sign_in_busy',
    ],
  }),
  refresh: endpoint({
    name: 'advertiserRefresh',
    method: 'POST',
    path: '/advertisers/session/refresh',
    summary: 'A new access token for the refresh cookie, which is rotated',
    response: AdvertiserSessionSchema,
    errors: ['token_missing_or_bad'],
  }),
  signOut: endpoint({
    name: 'advertiserSignOut',
    method: 'DELETE',
    path: '/advertisers/session',
    summary: "Signs out: the refresh cookie's session is revoked",
    status: 204,
  }),
  passwordReset: endpoint({
    name: 'advertiserPasswordReset',
    method: 'POST',
    path: '/advertisers/password-reset',
    summary: 'A mail with a one-time link if the account exists; the same answer either way',
    body: PasswordResetRequestSchema,
    response: AcceptedSchema,
    status: 202,
    errors: ['too_many_requests'],
  }),
  passwordResetConfirm: endpoint({
    name: 'advertiserPasswordResetConfirm',
    method: 'POST',
    path: '/advertisers/password-reset/confirm',
    summary: "Sets a new password with the mail's link; every session of the account ends",
    body: PasswordResetConfirmSchema,
    status: 204,
    errors: ['password_not_strong', 'token_missing_or_bad', 'sign_in_busy'],
  }),
  inventory: endpoint({
    name: 'advertiserInventory',
    method: 'GET',
    path: '/advertisers/inventory',
    summary: 'The billboards sold to advertisers, with their price and the ad plays still free',
    access: 'advertiser',
    headers: bearer,
    query: InventoryQuerySchema,
    response: InventorySchema,
    errors: [...AUTH_ERRORS, 'to_before_from', 'campaign_flight_too_long', 'too_many_requests'],
  }),
  createCampaign: endpoint({
    name: 'advertiserCreateCampaign',
    method: 'POST',
    path: '/advertisers/campaigns',
    summary: 'A new campaign (Draft)',
    access: 'advertiser',
    headers: bearer,
    body: CampaignDraftSchema,
    response: CampaignSchema,
    status: 201,
    errors: [...AUTH_ERRORS, ...SCHEDULE_ERRORS],
  }),
  campaigns: endpoint({
    name: 'advertiserCampaigns',
    method: 'GET',
    path: '/advertisers/campaigns',
    summary: "The account's own campaigns, newest first",
    access: 'advertiser',
    headers: bearer,
    response: v.object({ campaigns: v.array(CampaignSchema) }),
    errors: AUTH_ERRORS,
  }),
  campaign: endpoint({
    name: 'advertiserCampaign',
    method: 'GET',
    path: campaignPath,
    summary: 'A campaign of the account',
    access: 'advertiser',
    headers: bearer,
    response: CampaignSchema,
    errors: CAMPAIGN_ERRORS,
  }),
  updateCampaign: endpoint({
    name: 'advertiserUpdateCampaign',
    method: 'PATCH',
    path: campaignPath,
    summary:
      'Changes a campaign: the schedule until it is booked, the budget at any time (not below spent + committed)',
    access: 'advertiser',
    headers: bearer,
    body: CampaignPatchSchema,
    response: CampaignSchema,
    errors: [
      ...CAMPAIGN_ERRORS,
      ...SCHEDULE_ERRORS,
      'schedule_locked',
      'campaign_budget_below_spent',
      'campaign_state_conflict',
      'too_many_requests',
    ],
  }),
  uploadContent: endpoint({
    name: 'advertiserUploadContent',
    method: 'POST',
    path: `${campaignPath}/content`,
    summary: "The campaign's ad (multipart, field `file`: the shop's image and video rules)",
    access: 'advertiser',
    headers: bearer,
    body: 'multipart',
    response: AdContentSchema,
    status: 201,
    errors: [
      ...CAMPAIGN_ERRORS,
      'campaign_content_locked',
      // the shop's upload, refused as the shop refuses it
      ...UPLOAD_REFUSALS,
      'upload_quota',
      'content_jobs_busy',
      'too_many_requests',
    ],
  }),
  content: endpoint({
    name: 'advertiserContent',
    method: 'GET',
    path: '/advertisers/content/{contentGuid}',
    summary: 'An ad of the account, and its state',
    access: 'advertiser',
    headers: bearer,
    response: AdContentSchema,
    errors: [...AUTH_ERRORS, 'campaign_forbidden', 'content_not_found'],
  }),
  propose: endpoint({
    name: 'advertiserPropose',
    method: 'POST',
    path: `${campaignPath}/proposal`,
    summary: 'What the budget buys (valid 48 h, a link to share); the campaign is Proposed',
    access: 'advertiser',
    headers: bearer,
    body: EmptyBodySchema,
    response: ProposalSchema,
    status: 201,
    errors: [
      ...CAMPAIGN_ERRORS,
      ...SCHEDULE_ERRORS,
      'campaign_state_conflict',
      'campaign_no_content',
      'campaign_content_processing',
      'campaign_content_failed',
      'campaign_nothing_to_sell',
      'too_many_requests',
    ],
  }),
  proposal: endpoint({
    name: 'advertiserProposal',
    method: 'GET',
    path: '/advertisers/proposals/{proposalGuid}',
    summary: 'A proposal, by its guid (the link to share: no account needed)',
    response: ProposalSchema,
    errors: ['proposal_not_found'],
  }),
  accept: endpoint({
    name: 'advertiserAccept',
    method: 'POST',
    path: '/advertisers/proposals/{proposalGuid}/accept',
    summary: 'Accepts a proposal with a saved card: the campaign is Booked and its plays reserved',
    access: 'advertiser',
    headers: bearer,
    body: AcceptRequestSchema,
    response: CampaignSchema,
    errors: [
      ...CAMPAIGN_ERRORS,
      'proposal_not_found',
      'proposal_expired',
      'proposal_void',
      'proposal_plays_taken',
      'checkout_mismatch',
      'setup_not_confirmed',
      'payment_already_saved',
      'payment_unavailable',
    ],
  }),
  pause: endpoint({
    name: 'advertiserPause',
    method: 'POST',
    path: `${campaignPath}/pause`,
    summary: "Pauses an approved or live campaign's plays",
    access: 'advertiser',
    headers: bearer,
    body: EmptyBodySchema,
    response: CampaignSchema,
    errors: [...CAMPAIGN_ERRORS, 'campaign_state_conflict'],
  }),
  resume: endpoint({
    name: 'advertiserResume',
    method: 'POST',
    path: `${campaignPath}/resume`,
    summary: 'Resumes a paused campaign',
    access: 'advertiser',
    headers: bearer,
    body: EmptyBodySchema,
    response: CampaignSchema,
    errors: [...CAMPAIGN_ERRORS, 'campaign_state_conflict'],
  }),
  cancel: endpoint({
    name: 'advertiserCancel',
    method: 'POST',
    path: `${campaignPath}/cancel`,
    summary: 'Cancels a campaign: its plays still to come are freed; only proven plays are paid',
    access: 'advertiser',
    headers: bearer,
    body: EmptyBodySchema,
    response: CampaignSchema,
    errors: [...CAMPAIGN_ERRORS, 'campaign_state_conflict'],
  }),
  report: endpoint({
    name: 'advertiserReport',
    method: 'GET',
    path: `${campaignPath}/report`,
    summary:
      'Plays scheduled and proven, impressions and spend per billboard-local day and billboard (format=csv: one row each)',
    access: 'advertiser',
    headers: bearer,
    query: ReportQuerySchema,
    response: ReportSchema,
    errors: CAMPAIGN_ERRORS,
  }),
  nextPlays: endpoint({
    name: 'advertiserNextPlays',
    method: 'GET',
    path: `${campaignPath}/plays`,
    summary:
      'The plays the campaign holds that have not begun yet, soonest first (20 at most), with each billboard named',
    access: 'advertiser',
    headers: bearer,
    response: NextPlaysSchema,
    errors: CAMPAIGN_ERRORS,
  }),
} as const
