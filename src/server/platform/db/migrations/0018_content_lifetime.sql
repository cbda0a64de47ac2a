-- Who asked for a content job (the rate limits' client key: an IPv4 address, an IPv6 /64) and which
-- upload a generation uses: a client's unfinished jobs are capped, one upload is in one generation
-- at a time, and the queue serves the clients in turn rather than the oldest job first.
alter table content_jobs
  add column client_key text,
  add column upload_id text;
create index content_jobs_client_unfinished on content_jobs (client_key)
  where status in ('queued', 'running');
create index content_jobs_upload_unfinished on content_jobs (upload_id)
  where status in ('queued', 'running');

-- An upload quota counts bytes in the shared limiter: past 2^31 with a few large uploads at once.
alter table rate_limits alter column hits type bigint;
