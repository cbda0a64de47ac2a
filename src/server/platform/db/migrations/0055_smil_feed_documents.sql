-- The SMIL document a billboard was last served, kept whole (without its token: the token is put in
-- when served) with the window it was asked for: while one of its sold plays is on screen the feed
-- keeps answering it rather than a changed one, the same on every instance (player/repo.ts publishSmil).
alter table smil_feeds add column body text, add column window_key text;
