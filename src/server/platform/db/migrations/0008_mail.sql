-- The outbox. Every mail the shop sends is first a row here, made by the planner
-- (mail/service.ts) from the orders' states; the sender claims due rows under a lease (0006's
-- discipline), sends, and marks them. The unique (order, kind) is what makes each mail exist at most
-- once, across restarts and instances: the planner inserts with ON CONFLICT DO NOTHING.
-- status: queued (to send, maybe after a failed attempt), sent, failed (gave up after the last
-- attempt), stored (no SMTP_URL: kept here for /ops/outbox, never sent).
create table mail_outbox (
  id text primary key,
  order_guid text not null references orders (guid) on delete cascade,
  kind text not null check (kind in ('confirmed', 'under_review', 'approved', 'cancelled', 'reminder', 'played')),
  locale text not null,
  to_address text not null,
  subject text not null,
  body_text text not null,
  body_html text not null,
  -- [{filename, contentType, content (base64)}]: the .ics of a confirmed order
  attachments jsonb not null default '[]'::jsonb,
  -- the Message-ID given to every attempt, so a mail server that saw it twice can tell (docs/mail.md)
  message_id text not null,
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed', 'stored')),
  attempts int not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  lease_owner text,
  lease_expires_at timestamptz,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  unique (order_guid, kind)
);
create index mail_outbox_due on mail_outbox (next_attempt_at) where status = 'queued';
create index mail_outbox_created on mail_outbox (created_at desc);
