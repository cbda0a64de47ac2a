-- Make-goods (src/domain/make-good.ts): once an order's last slot has ended and MAKE_GOOD_GRACE_HOURS
-- have passed, the plays without a proof are missed and the slots that missed some are refunded for
-- their share. Decided once per order and kept as it was decided: a proof arriving later changes
-- nothing about money. The refund itself is the payment module's (refunds, keyed `make-good-{guid}`).
-- Belongs to src/server/make-good.
create table make_goods (
  order_guid text primary key references orders (guid) on delete cascade,
  event_slug text not null,
  plays_due int not null check (plays_due >= 0),
  plays_proven int not null check (plays_proven >= 0),
  -- [{slotNumber, missedPlayIndexes, refundCents}], the slots with missed plays
  slots jsonb not null,
  refund_cents bigint not null check (refund_cents >= 0),
  currency text not null,
  decided_at timestamptz not null
);
create index make_goods_decided on make_goods (decided_at);

-- A billboard that stopped reporting while it had sold plays ahead (src/server/player/outages.ts):
-- one row per outage, open until the billboard reports again; the admins' mails are keyed by it.
-- Belongs to src/server/player.
create table billboard_outages (
  device_id text not null references devices (device_id) on delete cascade,
  -- the last report before the silence
  last_seen_epoch_ms bigint not null,
  noticed_at_epoch_ms bigint not null,
  back_at_epoch_ms bigint,
  missed_plays int,
  offline_mailed boolean not null default false,
  online_mailed boolean not null default false,
  primary key (device_id, last_seen_epoch_ms)
);
create unique index billboard_outages_open on billboard_outages (device_id)
  where back_at_epoch_ms is null;

-- The kinds as of 0026, and the make-good mail and the admins' offline and back-online notices.
alter table mail_outbox drop constraint mail_outbox_kind_check;
alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('confirmed',
  'under_review', 'approved', 'cancelled', 'reminder', 'played', 'account_verify', 'account_exists',
  'password_reset', 'campaign_rejected', 'campaign_charge_failed', 'payment_failed',
  'payment_dispute', 'make_good', 'billboard_offline', 'billboard_online'));
