-- A SMIL player's play logs (garlic-player's and IAdea's A-SMIL PlaylogCollection, signageOS's
-- proof-of-play reports) are its proofs of play and its heartbeats: the billboard's last report
-- says which kind of player it is and when its last play log came. Belongs to src/server/player.
alter table player_heartbeats
  add column player_kind text check (player_kind in ('web', 'garlic', 'iadea', 'signageos')),
  add column play_log_at_epoch_ms bigint;
