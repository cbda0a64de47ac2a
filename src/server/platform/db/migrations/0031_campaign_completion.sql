-- Why a campaign was completed (src/domain/campaign-completion.ts): its flight ended, or its budget
-- was spent; a code the campaign page and the console translate. Belongs to src/server/advertisers.
alter table campaigns add column completed_reason text
  check (completed_reason in ('flight_ended', 'budget_spent'));
create index campaigns_on_air on campaigns (campaign_id) where state in ('Approved', 'Live');
