-- Advertisers (docs/decisions/023, api-v1 "Advertisers"): their accounts and how they sign in, their
-- campaigns, the ads, the proposals, and the ad plays each campaign holds. Secrets are kept only as
-- hashes: passwords as argon2id, one-time links and refresh tokens as SHA-256 of 256 random bits.
-- Every table here belongs to src/server/advertisers.

-- An account: one e-mail (case-insensitive). It may sign in once the e-mail is verified.
create table advertiser_accounts (
  account_id text primary key,
  email text not null,
  name text not null,
  company text not null,
  locale text not null,
  -- argon2id (PHC string)
  password_hash text not null,
  verified_at timestamptz,
  password_changed_at timestamptz,
  created_at timestamptz not null
);
create unique index advertiser_accounts_email on advertiser_accounts (lower(email));

-- One-time links: e-mail verification (24 h; it carries the password of the sign-up it confirms, so
-- the link, not whoever signed up last, decides the password) and password reset (1 h). Used once.
create table advertiser_links (
  token_hash text primary key,
  account_id text not null references advertiser_accounts (account_id) on delete cascade,
  purpose text not null check (purpose in ('verify', 'reset')),
  password_hash text,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  revoked_at timestamptz
);
create index advertiser_links_account on advertiser_links (account_id, purpose);
create index advertiser_links_expiry on advertiser_links (expires_at);

-- A signed-in browser: one family of refresh tokens, each rotated on use. A rotated token used again
-- revokes the family (it was stolen, or the family is confused); sign-out and a password change
-- revoke it too. The access token (a JWT of 15 minutes) names its family, which must be live.
create table advertiser_sessions (
  family_id text primary key,
  account_id text not null references advertiser_accounts (account_id) on delete cascade,
  created_at timestamptz not null,
  last_used_at timestamptz not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  revoked_reason text check (revoked_reason in ('sign_out', 'password_changed', 'token_reused'))
);
create index advertiser_sessions_account on advertiser_sessions (account_id);

create table advertiser_refresh_tokens (
  token_hash text primary key,
  family_id text not null references advertiser_sessions (family_id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index advertiser_refresh_tokens_family on advertiser_refresh_tokens (family_id);

-- The access tokens' signing keys when ADVERTISER_TOKEN_KEYS is not set (never in prod): made once,
-- shared by every instance on the database.
create table advertiser_signing_keys (
  kid text primary key,
  secret text not null,
  created_at timestamptz not null default now()
);

-- A campaign: a flight, billboards and dayparts, a budget in one currency, an ad, a card once booked.
create table campaigns (
  campaign_id text primary key,
  account_id text not null references advertiser_accounts (account_id) on delete cascade,
  name text not null,
  budget_cents bigint not null check (budget_cents > 0),
  currency text not null,
  start_epoch_ms bigint not null,
  end_epoch_ms bigint not null,
  device_ids text[] not null,
  dayparts text[] not null,
  state text not null check (state in ('Draft', 'Proposed', 'Booked', 'Approved', 'Live', 'Paused',
    'Completed', 'Rejected', 'Cancelled')),
  -- Paused: the state resume goes back to
  resume_state text,
  content_guid text,
  rejection_reason text,
  -- the card saved for it at acceptance (payment/'s payment_setups); one campaign per checkout
  checkout_secret_key text unique,
  customer_id text,
  -- settled money (what proven plays cost), written by the settlement of the plays
  spent_cents bigint not null default 0,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  booked_at timestamptz,
  reviewed_at timestamptz,
  reviewed_by text
);
create index campaigns_account on campaigns (account_id, created_at desc);
create index campaigns_state on campaigns (state, booked_at);

-- Every state a campaign went through, with who moved it and why (a rejection's reason).
create table campaign_state_history (
  id bigserial primary key,
  campaign_id text not null references campaigns (campaign_id) on delete cascade,
  state text not null,
  at timestamptz not null,
  actor text not null check (actor in ('advertiser', 'operator', 'system')),
  operator_id text,
  reason text
);
create index campaign_state_history_campaign on campaign_state_history (campaign_id, id);

-- An ad: an upload of the content module, and its renditions at each billboard's size (made by the
-- content module, generated_content keys), by "WIDTHxHEIGHT".
create table ad_contents (
  content_guid text primary key,
  campaign_id text not null references campaigns (campaign_id) on delete cascade,
  account_id text not null references advertiser_accounts (account_id) on delete cascade,
  upload_id text not null,
  renditions jsonb not null default '{}'::jsonb,
  error jsonb,
  created_at timestamptz not null
);
create index ad_contents_campaign on ad_contents (campaign_id);

-- What a budget buys, computed by the server, valid 48 h; its guid is a link to share. Its plays are
-- reserved only when accepted. A change to the campaign, or a newer proposal, voids it.
create table proposals (
  proposal_guid text primary key,
  campaign_id text not null references campaigns (campaign_id) on delete cascade,
  created_at timestamptz not null,
  valid_until_epoch_ms bigint not null,
  currency text not null,
  -- [{deviceId, plays: [startEpochMs], impressions, costCents, costCentsPerPlay, impressionsPerPlay}]
  lines jsonb not null,
  total_plays int not null,
  total_impressions bigint not null,
  total_cents bigint not null,
  status text not null default 'open' check (status in ('open', 'accepted', 'void'))
);
create index proposals_campaign on proposals (campaign_id);

-- The ad plays a campaign holds: one row a play. The key is the rule: one play per billboard and
-- start, so two campaigns can never hold the same time, whatever the instances.
create table ad_plays (
  device_id text not null,
  start_epoch_ms bigint not null,
  end_epoch_ms bigint not null,
  campaign_id text not null references campaigns (campaign_id) on delete cascade,
  cost_cents int not null,
  impressions int not null,
  reserved_at timestamptz not null,
  -- when the billboard proved the play (its player's report), null until then
  proven_at_epoch_ms bigint,
  primary key (device_id, start_epoch_ms)
);
create index ad_plays_campaign on ad_plays (campaign_id, start_epoch_ms);
