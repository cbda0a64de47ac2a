-- An order's personal data has a lifetime (order/lifetime.ts): ORDER_CONTENT_TTL_DAYS after its last
-- slot its contact details and the request as sent are blanked, its content deleted, and this is set.
-- The accounting stays: amounts, slots, states, payments, refunds, proofs of play.
alter table orders add column personal_data_erased_at timestamptz;
create index orders_personal_data_kept on orders (created_at, guid) where personal_data_erased_at is null;
