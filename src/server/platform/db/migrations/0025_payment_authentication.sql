-- Charges the cardholder's bank wants confirmed (3-D Secure): the order waits in
-- AwaitingAuthentication until the time below, and the payment module keeps the waiting charge's
-- client secret (for Stripe.js's handleNextAction, or the local provider's test screen) until the
-- order settles. A failed confirmation is mailed ('payment_failed'; the list of kinds is the same as
-- 0026_stripe_events.sql's, so that either order of the two leaves every kind).
alter table orders add column authentication_until_epoch_ms bigint;
create index orders_awaiting_authentication on orders (authentication_until_epoch_ms)
  where state = 'AwaitingAuthentication';

create table payment_actions (
  order_guid text primary key references orders (guid),
  provider text not null,
  payment_id text not null,
  client_secret text not null unique,
  created_at timestamptz not null default now()
);

alter table mail_outbox drop constraint mail_outbox_kind_check;
alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('confirmed',
  'under_review', 'approved', 'cancelled', 'reminder', 'played', 'account_verify', 'account_exists',
  'password_reset', 'campaign_rejected', 'campaign_charge_failed', 'payment_failed',
  'payment_dispute'));
