-- The "Forget my data" links are signed now (order/erasure.ts: an HMAC over the order and the link's
-- expiry), checked without a lookup: the table of random links' hashes goes. Without
-- ERASURE_LINK_KEY the key that signs them is made once and kept here, the same for every instance
-- (as advertiser_signing_keys is for advertisers' tokens).
drop table order_erasure_links;
create table order_erasure_keys (
  kid text primary key,
  secret text not null
);
