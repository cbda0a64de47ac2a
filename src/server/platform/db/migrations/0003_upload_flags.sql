-- spec §5 moderation: an uploaded video's own verdict (its sampled frames judged by the nudity model),
-- kept beside the upload instead of only logged. A flag refuses nothing: the composite is judged again.
alter table content_uploads
  add column flagged boolean not null default false,
  add column flag_reasons jsonb not null default '[]';
