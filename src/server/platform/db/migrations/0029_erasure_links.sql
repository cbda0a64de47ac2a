-- The shopper's "Forget my data" link in an order's mails (order/erasure.ts): one random token per
-- mail, kept only as its SHA-256, naming the order. It lasts until the order's personal data goes by
-- its lifetime anyway; the sweep then deletes it. Used once: the order is forgotten, the link only
-- says so afterwards.
create table order_erasure_links (
  token_hash text primary key,
  order_guid text not null references orders (guid) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index order_erasure_links_order on order_erasure_links (order_guid);
create index order_erasure_links_expiry on order_erasure_links (expires_at);
