-- Operations: the operators who run the shop, how they sign in, what they did (audit log),
-- every state an order went through (state history), and refunds. Secrets are kept only as hashes:
-- passwords as argon2id, one-time set-password tokens and session ids as SHA-256 of >= 128 random bits.

-- An operator: one e-mail (case-insensitive), one role. No password until the one-time link is used.
create table operators (
  id text primary key,
  email text not null,
  role text not null check (role in ('admin', 'reviewer')),
  -- argon2id (PHC string); null until the operator sets a password from the one-time link
  password_hash text,
  password_set_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index operators_email_lower on operators (lower(email));

-- One-time set-password links (`npm run operator -- add|--reset`): the token's SHA-256, valid 24 h,
-- usable once; a new link revokes the operator's older ones.
create table operator_tokens (
  token_hash text primary key,
  operator_id text not null references operators (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  revoked_at timestamptz
);
create index operator_tokens_operator on operator_tokens (operator_id);

-- Sessions live on the server: the cookie holds a random id, the table its SHA-256. A session ends at
-- sign-out (ended_at) or after 12 h without a call (last_seen_at).
create table operator_sessions (
  id_hash text primary key,
  operator_id text not null references operators (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  ended_at timestamptz
);
create index operator_sessions_operator on operator_sessions (operator_id);

-- What operators did: sign-in (also failed), sign-out, set-password, approve, cancel... `operator_id`
-- is null for a failed sign-in with an unknown e-mail (the e-mail tried is in `detail`).
create table audit_log (
  id bigserial primary key,
  operator_id text references operators (id) on delete set null,
  operator_email text,
  action text not null,
  order_guid text,
  detail jsonb not null default '{}'::jsonb,
  at timestamptz not null default now()
);
create index audit_log_at on audit_log (at desc, id desc);
create index audit_log_order on audit_log (order_guid) where order_guid is not null;

-- Every state of an order, written in the same transaction as the change itself: placing (Processing,
-- by the shopper), processing (Confirmed/UnderReview/Failed, by the system), an operator's approve or
-- cancel, the sweep's auto-cancel.
create table order_state_history (
  id bigserial primary key,
  order_guid text not null references orders (guid) on delete cascade,
  state text not null,
  at timestamptz not null default now(),
  actor text not null check (actor in ('shopper', 'system', 'operator')),
  operator_id text references operators (id) on delete set null,
  reason text
);
create index order_state_history_order on order_state_history (order_guid, id);

-- Orders placed before this migration: their placing and, when settled, their present state.
insert into order_state_history (order_guid, state, at, actor)
  select guid, 'Processing', created_at, 'shopper' from orders;
insert into order_state_history (order_guid, state, at, actor)
  select guid, state, updated_at, 'system' from orders where state <> 'Processing';

-- The refund of a cancelled order (one per order: a cancel refunds the whole charge). Written as
-- `pending` in the transaction that cancels the order, then sent to the provider under
-- `idempotency_key`, then marked `succeeded`: a retried cancel or a crash in between sends the same
-- key again, so the money goes back once and never gets lost (the sweep finishes pending ones).
create table refunds (
  order_guid text primary key references orders (guid) on delete cascade,
  provider text not null,
  payment_id text not null,
  amount_cents int not null check (amount_cents > 0),
  currency text not null,
  idempotency_key text not null unique,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  provider_refund_id text,
  error text,
  attempts int not null default 0,
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
create index refunds_pending on refunds (created_at) where status = 'pending';

-- The local provider's own record of what it gave back (Stripe keeps its own).
alter table payments add column refunded_cents int not null default 0;
