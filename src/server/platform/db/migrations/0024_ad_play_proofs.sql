-- A proven ad play keeps the player's report (api-v1 `Play` with `campaignId`): the play id, when it
-- began (proven_at_epoch_ms, migration 0015) and ended, and when the server received it. A play is
-- proven once: the row is the play, and only a row not proven yet takes a proof.
alter table ad_plays add column proof_play_id text;
alter table ad_plays add column proof_ended_at_epoch_ms bigint;
alter table ad_plays add column proof_received_at timestamptz;
