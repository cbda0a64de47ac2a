-- Photo and video content (5): uploads, generated billboard content and background jobs.

-- An upload as the shopper sent it, once checked and re-encoded: only the server-made file is kept.
create table content_uploads (
  id text primary key,
  kind text not null check (kind in ('photo', 'video')),
  format text not null,
  status text not null check (status in ('processing', 'ready', 'failed')),
  file_name text,
  mime_type text,
  width_px int,
  height_px int,
  duration_seconds double precision,
  size_bytes bigint,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- What a billboard plays: an order names it by key (executionContentKey). flagged is set by moderation
--; core's orders check the key and the flag.
create table generated_content (
  key text primary key,
  url text not null,
  type text not null check (type in ('photo', 'video')),
  width_px int not null,
  height_px int not null,
  generator_id text not null,
  device_id text not null,
  event_slug text not null,
  upload_id text references content_uploads (id),
  flagged boolean not null default false,
  -- Why moderation flagged it (field, word, language or image class), for the reviewer.
  flag_reasons jsonb not null default '[]'::jsonb,
  file_name text not null,
  duration_seconds double precision,
  -- The texts the shopper typed (buyerName, recipientName, multilineMessage), kept for moderation and
  -- for support: what is on a billboard must be explainable.
  request jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);

-- Asynchronous content generation (api-v1: asyncPublicToken, daemon status and result link). Jobs live
-- in the database so that a restart finishes them.
create table content_jobs (
  id text primary key,
  public_token text not null unique,
  kind text not null,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  payload jsonb not null,
  result_key text references generated_content (key),
  error text,
  attempts int not null default 0,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  completed_at timestamptz
);
create index content_jobs_unfinished on content_jobs (created_at) where status in ('queued', 'running');
