-- A content job that met an outage of a part we run on (content storage, the database) is not failed:
-- it goes back to the queue and waits until next_attempt_at, later after each outage in a row
-- (outage_retries), without counting as one of its attempts (content/job-queue.ts).
alter table content_jobs add column next_attempt_at timestamptz;
alter table content_jobs add column outage_retries int not null default 0;
