-- A team of advertisers (docs/advertisers.md "A team"; roles in src/domain/team.ts): each login is a
-- row of advertiser_accounts; a login invited into a team works on the campaigns, billing and
-- invoices of the team's account (`team_id`, that account's id; null: its own). Belongs to
-- src/server/advertisers.
alter table advertiser_accounts add column team_id text
  references advertiser_accounts (account_id) on delete cascade;
alter table advertiser_accounts add column role text not null default 'owner'
  check (role in ('owner', 'editor', 'viewer'));
create index advertiser_accounts_team on advertiser_accounts (team_id);

-- An owner's invitation: a one-time link (hashed, as sign-up's), for an e-mail and a role.
create table advertiser_invites (
  token_hash text primary key,
  team_id text not null references advertiser_accounts (account_id) on delete cascade,
  email text not null,
  role text not null check (role in ('owner', 'editor', 'viewer')),
  invited_by text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index advertiser_invites_team on advertiser_invites (team_id);

-- Who made each change of a campaign (every call that changes one, whichever login of its team).
create table campaign_changes (
  id bigserial primary key,
  campaign_id text not null references campaigns (campaign_id) on delete cascade,
  at timestamptz not null,
  member_id text not null,
  member_email text not null,
  change text not null
);
create index campaign_changes_campaign on campaign_changes (campaign_id, id);

alter table mail_outbox drop constraint mail_outbox_kind_check;
alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('confirmed',
  'under_review', 'approved', 'cancelled', 'reminder', 'played', 'account_verify', 'account_exists',
  'password_reset', 'campaign_rejected', 'campaign_charge_failed', 'payment_failed',
  'payment_dispute', 'make_good', 'billboard_offline', 'billboard_online', 'erased',
  'campaign_booked', 'campaign_approved', 'campaign_live',
  'campaign_receipt', 'campaign_completed', 'member_invite'));
