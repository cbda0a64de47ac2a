-- The mail confirming that a shopper had an order's personal data forgotten ('erased'), with every
-- kind already there (as of 0026, and 0030's make-good and billboard notices; a later list re-lists
-- this one).
alter table mail_outbox drop constraint mail_outbox_kind_check;
alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('confirmed',
  'under_review', 'approved', 'cancelled', 'reminder', 'played', 'account_verify', 'account_exists',
  'password_reset', 'campaign_rejected', 'campaign_charge_failed', 'payment_failed',
  'payment_dispute', 'make_good', 'billboard_offline', 'billboard_online', 'erased'));
