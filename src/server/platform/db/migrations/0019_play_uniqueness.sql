-- A play of an order's slot is proven once: (order, slot, play index) is the play, so a billboard that
-- sends it again under a new play id stores nothing more (the play id still names a report, for
-- replays of one batch). Copies stored before are dropped, the first one received kept.
delete from plays p using plays q
  where p.order_guid = q.order_guid and p.slot_number = q.slot_number
    and p.play_index = q.play_index
    and (p.received_at, p.play_id) > (q.received_at, q.play_id);
drop index if exists plays_order;
create unique index plays_one_per_play on plays (order_guid, slot_number, play_index);
