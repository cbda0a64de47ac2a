-- "Send the link again": a request for a new verification link, answered like a sign-up (the same
-- 202 whether or not the e-mail has an account) and done after the answer by the
-- `advertiser-requests` job (src/server/advertisers/account-requests.ts).
-- Belongs to src/server/advertisers.
alter table advertiser_requests drop constraint advertiser_requests_kind_check;
alter table advertiser_requests add constraint advertiser_requests_kind_check
  check (kind in ('sign_up', 'reset', 'resend'));
