-- A mail's send is recorded before it is made: `sending` (with the time it began; the row's
-- message_id is what the mail server was handed) while the SMTP exchange runs, then `sent` or
-- back to `queued`. A row left `sending` is a send whose outcome was never written (the instance
-- died, or the database took no write): its instance writes the outcome once it can; another
-- takes it over only long after its lease ended (mail/service.ts, docs/mail.md).
alter table mail_outbox drop constraint mail_outbox_status_check;
alter table mail_outbox add constraint mail_outbox_status_check
  check (status in ('queued', 'sending', 'sent', 'failed', 'stored'));
alter table mail_outbox add column sending_at timestamptz;
create index mail_outbox_sending on mail_outbox (lease_expires_at) where status = 'sending';
