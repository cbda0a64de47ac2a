-- The daily charge of a campaign's proven plays (src/domain/ad-settlement.ts): one row per campaign
-- and billboard-local day, made once under the campaign's lock with its amount capped by the budget,
-- then charged under its idempotency key (a repeat after a crash is the same charge). A play names
-- the day it was charged in, so it is counted once. Belongs to src/server/advertisers.
create table ad_charges (
  campaign_id text not null references campaigns (campaign_id) on delete cascade,
  day text not null,
  idempotency_key text not null unique,
  plays int not null,
  amount_cents bigint not null check (amount_cents >= 0),
  currency text not null,
  status text not null check (status in ('pending', 'charged', 'failed')),
  payment_id text,
  error jsonb,
  created_at timestamptz not null,
  settled_at timestamptz,
  primary key (campaign_id, day)
);
create index ad_charges_pending on ad_charges (status) where status = 'pending';
alter table ad_plays add column charge_day text;

alter table mail_outbox drop constraint mail_outbox_kind_check;
alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('confirmed',
  'under_review', 'approved', 'cancelled', 'reminder', 'played', 'account_verify', 'account_exists',
  'password_reset', 'campaign_rejected', 'campaign_charge_failed'));
