-- Web Push, "tell me when it plays" (push/): the shop's VAPID key pair, the shoppers' subscriptions
-- to an order's alerts, and the alerts sent.

-- The key pair the shop signs its pushes with (RFC 8292) when VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are
-- not set: made by the first instance that starts, the same for every instance after (the one row).
create table push_keys (
  id smallint primary key check (id = 1),
  public_key text not null,
  private_key text not null,
  created_at timestamptz not null default now()
);

-- A browser's push subscription to one order's alerts. `id` is the SHA-256 of the endpoint
-- (base64url): the page computes the same from its own subscription, so the endpoint itself is never
-- sent back. Kept until the order has nothing more to tell (ends_at_epoch_ms), a push service says
-- the subscription is gone (404/410), the order is cancelled or failed, or the shopper turns it off.
create table push_subscriptions (
  order_guid text not null,
  id text not null,
  event_slug text not null,
  endpoint text not null,
  p256dh text not null,
  auth text not null,
  locale text not null,
  -- from five minutes before the first slot to an hour after the last (src/domain/play-alerts.ts)
  starts_at_epoch_ms bigint not null,
  ends_at_epoch_ms bigint not null,
  created_at timestamptz not null default now(),
  primary key (order_guid, id)
);
create index push_subscriptions_id on push_subscriptions (id);
create index push_subscriptions_window on push_subscriptions (ends_at_epoch_ms, starts_at_epoch_ms);

-- Each alert to each browser at most once: the row is claimed before the push goes out. Keyed by the
-- endpoint's id, not the subscription row, so turning alerts off and on again repeats nothing.
-- Status: sending (claimed), sent, retry (the push service refused for now: 429, 5xx), failed.
create table sent_pushes (
  order_guid text not null,
  subscription_id text not null,
  alert_key text not null,
  status text not null check (status in ('sending', 'sent', 'retry', 'failed')),
  attempts int not null default 1,
  -- why it failed, as a problem {code, params}
  failure jsonb,
  -- the shop's clock when it was first claimed (its lifetime counts from there)
  claimed_at_epoch_ms bigint not null,
  sent_at timestamptz,
  primary key (order_guid, subscription_id, alert_key)
);
create index sent_pushes_claimed on sent_pushes (claimed_at_epoch_ms);
