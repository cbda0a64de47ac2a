-- Why a campaign was completed (src/domain/campaign-completion.ts): its flight ended, or its budget
-- was spent; a code the campaign page and the console translate. Belongs to src/server/advertisers.
alter table campaigns add column completed_reason text
  check (completed_reason in ('flight_ended', 'budget_spent'));
create index campaigns_on_air on campaigns (campaign_id) where state in ('Approved', 'Live');

-- The kinds as of 0026, and the advertiser's mails of a campaign's life: booked, approved, on air,
-- each day's receipt, completed.
alter table mail_outbox drop constraint mail_outbox_kind_check;
alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('confirmed',
  'under_review', 'approved', 'cancelled', 'reminder', 'played', 'account_verify', 'account_exists',
  'password_reset', 'campaign_rejected', 'campaign_charge_failed', 'payment_failed',
  'payment_dispute', 'campaign_booked', 'campaign_approved', 'campaign_live', 'campaign_receipt',
  'campaign_completed'));
