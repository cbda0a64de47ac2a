import type { ContentGenerationRequest, ContentType, Template } from '../../contract/index.ts'
import type { PlayoutEvent } from '../../domain/schedule.ts'
import type { Queryable } from '../platform/db/client.ts'
import { type Sql, sql } from '../platform/db/sql.ts'
import { DEVICES, EVENTS, TEMPLATES } from './columns.ts'

// What the catalogue module lets other modules read of its tables: the templates and what a
// generation names (content/), a billboard and its events (player/), the billboards and an event's
// billboards (the console, ops/), and a condition on an event's end (the mail planner).

// ---------- templates (content/) ----------

/** A template as api-v1 lists it, and its html (placeholders {{buyerName}} {{recipientName}} ...). */
export type TemplateRow = Template & { html: string }

const TEMPLATE_COLUMNS = TEMPLATES.select()

/** spec §7 call 1: the templates made for this screen size, in these modes (types are filtered by the caller). */
export function templatesFor(
  db: Queryable,
  size: { widthPx: number; heightPx: number },
  modes: readonly string[],
): Promise<TemplateRow[]> {
  return db.query(sql<TemplateRow>`
    select ${TEMPLATE_COLUMNS} from templates
    where width_px = ${size.widthPx} and height_px = ${size.heightPx}
      and mode = any(${modes}::text[])
    order by name, id`)
}

export async function templateById(db: Queryable, id: string): Promise<TemplateRow | null> {
  const [row] = await db.query(
    sql<TemplateRow>`select ${TEMPLATE_COLUMNS} from templates where id = ${id}`,
  )
  return row ?? null
}

/** The longest videoMaxLengthSeconds of any template, or null when none sets one. */
export async function longestVideoSeconds(db: Queryable): Promise<number | null> {
  const [row] = await db.query(sql<{ longest: number | null }>`
    select max(video_max_length_seconds) as longest from templates`)
  return row?.longest ?? null
}

export type PlanDevice = { deviceId: string; contentWidth: number; contentHeight: number }
export type PlanEvent = { slug: string; allowedContentGeneratorTypes: ContentType[] }

/** What a generation request names, looked up in one round trip (each null when unknown). */
export async function generationSubjects(
  db: Queryable,
  request: Pick<ContentGenerationRequest, 'generatorId' | 'deviceId' | 'eventSlug'>,
): Promise<{
  template: TemplateRow | null
  device: PlanDevice | null
  event: PlanEvent | null
  /** The event shows the billboard. */
  onEvent: boolean
  /** The event offers the template. */
  offered: boolean
}> {
  const [template, rows] = await Promise.all([
    templateById(db, request.generatorId),
    db.query(sql<{
      device: PlanDevice | null
      event: PlanEvent | null
      onEvent: boolean
      offered: boolean
    }>`
      select
        (select json_build_object('deviceId', device_id, 'contentWidth', content_width,
           'contentHeight', content_height) from devices where device_id = ${request.deviceId})
          as device,
        (select json_build_object('slug', slug,
           'allowedContentGeneratorTypes', allowed_content_generator_types)
           from events where slug = ${request.eventSlug}) as event,
        exists (select 1 from event_devices
          where event_slug = ${request.eventSlug} and device_id = ${request.deviceId}) as "onEvent",
        exists (select 1 from event_templates
          where event_slug = ${request.eventSlug} and template_id = ${request.generatorId})
          as offered`),
  ])
  const row = rows[0]
  return {
    template,
    device: row?.device ?? null,
    event: row?.event ?? null,
    onEvent: row?.onEvent ?? false,
    offered: row?.offered ?? false,
  }
}

// ---------- billboards and their events (player/, ops/) ----------

export type PlayerDevice = {
  deviceId: string
  country: string
  timeZoneId: string
  widthPx: number
  heightPx: number
}

export async function playerDevice(db: Queryable, deviceId: string): Promise<PlayerDevice | null> {
  const [row] = await db.query(sql<PlayerDevice>`
    select ${DEVICES.select({ fields: ['deviceId', 'country', 'timeZoneId'] })},
      content_width as "widthPx", content_height as "heightPx"
    from devices where device_id = ${deviceId}`)
  return row ?? null
}

