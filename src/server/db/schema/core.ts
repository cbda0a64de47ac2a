import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'

// Drizzle's view of migrations/0001_core.sql (the SQL file is the source of truth for the database).

export type LatLng = { lat: number; lng: number }
export type ContentType = 'photo' | 'video'

export const devices = pgTable('devices', {
  deviceId: text('device_id').primaryKey(),
  location: text('location').notNull(),
  city: text('city').notNull(),
  stateAbbr: text('state_abbr'),
  country: text('country').notNull(),
  timeZoneId: text('time_zone_id').notNull(),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  viewingAreaCoordinates: jsonb('viewing_area_coordinates').$type<LatLng[]>().notNull(),
  trafficDirection: text('traffic_direction').notNull(),
  screens: integer('screens').notNull(),
  imageUrl: text('image_url').notNull(),
  streetViewUrl: text('street_view_url'),
  contentWidth: integer('content_width').notNull(),
  contentHeight: integer('content_height').notNull(),
  soldOut: boolean('sold_out').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const templates = pgTable('templates', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  types: jsonb('types').$type<ContentType[]>().notNull(),
  mode: text('mode').notNull(),
  widthPx: integer('width_px').notNull(),
  heightPx: integer('height_px').notNull(),
  previewImageUrl: text('preview_image_url').notNull(),
  examplePreviewVideoUrl: text('example_preview_video_url'),
  videoMaxLengthSeconds: integer('video_max_length_seconds'),
  // Template html with the placeholders {{buyerName}} {{recipientName}} {{multilineMessage}} {{photoUrl}}
  html: text('html').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const events = pgTable('events', {
  slug: text('slug').primaryKey(),
  name: text('name').notNull(),
  startDateHourLocalInclusive: text('start_date_hour_local_inclusive').notNull(),
  endDateHourLocalExclusive: text('end_date_hour_local_exclusive').notNull(),
  slotWidthMS: integer('slot_width_ms').notNull(),
  allowedContentGeneratorTypes: jsonb('allowed_content_generator_types')
    .$type<ContentType[]>()
    .notNull(),
  valueCentsPerSlot: integer('value_cents_per_slot').notNull(),
  currency: text('currency').notNull(),
  branded: boolean('branded').notNull().default(false),
  sponsorName: text('sponsor_name'),
  minPresaleSlotEpochMs: bigint('min_presale_slot_epoch_ms', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const eventDevices = pgTable(
  'event_devices',
  {
    eventSlug: text('event_slug').notNull(),
    deviceId: text('device_id').notNull(),
    unavailable: boolean('unavailable').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.eventSlug, t.deviceId] })],
)

export const eventTemplates = pgTable(
  'event_templates',
  {
    eventSlug: text('event_slug').notNull(),
    templateId: text('template_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventSlug, t.templateId] })],
)

export const promos = pgTable('promos', {
  promoCode: text('promo_code').primaryKey(),
  eventSlug: text('event_slug').notNull(),
  centsOffTotal: integer('cents_off_total'),
  percentOffTotal: integer('percent_off_total'),
  oncePerCustomer: boolean('once_per_customer').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const paymentSetups = pgTable('payment_setups', {
  checkoutSecretKey: text('checkout_secret_key').primaryKey(),
  provider: text('provider').notNull(),
  customerId: text('customer_id').notNull(),
  clientSecret: text('client_secret').notNull(),
  setupIntentId: text('setup_intent_id').notNull(),
  status: text('status').notNull().default('requires_payment_method'),
  paymentMethodId: text('payment_method_id'),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  chargeOutcome: text('charge_outcome'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

export type OrderStateName = 'Processing' | 'Confirmed' | 'UnderReview' | 'Failed'

export const orders = pgTable('orders', {
  guid: text('guid').primaryKey(),
  eventSlug: text('event_slug').notNull(),
  deviceId: text('device_id').notNull(),
  state: text('state').$type<OrderStateName>().notNull(),
  errors: jsonb('errors').$type<string[]>().notNull().default([]),
  orderType: text('order_type').notNull(),
  email: text('email').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  phoneNumber: text('phone_number').notNull(),
  willReceiveMarketing: boolean('will_receive_marketing').notNull(),
  executionContentKey: text('execution_content_key').notNull(),
  contentSource: text('content_source').notNull(),
  locale: text('locale').notNull(),
  promoCode: text('promo_code'),
  slotNumbers: integer('slot_numbers').array().notNull(),
  slotCount: integer('slot_count').notNull(),
  valueCentsPerSlot: integer('value_cents_per_slot').notNull(),
  subtotalCents: integer('subtotal_cents').notNull(),
  discountCents: integer('discount_cents').notNull(),
  totalCents: integer('total_cents').notNull(),
  currency: text('currency').notNull(),
  checkoutSecretKey: text('checkout_secret_key'),
  agreements: jsonb('agreements').$type<Record<string, boolean>>().notNull(),
  agreementsAcceptedAt: timestamp('agreements_accepted_at', { withTimezone: true }).notNull(),
  confirmationDateEpochMs: bigint('confirmation_date_epoch_ms', { mode: 'number' }),
  paymentId: text('payment_id'),
  requestBody: jsonb('request_body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const slotReservations = pgTable(
  'slot_reservations',
  {
    eventSlug: text('event_slug').notNull(),
    deviceId: text('device_id').notNull(),
    slotNumber: integer('slot_number').notNull(),
    orderGuid: text('order_guid').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventSlug, t.deviceId, t.slotNumber] })],
)

export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    promoCode: text('promo_code').notNull(),
    email: text('email').notNull(),
    orderGuid: text('order_guid').notNull(),
  },
  (t) => [primaryKey({ columns: [t.promoCode, t.email] })],
)

export const checkoutBindings = pgTable('checkout_bindings', {
  checkoutSecretKey: text('checkout_secret_key').primaryKey(),
  orderGuid: text('order_guid').notNull().unique(),
})

export const payments = pgTable('payments', {
  id: text('id').primaryKey(),
  orderGuid: text('order_guid').notNull().unique(),
  provider: text('provider').notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  error: text('error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

export const idempotencyKeys = pgTable('idempotency_keys', {
  key: text('key').primaryKey(),
  requestHash: text('request_hash').notNull(),
  statusCode: integer('status_code').notNull(),
  responseBody: jsonb('response_body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
