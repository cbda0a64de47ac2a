-- The mails of a campaign's life to its advertiser (advertisers/mails-campaigns.ts): booked,
-- approved, on air, each day's receipt, completed; with every kind already there: 0030's make-good
-- and billboard alerts (which 0032's list, numbered after it, dropped) and 0032's 'erased'. Numbered
-- after the other lists so that none of them drops these; a later list re-lists them all.
alter table mail_outbox drop constraint mail_outbox_kind_check;
alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('confirmed',
  'under_review', 'approved', 'cancelled', 'reminder', 'played', 'account_verify', 'account_exists',
  'password_reset', 'campaign_rejected', 'campaign_charge_failed', 'payment_failed',
  'payment_dispute', 'make_good', 'billboard_offline', 'billboard_online', 'erased',
  'campaign_booked', 'campaign_approved', 'campaign_live',
  'campaign_receipt', 'campaign_completed'));
