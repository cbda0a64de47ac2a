-- Core tables of the shop: the catalogue (devices, templates, events, promos), payments, orders and the
-- slot reservations whose unique key makes double booking impossible.

create table devices (
  device_id text primary key,
  location text not null,
  city text not null,
  state_abbr text,
  country text not null,
  time_zone_id text not null,
  lat double precision not null,
  lng double precision not null,
  viewing_area_coordinates jsonb not null,
  traffic_direction text not null,
  screens int not null,
  image_url text not null,
  street_view_url text,
  content_width int not null,
  content_height int not null,
  sold_out boolean not null default false,
  updated_at timestamptz not null default now()
);

create table templates (
  id text primary key,
  name text not null,
  types jsonb not null,
  mode text not null,
  width_px int not null,
  height_px int not null,
  preview_image_url text not null,
  example_preview_video_url text,
  video_max_length_seconds int,
  html text not null,
  updated_at timestamptz not null default now()
);

create table events (
  slug text primary key,
  name text not null,
  start_date_hour_local_inclusive text not null,
  end_date_hour_local_exclusive text not null,
  slot_width_ms int not null,
  allowed_content_generator_types jsonb not null,
  value_cents_per_slot int not null,
  currency text not null,
  branded boolean not null default false,
  sponsor_name text,
  min_presale_slot_epoch_ms bigint,
  updated_at timestamptz not null default now()
);

create table event_devices (
  event_slug text not null references events (slug) on delete cascade,
  device_id text not null references devices (device_id) on delete cascade,
  unavailable boolean not null default false,
  primary key (event_slug, device_id)
);

create table event_templates (
  event_slug text not null references events (slug) on delete cascade,
  template_id text not null references templates (id) on delete cascade,
  primary key (event_slug, template_id)
);

create table promos (
  promo_code text primary key,
  event_slug text not null references events (slug) on delete cascade,
  cents_off_total int,
  percent_off_total int,
  once_per_customer boolean not null default false,
  updated_at timestamptz not null default now(),
  -- catalogue-format: exactly one of centsOffTotal (> 0) or percentOffTotal (1-100)
  constraint promo_one_discount check ((cents_off_total is null) <> (percent_off_total is null))
);
create unique index promos_code_upper on promos (upper(promo_code));

-- One row per checkout: binds the order to the card the shopper saved (checkoutSecretKey).
create table payment_setups (
  checkout_secret_key text primary key,
  provider text not null,
  customer_id text not null,
  client_secret text not null unique,
  setup_intent_id text not null,
  status text not null default 'requires_payment_method',
  payment_method_id text,
  card_brand text,
  card_last4 text,
  -- local provider: a card that saves but is refused when charged (Stripe's 4000000000000341)
  charge_outcome text,
  created_at timestamptz not null default now()
);

create table orders (
  guid text primary key,
  event_slug text not null references events (slug),
  device_id text not null references devices (device_id),
  state text not null,
  errors jsonb not null default '[]'::jsonb,
  order_type text not null,
  email text not null,
  first_name text not null,
  last_name text not null,
  phone_number text not null,
  will_receive_marketing boolean not null,
  execution_content_key text not null,
  content_source text not null,
  locale text not null,
  promo_code text,
  -- the slot numbers bought (kept when a failed order frees its reservations)
  slot_numbers int[] not null,
  slot_count int not null,
  value_cents_per_slot int not null,
  subtotal_cents int not null,
  discount_cents int not null,
  total_cents int not null,
  currency text not null,
  checkout_secret_key text,
  agreements jsonb not null,
  agreements_accepted_at timestamptz not null,
  confirmation_date_epoch_ms bigint,
  payment_id text,
  request_body jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index orders_state on orders (state);
create index orders_email_promo on orders (lower(email), promo_code);

-- The rule that a slot is sold at most once lives in the database: a failed order deletes its
-- reservations, which frees the slots.
create table slot_reservations (
  event_slug text not null,
  device_id text not null,
  slot_number int not null,
  order_guid text not null references orders (guid) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (event_slug, device_id, slot_number)
);
create index slot_reservations_order on slot_reservations (order_guid);

-- Once-per-customer promo codes: one redemption per code and e-mail, enforced by the key.
create table promo_redemptions (
  promo_code text not null,
  email text not null,
  order_guid text not null references orders (guid) on delete cascade,
  primary key (promo_code, email)
);

-- A checkout pays for one order: the key makes a second order with the same checkoutSecretKey fail.
create table checkout_bindings (
  checkout_secret_key text primary key references payment_setups (checkout_secret_key),
  order_guid text not null unique references orders (guid) on delete cascade
);

create table payments (
  id text primary key,
  order_guid text not null unique references orders (guid),
  provider text not null,
  amount_cents int not null,
  currency text not null,
  status text not null,
  error text,
  created_at timestamptz not null default now()
);

create table idempotency_keys (
  key text primary key,
  request_hash text not null,
  status_code int not null,
  response_body jsonb not null,
  created_at timestamptz not null default now()
);
