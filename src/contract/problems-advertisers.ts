// Problems of advertisers: accounts, tokens, campaigns, proposals (advertisers/).
// A part of the one catalogue (./problems.ts says how it is read and how to add a code).

export const ADVERTISER_PROBLEMS = {
  // ---- advertisers: accounts, tokens, campaigns, proposals (advertisers/; spec §6, §7, §8)
  // spec §7: a call without `Authorization: Bearer …`
  authorization_missing: { status: 401, en: 'Missing authorization context' },
  // a refresh cookie, or a one-time link's token, missing, unknown, used or expired
  token_missing_or_bad: { status: 401, en: 'Missing or bad token' },
  // an access token of a session signed out since (or whose password changed)
  session_ended: { status: 401, en: 'This session has ended: please sign in again' },
  advertiser_credentials_invalid: { status: 401, en: 'Invalid username/password combination' },
  email_not_verified: {
    status: 403,
    en: 'Please confirm your e-mail address first: follow the link we sent you',
  },
  password_not_strong: { status: 400, en: 'Your password is not strong enough' },
  // kept for the log: a client is never told whether an e-mail has an account
  password_reset_user_not_found: { status: 404, en: 'User for password reset not found' },
  // a team (src/domain/team.ts)
  member_role_forbidden: { status: 403, en: 'Your role in the team does not allow this' },
  team_email_taken: { status: 409, en: 'This e-mail already has an advertiser account' },
  team_member_not_found: { status: 404, en: 'No such member in your team' },
  team_last_owner: {
    status: 409,
    en: 'A team keeps at least one owner: make someone else an owner first',
  },
  team_founder_stays: {
    status: 409,
    en: 'The account the team was founded with stays in it (its campaigns and invoices are its own)',
  },
  // billing details and invoices (src/domain/invoice.ts)
  country_unknown: {
    status: 400,
    en: 'The country must be a two-letter code, such as FR, DE or US',
  },
  vat_number_invalid: { status: 400, en: 'This is not a VAT number of {country}' },
  invoice_not_found: { status: 404, en: 'Invoice not found' },
  charge_not_refundable: {
    status: 409,
    en: 'Only a charged day can be refunded, and never more than it took ({leftCents} cents left)',
  },
  campaign_forbidden: { status: 403, en: 'You do not have access to this campaign' },
  campaign_not_found: { status: 404, en: 'Campaign not found' },
  schedule_locked: { status: 409, en: 'You may not modify this schedule' },
  campaign_content_locked: {
    status: 409,
    en: 'The ad of a booked campaign cannot be changed',
  },
  campaign_state_conflict: { status: 409, en: 'This cannot be done while the campaign is {state}' },
  campaign_start_past: { status: 422, en: 'Start time can not be prior to now' },
  campaign_start_too_soon: { status: 422, en: 'Start time can not be within 04:00:00 from now' },
  campaign_end_before_start: { status: 422, en: 'The end time must be after the start time' },
  campaign_flight_too_long: { status: 422, en: 'A campaign runs at most {days} days' },
  campaign_budget_below_spent: {
    status: 422,
    en: 'amount spent to date + amount committed ({spentCents} + {committedCents} cents) is more than the budget of {budgetCents} cents',
  },
  // {billboard}: its place and city, as people name it
  billboard_not_for_ads: {
    status: 422,
    en: 'The billboard at {billboard} is not sold to advertisers',
  },
  billboard_currency_mismatch: {
    status: 422,
    en: 'The billboard at {billboard} is sold in {currency}, and this campaign is in {campaignCurrency}',
  },
  campaign_no_content: { status: 422, en: 'Upload the ad before asking for a proposal' },
  campaign_content_processing: {
    status: 422,
    en: 'The ad is still being processed: try again in a moment',
  },
  campaign_content_failed: { status: 422, en: 'The ad could not be processed: upload another' },
  campaign_nothing_to_sell: {
    status: 422,
    en: 'The budget buys no play on these billboards at these times',
  },
  proposal_not_found: { status: 404, en: 'No proposal found for the provided key' },
  proposal_expired: { status: 410, en: 'This proposal has expired: ask for a new one' },
  proposal_void: {
    status: 409,
    en: 'This proposal was replaced, or its campaign changed: ask for a new one',
  },
  proposal_plays_taken: {
    status: 409,
    en: 'Some of the proposed plays were sold meanwhile: ask for a new proposal',
  },
  // the app: another account signed in in another tab (spec §8)
  logged_in_user_changed: {
    status: 409,
    en: 'The logged-in user changed and this action cannot be performed. Please login as the correct user.',
  },
  // the console: no advertiser account has this e-mail
  advertiser_not_found: { status: 404, en: 'No advertiser account has this e-mail address' },
  campaign_not_under_review: { status: 409, en: 'This campaign is not awaiting review' },
  // a flight's horizon (domain/campaign.ts): far dates are refused as bad input
  campaign_start_too_far: { status: 400, en: 'A campaign starts at most {days} days from now' },
  campaign_end_too_far: { status: 400, en: 'A campaign ends at most {days} days from now' },
} as const
