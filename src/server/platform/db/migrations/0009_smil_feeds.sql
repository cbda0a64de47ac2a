-- The SMIL playlist a billboard was last served: its ETag and when it last changed. Signage players
-- reload the playlist when Last-Modified (signageOS) or the ETag (garlic-player) changes, so both
-- must stay the same while the document does, on every instance: the time a document first appeared
-- is kept here, one row per billboard, replaced when the document changes.
create table smil_feeds (
  device_id text primary key references devices (device_id) on delete cascade,
  etag text not null,
  modified_at_epoch_ms bigint not null
);
