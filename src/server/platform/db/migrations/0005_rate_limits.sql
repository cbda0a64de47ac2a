-- per-client counters every server instance sees (one
-- fixed window per bucket and client). platform/rate-limit.ts is the only reader and writer; a row
-- whose window has ended is reset on its next hit and deleted by the periodic sweep.
create table rate_limits (
  key text primary key,
  hits integer not null,
  -- epoch milliseconds: the end of the current window
  window_ends_ms bigint not null
);
create index rate_limits_window_ends on rate_limits (window_ends_ms);
