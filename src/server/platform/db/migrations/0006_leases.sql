-- Several instances on one PostgreSQL. A content job that runs and an order in Processing are
-- held by one instance at a time under a lease: its owner (an instance id) and when the lease ends
-- unless the owner renews it (a heartbeat). A live instance takes over only a lease that has ended, so
-- work is never run twice by two live instances, and the work of a dead one is finished by another.
-- A null expiry (work from before this migration, or handed back at shutdown) can be taken at once.
alter table content_jobs
  add column lease_owner text,
  add column lease_expires_at timestamptz;
alter table orders
  add column lease_owner text,
  add column lease_expires_at timestamptz;