/** A billboard's photo and where its screen is in it (share/: the keepsake's composite). */
export type BillboardPhoto = {
  imageUrl: string
  /** Four {x, y} fractions of the photo, clockwise from the top left; null: none given. */
  screenCorners: { x: number; y: number }[] | null
  widthPx: number
  heightPx: number
}

export async function billboardPhoto(
  db: Queryable,
  deviceId: string,
): Promise<BillboardPhoto | null> {
  const [row] = await db.query(sql<BillboardPhoto>`
    select ${DEVICES.select({ fields: ['imageUrl', 'screenCorners'] })},
      content_width as "widthPx", content_height as "heightPx"
    from devices where device_id = ${deviceId}`)
  return row ?? null
}

export type DeviceEvent = PlayoutEvent & {
  slug: string
  name: string
  valueCentsPerSlot: number
  currency: string
  /** catalogue-format `adSharePercent`, or null for the server's default. */
  adSharePercent: number | null
}

const DEVICE_EVENT_FIELDS = [
  'slug',
  'name',
  'startDateHourLocalInclusive',
  'endDateHourLocalExclusive',
  'slotWidthMS',
  'playsPerSlot',
  'secondsPerShout',
  'valueCentsPerSlot',
  'currency',
  'adSharePercent',
] as const satisfies readonly (keyof DeviceEvent)[]

/** The events that show the billboard. */
export function eventsOfDevice(db: Queryable, deviceId: string): Promise<DeviceEvent[]> {
  return db.query(sql<DeviceEvent>`
    select ${EVENTS.select({ from: 'e', fields: DEVICE_EVENT_FIELDS })}
    from event_devices ed join events e on e.slug = ed.event_slug
    where ed.device_id = ${deviceId}
    order by e.slug`)
}

export type BillboardRow = {
  deviceId: string
  location: string
  city: string
  timeZoneId: string
  eventSlugs: string[]
  /** where it stands (the console's fleet map) */
  coordinates: { lat: number; lng: number }
}

const BILLBOARD_COLUMNS = sql`
  ${DEVICES.select({ from: 'd', fields: ['deviceId', 'location', 'city', 'timeZoneId', 'coordinates'] })},
  coalesce((select json_agg(ed.event_slug order by ed.event_slug) from event_devices ed
    where ed.device_id = d.device_id), '[]'::json) as "eventSlugs"`

export function billboards(db: Queryable): Promise<BillboardRow[]> {
  return db.query(sql<BillboardRow>`
    select ${BILLBOARD_COLUMNS} from devices d order by d.device_id`)
}

export async function billboard(db: Queryable, deviceId: string): Promise<BillboardRow | null> {
  const [row] = await db.query(sql<BillboardRow>`
    select ${BILLBOARD_COLUMNS} from devices d where d.device_id = ${deviceId}`)
  return row ?? null
}

export type EventDeviceRow = { deviceId: string; timeZoneId: string; sells: boolean }

/** The billboards of an event; `sells` is false for one unavailable for it or sold out. */
export function devicesOfEvent(db: Queryable, eventSlug: string): Promise<EventDeviceRow[]> {
  return db.query(sql<EventDeviceRow>`
    select ${DEVICES.select({ from: 'd', fields: ['deviceId', 'timeZoneId'] })},
      not (ed.unavailable or d.sold_out) as sells
    from event_devices ed join devices d on d.device_id = ed.device_id
    where ed.event_slug = ${eventSlug}
    order by d.device_id`)
}

// ---------- conditions other statements embed ----------

/** True for an event that ends later than two days ago (by its local end hour read as UTC). */
export function eventNotLongOver(eventSlug: Sql): Sql {
  return sql`exists (select 1 from events e where e.slug = ${eventSlug}
    and to_timestamp(e.end_date_hour_local_exclusive, 'YYYY-MM-DD_HH24') > now() - interval '2 days')`
}

/** An event's plays per slot (a scalar subquery; null for an unknown event). */
export function playsPerSlotOf(eventSlug: Sql): Sql {
  return sql`(select e.plays_per_slot from events e where e.slug = ${eventSlug})`
}

/** The events that end later than two days ago (the others' make-goods and mails are past). */
export async function recentEventSlugs(db: Queryable): Promise<string[]> {
  const rows = await db.query(sql<{ slug: string }>`
    select e.slug from events e where ${eventNotLongOver(sql`e.slug`)} order by e.slug`)
  return rows.map((r) => r.slug)
}
