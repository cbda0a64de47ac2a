-- The console's proof-of-play export reads proofs a page at a time in the order they started, for
-- one billboard or the whole fleet (src/server/player/proof-reads.ts, advertisers/proof-reads.ts):
-- each page from an index, not a sort of every play.
create index plays_started on plays (started_at_epoch_ms, play_id);
create index plays_device_started on plays (device_id, started_at_epoch_ms, play_id);
create index ad_plays_proven_start on ad_plays (start_epoch_ms, device_id)
  where proven_at_epoch_ms is not null;
