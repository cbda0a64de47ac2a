-- The console's Orders page lists the newest orders a page at a time, before any search
-- (src/server/order/console-reads.ts findOrders: order by created_at desc, guid desc, and the next
-- page from the last one shown): read from this index backwards, not by sorting every order.
create index orders_newest on orders (created_at, guid);
