import type { Queryable } from '../platform/db/client.ts'
import { joinSql, json, sql } from '../platform/db/sql.ts'
import type { Catalogue } from './service.ts'

// The catalogue's tables (migrations/0001_core.sql): devices, templates, events, event_devices,
// event_templates, promos. Only the import writes them; spotlight, content and promo read them.

/** Ids already in the database: a file may refer to rows imported earlier. */
export type KnownIds = { devices: Set<string>; templates: Set<string>; events: Set<string> }

export async function knownIds(db: Queryable): Promise<KnownIds> {
  // One after the other: inside a transaction (the demo import) they share one connection.
  const d = await db.query(sql<{ id: string }>`select device_id as id from devices`)
  const t = await db.query(sql<{ id: string }>`select id from templates`)
  const e = await db.query(sql<{ id: string }>`select slug as id from events`)
  return {
    devices: new Set(d.map((r) => r.id)),
    templates: new Set(t.map((r) => r.id)),
    events: new Set(e.map((r) => r.id)),
  }
}

/**
 * Holds the demo import's advisory lock until the transaction ends (issue 16: instances starting at
 * once). Its key is the migrations' (727274) plus one.
 */
export async function lockDemoImport(tx: Queryable): Promise<void> {
  await tx.query(sql`select pg_advisory_xact_lock(727275)`)
}

export async function countEvents(db: Queryable): Promise<number> {
  const [row] = await db.query(sql<{ n: number }>`select count(*)::int as n from events`)
  return row?.n ?? 0
}

type Device = Catalogue['devices'][number]
type Template = Catalogue['templates'][number]
type Event = Catalogue['events'][number]
type Promo = Catalogue['promos'][number]

export async function upsertDevice(db: Queryable, d: Device): Promise<void> {
  await db.query(sql`
    insert into devices (device_id, location, city, state_abbr, country, time_zone_id, lat, lng,
      viewing_area_coordinates, traffic_direction, screens, image_url, street_view_url,
      content_width, content_height, sold_out, updated_at)
    values (${d.deviceId}, ${d.location}, ${d.city}, ${d.stateAbbr}, ${d.country}, ${d.timeZoneId},
      ${d.coordinates.lat}, ${d.coordinates.lng}, ${json(d.viewingAreaCoordinates)}::jsonb,
      ${d.trafficDirection}, ${d.screens}, ${d.imageUrl}, ${d.streetViewUrl}, ${d.contentWidth},
      ${d.contentHeight}, ${d.soldOut}, now())
    on conflict (device_id) do update set location = excluded.location, city = excluded.city,
      state_abbr = excluded.state_abbr, country = excluded.country,
      time_zone_id = excluded.time_zone_id, lat = excluded.lat, lng = excluded.lng,
      viewing_area_coordinates = excluded.viewing_area_coordinates,
      traffic_direction = excluded.traffic_direction, screens = excluded.screens,
      image_url = excluded.image_url, street_view_url = excluded.street_view_url,
      content_width = excluded.content_width, content_height = excluded.content_height,
      sold_out = excluded.sold_out, updated_at = excluded.updated_at`)
}

export async function upsertTemplate(db: Queryable, t: Template): Promise<void> {
  await db.query(sql`
    insert into templates (id, name, types, mode, width_px, height_px, preview_image_url,
      example_preview_video_url, video_max_length_seconds, html, updated_at)
    values (${t.id}, ${t.name}, ${json(t.types)}::jsonb, ${t.mode}, ${t.widthPx}, ${t.heightPx},
      ${t.previewImageUrl}, ${t.examplePreviewVideoUrl}, ${t.videoMaxLengthSeconds}::int,
      ${t.html}, now())
    on conflict (id) do update set name = excluded.name, types = excluded.types,
      mode = excluded.mode, width_px = excluded.width_px, height_px = excluded.height_px,
      preview_image_url = excluded.preview_image_url,
      example_preview_video_url = excluded.example_preview_video_url,
      video_max_length_seconds = excluded.video_max_length_seconds, html = excluded.html,
      updated_at = excluded.updated_at`)
}

/** The event, with its device and template lists replaced by the file's. */
export async function upsertEvent(db: Queryable, e: Event): Promise<void> {
  await db.query(sql`
    insert into events (slug, name, start_date_hour_local_inclusive, end_date_hour_local_exclusive,
      slot_width_ms, allowed_content_generator_types, value_cents_per_slot, currency, branded,
      sponsor_name, min_presale_slot_epoch_ms, plays_per_slot, seconds_per_shout, updated_at)
    values (${e.slug}, ${e.name}, ${e.startDateHourLocalInclusive}, ${e.endDateHourLocalExclusive},
      ${e.slotWidthMS}, ${json(e.allowedContentGeneratorTypes)}::jsonb, ${e.valueCentsPerSlot},
      ${e.currency}, ${e.branded}, ${e.sponsorName}, ${e.minPresaleSlotEpochMs}::bigint,
      ${e.playsPerSlot}, ${e.secondsPerShout}, now())
    on conflict (slug) do update set name = excluded.name,
      start_date_hour_local_inclusive = excluded.start_date_hour_local_inclusive,
      end_date_hour_local_exclusive = excluded.end_date_hour_local_exclusive,
      slot_width_ms = excluded.slot_width_ms,
      allowed_content_generator_types = excluded.allowed_content_generator_types,
      value_cents_per_slot = excluded.value_cents_per_slot, currency = excluded.currency,
      branded = excluded.branded, sponsor_name = excluded.sponsor_name,
      min_presale_slot_epoch_ms = excluded.min_presale_slot_epoch_ms,
      plays_per_slot = excluded.plays_per_slot, seconds_per_shout = excluded.seconds_per_shout,
      updated_at = excluded.updated_at`)
  await db.query(sql`delete from event_devices where event_slug = ${e.slug}`)
  if (e.devices.length > 0) {
    const rows = e.devices.map((d) => sql`(${e.slug}, ${d.deviceId}, ${d.unavailable})`)
    await db.query(sql`
      insert into event_devices (event_slug, device_id, unavailable) values ${joinSql(rows)}`)
  }
  await db.query(sql`delete from event_templates where event_slug = ${e.slug}`)
  if (e.templates.length > 0) {
    const rows = e.templates.map((templateId) => sql`(${e.slug}, ${templateId})`)
    await db.query(sql`
      insert into event_templates (event_slug, template_id) values ${joinSql(rows)}`)
  }
}

export async function replacePromo(db: Queryable, p: Promo): Promise<void> {
  // Codes are matched without regard to case, so an edited file may change a code's case.
  await db.query(sql`delete from promos where upper(promo_code) = upper(${p.promoCode})`)
  await db.query(sql`
    insert into promos (promo_code, event_slug, cents_off_total, percent_off_total,
      once_per_customer, updated_at)
    values (${p.promoCode}, ${p.eventSlug}, ${p.centsOffTotal ?? null}::int,
      ${p.percentOffTotal ?? null}::int, ${p.oncePerCustomer}, now())`)
}
