import type { Device, DevicesQuery, ShoutEvent } from '../../contract/index.ts'
import type { Queryable } from '../platform/db/client.ts'
import { joinSql, json, type Sql, sql } from '../platform/db/sql.ts'
import type { Catalogue, KnownIds } from './format.ts'

// The catalogue's tables (migrations/0001_core.sql): devices, templates, events, event_devices,
// event_templates, promos. Only the import writes them; the shop reads them here in the shapes of
// api-v1, other modules through reads.ts.

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
 * Holds the demo import's advisory lock until the transaction ends (instances starting at
 * once). Its key is the migrations' (727274) plus one.
 */
export async function lockDemoImport(tx: Queryable): Promise<void> {
  await tx.query(sql`select pg_advisory_xact_lock(727275)`)
}

export async function countEvents(db: Queryable): Promise<number> {
  const [row] = await db.query(sql<{ n: number }>`select count(*)::int as n from events`)
  return row?.n ?? 0
}

type FileDevice = Catalogue['devices'][number]
type FileTemplate = Catalogue['templates'][number]
type FileEvent = Catalogue['events'][number]
type FilePromo = Catalogue['promos'][number]

export async function upsertDevice(db: Queryable, d: FileDevice): Promise<void> {
  await db.query(sql`
    insert into devices (device_id, location, city, state_abbr, country, time_zone_id, lat, lng,
      viewing_area_coordinates, traffic_direction, screens, image_url, street_view_url,
      content_width, content_height, sold_out, impressions_per_play, ad_cpm_cents, ad_currency,
      screen_corners, updated_at)
    values (${d.deviceId}, ${d.location}, ${d.city}, ${d.stateAbbr}, ${d.country}, ${d.timeZoneId},
      ${d.coordinates.lat}, ${d.coordinates.lng}, ${json(d.viewingAreaCoordinates)}::jsonb,
      ${d.trafficDirection}, ${d.screens}, ${d.imageUrl}, ${d.streetViewUrl}, ${d.contentWidth},
      ${d.contentHeight}, ${d.soldOut}, ${d.impressionsPerPlay}::int, ${d.adCpmCents}::int,
      ${d.adCurrency}::text, ${d.screenCorners ? json(d.screenCorners) : null}::jsonb, now())
    on conflict (device_id) do update set location = excluded.location, city = excluded.city,
      state_abbr = excluded.state_abbr, country = excluded.country,
      time_zone_id = excluded.time_zone_id, lat = excluded.lat, lng = excluded.lng,
      viewing_area_coordinates = excluded.viewing_area_coordinates,
      traffic_direction = excluded.traffic_direction, screens = excluded.screens,
      image_url = excluded.image_url, street_view_url = excluded.street_view_url,
      content_width = excluded.content_width, content_height = excluded.content_height,
      sold_out = excluded.sold_out, impressions_per_play = excluded.impressions_per_play,
      ad_cpm_cents = excluded.ad_cpm_cents, ad_currency = excluded.ad_currency,
      screen_corners = excluded.screen_corners, updated_at = excluded.updated_at`)
}

export async function upsertTemplate(db: Queryable, t: FileTemplate): Promise<void> {
  await db.query(sql`
    insert into templates (id, name, names, types, mode, width_px, height_px, preview_image_url,
      example_preview_video_url, video_max_length_seconds, html, updated_at)
    values (${t.id}, ${t.name}, ${json(t.names)}::jsonb, ${json(t.types)}::jsonb, ${t.mode}, ${t.widthPx}, ${t.heightPx},
      ${t.previewImageUrl}, ${t.examplePreviewVideoUrl}, ${t.videoMaxLengthSeconds}::int,
      ${t.html}, now())
    on conflict (id) do update set name = excluded.name, names = excluded.names,
      types = excluded.types,
      mode = excluded.mode, width_px = excluded.width_px, height_px = excluded.height_px,
      preview_image_url = excluded.preview_image_url,
      example_preview_video_url = excluded.example_preview_video_url,
      video_max_length_seconds = excluded.video_max_length_seconds, html = excluded.html,
      updated_at = excluded.updated_at`)
}

