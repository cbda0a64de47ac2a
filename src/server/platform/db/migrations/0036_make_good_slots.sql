-- Make-goods per slot (src/domain/make-good.ts): each slot of a Confirmed order is decided once,
-- MAKE_GOOD_GRACE_HOURS after that slot ends, and refunded under its own key, so an order whose
-- slots span days is not kept waiting for its last one. An order may now owe several refunds.

-- One row per decided slot, as it was decided: a proof arriving later changes nothing about money.
-- Fully proven slots are kept too (missed_play_indexes empty): a row is what makes a slot decided.
-- Belongs to src/server/make-good.
create table make_good_slots (
  order_guid text not null references orders (guid) on delete cascade,
  slot_number int not null check (slot_number >= 0),
  event_slug text not null,
  -- how many slots the order has: its mail waits until each one is decided
  order_slots int not null check (order_slots > 0),
  plays_due int not null check (plays_due >= 0),
  plays_proven int not null check (plays_proven >= 0),
  -- [playIndex], the plays of the slot without a proof
  missed_play_indexes jsonb not null,
  refund_cents bigint not null check (refund_cents >= 0),
  -- the idempotency key of the refund it owes (payment's refunds); null when it owes none
  refund_key text,
  currency text not null,
  decided_at timestamptz not null,
  primary key (order_guid, slot_number)
);
create index make_good_slots_decided on make_good_slots (decided_at);

-- The make-goods decided per order become one row per slot of the order; their refund keeps the
-- order's key it was made under.
insert into make_good_slots (order_guid, slot_number, event_slug, order_slots, plays_due,
  plays_proven, missed_play_indexes, refund_cents, refund_key, currency, decided_at)
select g.order_guid, s.n, g.event_slug, s.k, g.plays_due / s.k,
  g.plays_due / s.k - jsonb_array_length(coalesce(m.value -> 'missedPlayIndexes', '[]'::jsonb)),
  coalesce(m.value -> 'missedPlayIndexes', '[]'::jsonb),
  coalesce((m.value ->> 'refundCents')::bigint, 0),
  case when coalesce((m.value ->> 'refundCents')::bigint, 0) > 0
    then 'make-good-' || g.order_guid end,
  g.currency, g.decided_at
from make_goods g
join (select o.guid, u.n, count(*) over (partition by o.guid)::int as k
  from orders o, lateral (select distinct x as n from unnest(o.slot_numbers) x) u) s
  on s.guid = g.order_guid
left join lateral (select e.value from jsonb_array_elements(g.slots) e
  where (e.value ->> 'slotNumber')::int = s.n) m on true;
drop table make_goods;

-- An order's refunds (a cancel's, each make-good slot's) are told apart by their idempotency key.
alter table refunds drop constraint refunds_pkey;
alter table refunds add primary key (idempotency_key);
create index refunds_order on refunds (order_guid);

-- The local provider's own record of each refund it made, by key: a repeated key gives nothing
-- back twice, and several refunds of one charge add up in payments.refunded_cents.
-- Belongs to src/server/payment.
create table local_refunds (
  idempotency_key text primary key,
  payment_id text not null,
  amount_cents int not null check (amount_cents > 0),
  created_at timestamptz not null default now()
);
insert into local_refunds (idempotency_key, payment_id, amount_cents)
select r.idempotency_key, r.payment_id, p.refunded_cents
from refunds r join payments p on p.order_guid = r.order_guid and p.id = r.payment_id
where r.provider = 'local' and p.refunded_cents > 0;
