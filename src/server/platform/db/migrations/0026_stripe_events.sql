-- What Stripe tells the shop after the fact (POST /api/v1/payment/stripe/webhook, payment/webhooks.ts).
-- Belongs to src/server/payment.

-- Each event Stripe delivered, by its id: written in the transaction that acts on it, so an event
-- Stripe sends again (it retries until it hears a 2xx, and may deliver twice) changes nothing.
create table payment_webhook_events (
  event_id text primary key,
  type text not null,
  -- the object the event is about (a PaymentIntent, a Refund, a Dispute)
  object_id text,
  received_at timestamptz not null
);
create index payment_webhook_events_received on payment_webhook_events (received_at);

-- Stripe's own status of a refund the shop made (pending, requires_action, succeeded, failed,
-- canceled), as its answer and its later events say; `status` stays the shop's (sent or not).
alter table refunds add column provider_status text;
create index refunds_provider_refund on refunds (provider_refund_id);

-- A chargeback: the cardholder disputed an order's charge with their bank. One row per Stripe
-- Dispute, kept up to date by its events; the order's console page shows it.
create table payment_disputes (
  dispute_id text primary key,
  -- the PaymentIntent disputed (the order keeps it as its payment id)
  payment_id text not null,
  order_guid text,
  amount_cents int not null,
  currency text not null,
  reason text not null,
  -- Stripe's: warning_needs_response, needs_response, under_review, won, lost, …
  status text not null,
  evidence_due_at timestamptz,
  opened_at timestamptz not null,
  updated_at timestamptz not null,
  closed_at timestamptz
);
create index payment_disputes_payment on payment_disputes (payment_id);
create index payment_disputes_order on payment_disputes (order_guid);

-- A dispute names the PaymentIntent; the order that keeps it is found by it.
create index orders_payment_id on orders (payment_id) where payment_id is not null;

-- The language an operator's mails are written in: the console's, as it was when they last signed in.
alter table operators add column locale text not null default 'en';

-- The kinds as of 0025 (its 'payment_failed' included, so either order of landing keeps both), and
-- the admins' notice of a disputed payment.
alter table mail_outbox drop constraint mail_outbox_kind_check;
alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('confirmed',
  'under_review', 'approved', 'cancelled', 'reminder', 'played', 'account_verify', 'account_exists',
  'password_reset', 'campaign_rejected', 'campaign_charge_failed', 'payment_failed',
  'payment_dispute'));
