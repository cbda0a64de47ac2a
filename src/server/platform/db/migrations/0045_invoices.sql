-- Invoices of advertisers' charges (docs/advertisers.md "Invoices", rules in src/domain/invoice.ts).
-- Belongs to src/server/advertisers.

-- The account's billing details as its invoices name the buyer: {legalName, address, country,
-- vatNumber}; null until the owner gives them.
alter table advertiser_accounts add column billing jsonb;

-- One gap-free series of numbers per seller (by its invoice prefix): the last number given. An
-- invoice takes the next one by updating this row in the transaction that writes the invoice, so
-- the row's lock orders the instances and a rollback (a crash) gives the number back.
create table invoice_series (
  prefix text primary key,
  last_number bigint not null check (last_number >= 0)
);

-- Invoices and credit notes, as issued: the seller's and the buyer's details, the lines and the
-- totals are copied in, so an invoice reads the same after the account or the configuration
-- changed. Never changed or deleted (the trigger below; docs/privacy.md keeps them for the books),
-- and tied to no row that may be deleted.
create table invoices (
  invoice_id text primary key,
  prefix text not null,
  number bigint not null check (number > 0),
  label text not null,
  kind text not null check (kind in ('invoice', 'credit_note')),
  -- an invoice's charge key (ad_charges.idempotency_key), a credit note's refund key: once each
  source_key text not null,
  -- a credit note's invoice
  refers_to text references invoices (invoice_id),
  account_id text not null,
  campaign_id text not null,
  charge_day text not null,
  issued_at timestamptz not null,
  currency text not null,
  net_cents bigint not null,
  vat_cents bigint not null,
  gross_cents bigint not null,
  vat_rate_basis_points int not null,
  vat_exemption text check (vat_exemption in ('reverse_charge', 'outside_eu')),
  locale text not null,
  seller jsonb not null,
  buyer jsonb not null,
  lines jsonb not null,
  unique (prefix, number),
  unique (kind, source_key),
  check (gross_cents = net_cents + vat_cents)
);
create index invoices_account on invoices (account_id, issued_at);
create index invoices_campaign on invoices (campaign_id, issued_at);

create function invoices_are_kept() returns trigger language plpgsql as $$
begin
  raise exception 'invoices are never changed or deleted';
end
$$;
create trigger invoices_are_kept before update or delete on invoices
  for each row execute function invoices_are_kept();

-- Money given back of a charged day (an operator's refund), each under its own key: pending until
-- the payment provider made it, then refunded (its credit note issued in the same transaction).
create table ad_charge_refunds (
  refund_key text primary key,
  campaign_id text not null,
  day text not null,
  amount_cents bigint not null check (amount_cents > 0),
  currency text not null,
  reason text not null,
  status text not null check (status in ('pending', 'refunded', 'failed')),
  provider_refund_id text,
  created_at timestamptz not null,
  settled_at timestamptz,
  foreign key (campaign_id, day) references ad_charges (campaign_id, day)
);
create index ad_charge_refunds_charge on ad_charge_refunds (campaign_id, day);

-- When a charged day's receipt (with its invoice's PDF) was added to the outbox: the
-- `campaign-receipts` job sends those still due, apart from the settlement (a PDF takes tens of
-- milliseconds); the receipts of the days charged before are not sent again.
alter table ad_charges add column receipt_queued_at timestamptz;
update ad_charges set receipt_queued_at = coalesce(settled_at, created_at) where status = 'charged';
create index ad_charges_receipts_due on ad_charges (settled_at)
  where status = 'charged' and receipt_queued_at is null;
