-- catalogue-format "Advertising": a billboard sold to advertisers has the people who see one play
-- (impressionsPerPlay), the price of a thousand impressions (adCpmCents) and its currency; an event may
-- say which share of each hour's free time ads may take (adSharePercent; else AD_FREE_TIME_SHARE).
alter table devices
  add column impressions_per_play int,
  add column ad_cpm_cents int,
  add column ad_currency text;

alter table events add column ad_share_percent int;
