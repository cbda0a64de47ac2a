-- Playout: how often a sold shout plays in its slot and for how long (catalogue-format:
-- playsPerSlot, secondsPerShout), the billboards' player tokens, and the proof of play.

alter table events
  add column plays_per_slot int not null default 4,
  add column seconds_per_shout int not null default 15;

-- A player token is kept only as its SHA-256 (the token itself is >= 128 random bits, shown once by
-- `npm run player-link`). One live token per billboard: making a new one revokes the old, and the
-- partial unique index makes two live ones impossible even under concurrent links.
create table player_tokens (
  token_hash text primary key,
  device_id text not null references devices (device_id) on delete cascade,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create unique index player_tokens_one_live on player_tokens (device_id) where revoked_at is null;

-- Proof of play: one row per play a billboard reported and the schedule confirmed. The player makes
-- play_id (a UUID) once per play, so a replayed batch stores nothing twice (the primary key, also
-- under concurrent posts).
create table plays (
  play_id text primary key,
  device_id text not null references devices (device_id) on delete cascade,
  order_guid text not null references orders (guid) on delete cascade,
  slot_number int not null,
  play_index int not null,
  started_at_epoch_ms bigint not null,
  ended_at_epoch_ms bigint not null,
  received_at timestamptz not null default now()
);
create index plays_order on plays (order_guid, slot_number, play_index);

-- Plays a billboard reported that match nothing it was scheduled to play: counted per billboard (a
-- misconfigured or tampered player shows up here), never stored as proof.
create table play_refusals (
  device_id text primary key references devices (device_id) on delete cascade,
  refused bigint not null default 0,
  last_refused_at timestamptz not null default now()
);
