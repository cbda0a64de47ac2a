-- Advertisers' sign-ups and password resets, answered already and waiting for the
-- `advertiser-requests` job (src/server/advertisers/account-requests.ts). The answer to either is
-- the same work whether or not the e-mail has an account (one row here); what differs (an account
-- made, a link, which mail) is done after it, so its time tells a stranger nothing.
-- Belongs to src/server/advertisers.
create table advertiser_requests (
  request_id text primary key,
  kind text not null check (kind in ('sign_up', 'reset')),
  email text not null,
  -- a sign-up's name, company, locale and its password's argon2id hash; a reset's: {}
  details jsonb not null,
  created_at timestamptz not null,
  -- claimed by an instance until then (a crash leaves it to another once it has passed)
  claimed_until timestamptz
);
create index advertiser_requests_created on advertiser_requests (created_at);
