-- A billboard's last report: the web player's heartbeat (every minute, with its health as it sees
-- it) or a SMIL player's schedule fetch. One row per billboard, replaced at each report; the console
-- reads its state from it and the offline alerts watch it.
create table player_heartbeats (
  device_id text primary key references devices (device_id) on delete cascade,
  source text not null check (source in ('web', 'smil')),
  seen_at_epoch_ms bigint not null,
  -- server minus player clock (ms) as last measured by the server, null for a SMIL fetch
  clock_offset_ms bigint,
  -- the web player's last heartbeat body (api-v1 Heartbeat), kept when a SMIL fetch follows
  beat jsonb
);