/** The event, with its device and template lists replaced by the file's. */
export async function upsertEvent(db: Queryable, e: FileEvent): Promise<void> {
  await db.query(sql`
    insert into events (slug, name, start_date_hour_local_inclusive, end_date_hour_local_exclusive,
      slot_width_ms, allowed_content_generator_types, value_cents_per_slot, currency, branded,
      sponsor_name, min_presale_slot_epoch_ms, plays_per_slot, seconds_per_shout, ad_share_percent,
      updated_at)
    values (${e.slug}, ${e.name}, ${e.startDateHourLocalInclusive}, ${e.endDateHourLocalExclusive},
      ${e.slotWidthMS}, ${json(e.allowedContentGeneratorTypes)}::jsonb, ${e.valueCentsPerSlot},
      ${e.currency}, ${e.branded}, ${e.sponsorName}, ${e.minPresaleSlotEpochMs}::bigint,
      ${e.playsPerSlot}, ${e.secondsPerShout}, ${e.adSharePercent}::int, now())
    on conflict (slug) do update set name = excluded.name,
      start_date_hour_local_inclusive = excluded.start_date_hour_local_inclusive,
      end_date_hour_local_exclusive = excluded.end_date_hour_local_exclusive,
      slot_width_ms = excluded.slot_width_ms,
      allowed_content_generator_types = excluded.allowed_content_generator_types,
      value_cents_per_slot = excluded.value_cents_per_slot, currency = excluded.currency,
      branded = excluded.branded, sponsor_name = excluded.sponsor_name,
      min_presale_slot_epoch_ms = excluded.min_presale_slot_epoch_ms,
      plays_per_slot = excluded.plays_per_slot, seconds_per_shout = excluded.seconds_per_shout,
      ad_share_percent = excluded.ad_share_percent, updated_at = excluded.updated_at`)
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

export async function replacePromo(db: Queryable, p: FilePromo): Promise<void> {
  // Codes are matched without regard to case, so an edited file may change a code's case.
  await db.query(sql`delete from promos where upper(promo_code) = upper(${p.promoCode})`)
  await db.query(sql`
    insert into promos (promo_code, event_slug, cents_off_total, percent_off_total,
      once_per_customer, updated_at)
    values (${p.promoCode}, ${p.eventSlug}, ${p.centsOffTotal ?? null}::int,
      ${p.percentOffTotal ?? null}::int, ${p.oncePerCustomer}, now())`)
}

/**
 * The rows the file names, read back in the file's shape (the console's preview says what
 * an import would add or change). Lists of an event (devices, templates) come sorted by id.
 */
export async function storedCatalogueRows(
  db: Queryable,
  ids: { devices: string[]; templates: string[]; events: string[]; promos: string[] },
): Promise<{
  devices: FileDevice[]
  templates: FileTemplate[]
  events: FileEvent[]
  promos: FilePromo[]
}> {
  const list = (values: string[]) => joinSql(values.map((value) => sql`${value}`))
  const devices = ids.devices.length
    ? await db.query(sql<FileDevice>`
        select device_id as "deviceId", location, city, state_abbr as "stateAbbr", country,
          time_zone_id as "timeZoneId", json_build_object('lat', lat, 'lng', lng) as coordinates,
          viewing_area_coordinates as "viewingAreaCoordinates",
          traffic_direction as "trafficDirection", screens, image_url as "imageUrl",
          street_view_url as "streetViewUrl", content_width as "contentWidth",
          content_height as "contentHeight", sold_out as "soldOut",
          impressions_per_play as "impressionsPerPlay", ad_cpm_cents as "adCpmCents",
          ad_currency as "adCurrency", screen_corners as "screenCorners"
        from devices where device_id in (${list(ids.devices)})`)
    : []
  const templates = ids.templates.length
    ? await db.query(sql<FileTemplate>`
        select id, name, names, types, mode, width_px as "widthPx", height_px as "heightPx",
          preview_image_url as "previewImageUrl",
          example_preview_video_url as "examplePreviewVideoUrl",
          video_max_length_seconds as "videoMaxLengthSeconds", html
        from templates where id in (${list(ids.templates)})`)
    : []
  const events = ids.events.length
    ? await db.query(sql<FileEvent>`
        select e.slug, e.name, e.start_date_hour_local_inclusive as "startDateHourLocalInclusive",
          e.end_date_hour_local_exclusive as "endDateHourLocalExclusive",
          e.slot_width_ms as "slotWidthMS",
          e.allowed_content_generator_types as "allowedContentGeneratorTypes",
          e.value_cents_per_slot as "valueCentsPerSlot", e.currency, e.branded,
          e.sponsor_name as "sponsorName", e.min_presale_slot_epoch_ms as "minPresaleSlotEpochMs",
          e.plays_per_slot as "playsPerSlot", e.seconds_per_shout as "secondsPerShout",
          e.ad_share_percent as "adSharePercent",
          coalesce((select json_agg(json_build_object('deviceId', ed.device_id,
              'unavailable', ed.unavailable) order by ed.device_id)
            from event_devices ed where ed.event_slug = e.slug), '[]'::json) as devices,
          coalesce((select json_agg(et.template_id order by et.template_id)
            from event_templates et where et.event_slug = e.slug), '[]'::json) as templates
        from events e where e.slug in (${list(ids.events)})`)
    : []
  const promos = ids.promos.length
    ? await db.query(sql<FilePromo>`
        select promo_code as "promoCode", event_slug as "eventSlug",
          cents_off_total as "centsOffTotal", percent_off_total as "percentOffTotal",
          once_per_customer as "oncePerCustomer"
        from promos
        where upper(promo_code) in (${joinSql(ids.promos.map((code) => sql`upper(${code})`))})`)
    : []
  return { devices, templates, events, promos }
}

// ---------- the shop's reads (api-v1 "Spotlight") ----------

const EVENT_COLUMNS = sql`
  slug, name, start_date_hour_local_inclusive as "startDateHourLocalInclusive",
  end_date_hour_local_exclusive as "endDateHourLocalExclusive", slot_width_ms as "slotWidthMS",
  allowed_content_generator_types as "allowedContentGeneratorTypes",
  value_cents_per_slot as "valueCentsPerSlot", currency, branded, sponsor_name as "sponsorName",
  min_presale_slot_epoch_ms as "minPresaleSlotEpochMs", plays_per_slot as "playsPerSlot",
  seconds_per_shout as "secondsPerShout"`

export async function eventBySlug(db: Queryable, slug: string): Promise<ShoutEvent | null> {
  const [row] = await db.query(
    sql<ShoutEvent>`select ${EVENT_COLUMNS} from events where slug = ${slug}`,
  )
  return row ?? null
}

export function allEvents(db: Queryable): Promise<ShoutEvent[]> {
  return db.query(sql<ShoutEvent>`select ${EVENT_COLUMNS} from events order by slug`)
}

type DeviceRow = Omit<Device, 'coordinates'> & { lat: number; lng: number }

const DEVICE_COLUMNS = sql`
  d.device_id as "deviceId", d.location, d.traffic_direction as "trafficDirection", d.lat, d.lng,
  d.viewing_area_coordinates as "viewingAreaCoordinates", d.screens, d.image_url as "imageUrl",
  d.street_view_url as "streetViewUrl", d.sold_out as "soldOut",
  ed.unavailable as "unavailableForEvent", d.city, d.state_abbr as "stateAbbr", d.country,
  d.time_zone_id as "timeZoneId", d.content_width as "contentWidth",
  d.content_height as "contentHeight"`

const deviceOf = ({ lat, lng, ...row }: DeviceRow): Device => ({
  deviceId: row.deviceId,
  location: row.location,
  trafficDirection: row.trafficDirection,
  coordinates: { lat, lng },
  viewingAreaCoordinates: row.viewingAreaCoordinates,
  screens: row.screens,
  imageUrl: row.imageUrl,
  streetViewUrl: row.streetViewUrl,
  soldOut: row.soldOut,
  unavailableForEvent: row.unavailableForEvent,
  city: row.city,
  stateAbbr: row.stateAbbr,
  country: row.country,
  timeZoneId: row.timeZoneId,
  contentWidth: row.contentWidth,
  contentHeight: row.contentHeight,
})

/** The device as the event lists it, or null when the event does not show it. */
export async function eventDevice(
  db: Queryable,
  slug: string,
  deviceId: string,
): Promise<Device | null> {
  const [row] = await db.query(sql<DeviceRow>`
    select ${DEVICE_COLUMNS}
    from event_devices ed join devices d on d.device_id = ed.device_id
    where ed.event_slug = ${slug} and ed.device_id = ${deviceId}`)
  return row ? deviceOf(row) : null
}

// spec §9: sorted by id, city or location, then by id so that pages never overlap.
const ORDER_COLUMNS: Record<DevicesQuery['orderBy'], Sql> = {
  id: sql`d.device_id`,
  city: sql`d.city`,
  location: sql`d.location`,
}
const DIRECTIONS: Record<DevicesQuery['sortDirection'], Sql> = { asc: sql`asc`, desc: sql`desc` }

/** One page of an event's devices, and how many it has. */
export async function eventDevicesPage(
  db: Queryable,
  slug: string,
  page: DevicesQuery,
): Promise<{ devices: Device[]; total: number }> {
  const direction = DIRECTIONS[page.sortDirection]
  const [rows, totals] = await Promise.all([
    db.query(sql<DeviceRow>`
      select ${DEVICE_COLUMNS}
      from event_devices ed join devices d on d.device_id = ed.device_id
      where ed.event_slug = ${slug}
      order by ${ORDER_COLUMNS[page.orderBy]} ${direction}, d.device_id ${direction}
      limit ${page.limit} offset ${page.offset}`),
    db.query(sql<{ total: number }>`
      select count(*)::int as total from event_devices where event_slug = ${slug}`),
  ])
  return { devices: rows.map(deviceOf), total: totals[0]?.total ?? 0 }
}

// ---------- promo codes (spec §5) ----------

export type PromoRow = {
  promoCode: string
  eventSlug: string
  centsOffTotal: number | null
  percentOffTotal: number | null
  oncePerCustomer: boolean
}

// Codes are matched without regard to case: a shopper types 'love10' for LOVE10.
export async function findPromo(db: Queryable, code: string): Promise<PromoRow | null> {
  const [row] = await db.query(sql<PromoRow>`
    select promo_code as "promoCode", event_slug as "eventSlug", cents_off_total as "centsOffTotal",
      percent_off_total as "percentOffTotal", once_per_customer as "oncePerCustomer"
    from promos where upper(promo_code) = upper(${code})`)
  return row ?? null
}
