-- Background jobs that one instance at a time runs (platform/scheduler.ts): the instance that holds a
-- job's lease runs it; the others skip it until the lease ends (its holder stopped or died). The end
-- is computed by the database's clock, as for the leases on rows (0006_leases.sql).
create table job_leases (
  name text primary key,
  owner text not null,
  expires_at timestamptz not null
);
