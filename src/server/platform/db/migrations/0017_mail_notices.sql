-- Mails that belong to no order (an advertiser's verification link, a password reset, a campaign's
-- news): the outbox takes them too, each under a key of its sender's making that makes it exist once
-- (the order's mails keep their unique (order, kind)). `sensitive`: the body holds a one-time link,
-- so the console never shows it and it is blanked once sent.
alter table mail_outbox alter column order_guid drop not null;
alter table mail_outbox add column mail_key text unique;
alter table mail_outbox add column sensitive boolean not null default false;
alter table mail_outbox drop constraint mail_outbox_kind_check;
alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('confirmed',
  'under_review', 'approved', 'cancelled', 'reminder', 'played', 'account_verify', 'account_exists',
  'password_reset', 'campaign_rejected'));
alter table mail_outbox add constraint mail_outbox_one_owner
  check ((order_guid is null) <> (mail_key is null));
