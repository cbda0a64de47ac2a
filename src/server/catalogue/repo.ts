import {
  type Device,
  DeviceSchema,
  type DevicesQuery,
  EventSchema,
  type ShoutEvent,
} from '../../contract/index.ts'
import type { Queryable } from '../platform/db/client.ts'
import { joinSql, type Sql, sql } from '../platform/db/sql.ts'
import {
  DEVICES,
  EVENTS,
  type FileDevice,
  type FileEvent,
  type FilePromo,
  type FileTemplate,
  PROMOS,
  TEMPLATES,
} from './columns.ts'
import type { KnownIds } from './format.ts'

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

/** Every table's own `updated_at`: when the import last wrote the row. */
const UPDATED_NOW = { updated_at: sql`now()` }

export async function countEvents(db: Queryable): Promise<number> {
  const [row] = await db.query(sql<{ n: number }>`select count(*)::int as n from events`)
  return row?.n ?? 0
}

export async function upsertDevice(db: Queryable, d: FileDevice): Promise<void> {
  await db.query(DEVICES.upsert(d, ['deviceId'], UPDATED_NOW))
}

export async function upsertTemplate(db: Queryable, t: FileTemplate): Promise<void> {
  await db.query(TEMPLATES.upsert(t, ['id'], UPDATED_NOW))
}

/** The event, with its device and template lists replaced by the file's. */
export async function upsertEvent(db: Queryable, e: FileEvent): Promise<void> {
  const { devices, templates, ...columns } = e
  await db.query(EVENTS.upsert(columns, ['slug'], UPDATED_NOW))
  await db.query(sql`delete from event_devices where event_slug = ${e.slug}`)
  if (devices.length > 0) {
    const rows = devices.map((d) => sql`(${e.slug}, ${d.deviceId}, ${d.unavailable})`)
    await db.query(sql`
      insert into event_devices (event_slug, device_id, unavailable) values ${joinSql(rows)}`)
  }
  await db.query(sql`delete from event_templates where event_slug = ${e.slug}`)
  if (templates.length > 0) {
    const rows = templates.map((templateId) => sql`(${e.slug}, ${templateId})`)
    await db.query(sql`
      insert into event_templates (event_slug, template_id) values ${joinSql(rows)}`)
  }
}

export async function replacePromo(db: Queryable, p: FilePromo): Promise<void> {
  // Codes are matched without regard to case, so an edited file may change a code's case.
  await db.query(sql`delete from promos where upper(promo_code) = upper(${p.promoCode})`)
  await db.query(sql`insert into ${PROMOS.insert(p, UPDATED_NOW)}`)
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
        select ${DEVICES.select()} from devices where device_id in (${list(ids.devices)})`)
    : []
  const templates = ids.templates.length
    ? await db.query(sql<FileTemplate>`
        select ${TEMPLATES.select()} from templates where id in (${list(ids.templates)})`)
    : []
  const events = ids.events.length
    ? await db.query(sql<FileEvent>`
        select ${EVENTS.select({ from: 'e' })},
          coalesce((select json_agg(json_build_object('deviceId', ed.device_id,
              'unavailable', ed.unavailable) order by ed.device_id)
            from event_devices ed where ed.event_slug = e.slug), '[]'::json) as devices,
          coalesce((select json_agg(et.template_id order by et.template_id)
            from event_templates et where et.event_slug = e.slug), '[]'::json) as templates
        from events e where e.slug in (${list(ids.events)})`)
    : []
  const promos = ids.promos.length
    ? await db.query(sql<FilePromo>`
        select ${PROMOS.select()} from promos
        where upper(promo_code) in (${joinSql(ids.promos.map((code) => sql`upper(${code})`))})`)
    : []
  return { devices, templates, events, promos }
}

// ---------- the shop's reads (api-v1 "Spotlight") ----------

// The shop's event and billboard: the fields the contract's schemas name, so a field the contract
// gains is read as soon as its column map has it (a contract field the map lacks fails the
// typecheck here: `fields` takes the map's names only).

const EVENT_COLUMNS = EVENTS.select({
  fields: Object.keys(EventSchema.pipe[0].entries) as (keyof ShoutEvent)[],
})

export async function eventBySlug(db: Queryable, slug: string): Promise<ShoutEvent | null> {
  const [row] = await db.query(
    sql<ShoutEvent>`select ${EVENT_COLUMNS} from events where slug = ${slug}`,
  )
  return row ?? null
}

export function allEvents(db: Queryable): Promise<ShoutEvent[]> {
  return db.query(sql<ShoutEvent>`select ${EVENT_COLUMNS} from events order by slug`)
}

/** What the shop works out per answer rather than reads: the event's own `unavailableForEvent`,
 * the country's ISO code (the catalogue service adds it). */
type DerivedField = 'unavailableForEvent' | 'countryCode'
const DERIVED: ReadonlySet<string> = new Set<DerivedField>(['unavailableForEvent', 'countryCode'])

/** The contract's billboard fields the catalogue's rows hold. */
export const SHOP_DEVICE_FIELDS = Object.keys(DeviceSchema.entries).filter(
  (field) => !DERIVED.has(field),
) as Exclude<keyof Device, DerivedField>[]

const DEVICE_COLUMNS = sql`${DEVICES.select({ from: 'd', fields: SHOP_DEVICE_FIELDS })},
  ed.unavailable as "unavailableForEvent"`

/** The device as the event lists it, or null when the event does not show it. */
export async function eventDevice(
  db: Queryable,
  slug: string,
  deviceId: string,
): Promise<Device | null> {
  const [row] = await db.query(sql<Device>`
    select ${DEVICE_COLUMNS}
    from event_devices ed join devices d on d.device_id = ed.device_id
    where ed.event_slug = ${slug} and ed.device_id = ${deviceId}`)
  return row ?? null
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
    db.query(sql<Device>`
      select ${DEVICE_COLUMNS}
      from event_devices ed join devices d on d.device_id = ed.device_id
      where ed.event_slug = ${slug}
      order by ${ORDER_COLUMNS[page.orderBy]} ${direction}, d.device_id ${direction}
      limit ${page.limit} offset ${page.offset}`),
    db.query(sql<{ total: number }>`
      select count(*)::int as total from event_devices where event_slug = ${slug}`),
  ])
  return { devices: rows, total: totals[0]?.total ?? 0 }
}

// ---------- promo codes (spec §5) ----------

/** A stored promo: the file's fields, an absent discount null. */
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
    select ${PROMOS.select()} from promos where upper(promo_code) = upper(${code})`)
  return row ?? null
}
