import type { ContentType, Heartbeat, ShoutPlay as Play } from '../../contract/index.ts'
import type { OrderState } from '../../domain/order-state.ts'
import type { PlayoutEvent } from '../../domain/schedule.ts'
import type { Queryable } from '../platform/db/client.ts'
import { joinSql, sql } from '../platform/db/sql.ts'

// The tables of playout (migrations/0004_playout.sql): player_tokens, plays, play_refusals. Reads
// devices, events, event_devices (catalogue/), orders, slot_reservations (order/) and
// generated_content (content/).

export type PlayerDevice = {
  deviceId: string
  country: string
  timeZoneId: string
  widthPx: number
  heightPx: number
}

export async function playerDevice(db: Queryable, deviceId: string): Promise<PlayerDevice | null> {
  const [row] = await db.query(sql<PlayerDevice>`
    select device_id as "deviceId", country, time_zone_id as "timeZoneId",
      content_width as "widthPx", content_height as "heightPx"
    from devices where device_id = ${deviceId}`)
  return row ?? null
}

/** The billboard a live (unrevoked) token belongs to, by the token's hash. */
export async function deviceOfToken(db: Queryable, tokenHash: string): Promise<string | null> {
  const [row] = await db.query(sql<{ deviceId: string }>`
    select device_id as "deviceId" from player_tokens
    where token_hash = ${tokenHash} and revoked_at is null`)
  return row?.deviceId ?? null
}

/** Revokes the billboard's live token and stores the new one's hash (run in one transaction). */
export async function replaceToken(
  db: Queryable,
  deviceId: string,
  tokenHash: string,
): Promise<void> {
  await db.query(sql`
    update player_tokens set revoked_at = now() where device_id = ${deviceId} and revoked_at is null`)
  await db.query(sql`
    insert into player_tokens (token_hash, device_id) values (${tokenHash}, ${deviceId})`)
}

export type DeviceEvent = PlayoutEvent & {
  slug: string
  name: string
  valueCentsPerSlot: number
  currency: string
  /** catalogue-format `adSharePercent`, or null for the server's default. */
  adSharePercent: number | null
}

/** The events that show the billboard. */
export function eventsOfDevice(db: Queryable, deviceId: string): Promise<DeviceEvent[]> {
  return db.query(sql<DeviceEvent>`
    select e.slug, e.name, e.start_date_hour_local_inclusive as "startDateHourLocalInclusive",
      e.end_date_hour_local_exclusive as "endDateHourLocalExclusive", e.slot_width_ms as "slotWidthMS",
      e.plays_per_slot as "playsPerSlot", e.seconds_per_shout as "secondsPerShout",
      e.value_cents_per_slot as "valueCentsPerSlot", e.currency,
      e.ad_share_percent as "adSharePercent"
    from event_devices ed join events e on e.slug = ed.event_slug
    where ed.device_id = ${deviceId}
    order by e.slug`)
}

export type SoldContent = {
  url: string
  type: ContentType
  widthPx: number
  heightPx: number
  durationSeconds: number | null
}

export type ConfirmedSlot = { orderGuid: string; slotNumber: number; content: SoldContent }

/** The slots in [first, last] of an event on a billboard sold to Confirmed orders, with their content. */
export function confirmedSlots(
  db: Queryable,
  eventSlug: string,
  deviceId: string,
  first: number,
  last: number,
): Promise<ConfirmedSlot[]> {
  // Only Confirmed orders play (src/domain/schedule.ts mayPlay): the state is checked here so that a
  // window of a busy billboard never reads the orders it would drop.
  return db.query(sql<ConfirmedSlot>`
    select r.order_guid as "orderGuid", r.slot_number as "slotNumber",
      json_build_object('url', g.url, 'type', g.type, 'widthPx', g.width_px,
        'heightPx', g.height_px, 'durationSeconds', g.duration_seconds) as content
    from slot_reservations r
      join orders o on o.guid = r.order_guid
      join generated_content g on g.key = o.execution_content_key
    where r.event_slug = ${eventSlug} and r.device_id = ${deviceId}
      and r.slot_number between ${first} and ${last} and o.state = 'Confirmed'
    order by r.slot_number`)
}

export type OrderForPlay = {
  guid: string
  state: OrderState
  eventSlug: string
  deviceId: string
  slotNumbers: number[]
}

export function ordersForPlays(db: Queryable, guids: readonly string[]): Promise<OrderForPlay[]> {
  if (guids.length === 0) return Promise.resolve([])
  return db.query(sql<OrderForPlay>`
    select guid, state, event_slug as "eventSlug", device_id as "deviceId",
      slot_numbers as "slotNumbers"
    from orders where guid in (${joinSql(guids.map((g) => sql`${g}`))})`)
}

/** The key of a play: the order, the slot and the play's index in it. */
export const playKey = (p: Pick<Play, 'orderGuid' | 'slotNumber' | 'playIndex'>) =>
  `${p.orderGuid} ${p.slotNumber} ${p.playIndex}`

/** Which of the list are stored already: by their playId, or as the same play (playKey). */
export async function storedPlays(
  db: Queryable,
  plays: readonly Play[],
): Promise<{ ids: Set<string>; keys: Set<string> }> {
  if (plays.length === 0) return { ids: new Set(), keys: new Set() }
  const rows = await db.query(sql<{
    playId: string
    orderGuid: string
    slotNumber: number
    playIndex: number
  }>`
    select play_id as "playId", order_guid as "orderGuid", slot_number as "slotNumber",
      play_index as "playIndex"
    from plays
    where play_id in (${joinSql(plays.map((p) => sql`${p.playId}`))})
      or (order_guid, slot_number, play_index) in (${joinSql(
        plays.map((p) => sql`(${p.orderGuid}, ${p.slotNumber}::int, ${p.playIndex}::int)`),
      )})`)
  return { ids: new Set(rows.map((r) => r.playId)), keys: new Set(rows.map(playKey)) }
}

/**
 * Stores the plays; one already stored (a replay, or the same play under a new id, also concurrently)
 * is skipped. How many were new.
 */
export async function insertPlays(
  db: Queryable,
  deviceId: string,
  plays: readonly Play[],
): Promise<number> {
  if (plays.length === 0) return 0
  const rows = plays.map(
    (p) =>
      sql`(${p.playId}, ${deviceId}, ${p.orderGuid}, ${p.slotNumber}, ${p.playIndex},
        ${p.startedAtEpochMs}::bigint, ${p.endedAtEpochMs}::bigint)`,
  )
  const inserted = await db.query(sql<{ playId: string }>`
    insert into plays (play_id, device_id, order_guid, slot_number, play_index,
      started_at_epoch_ms, ended_at_epoch_ms)
    values ${joinSql(rows)}
    on conflict do nothing
    returning play_id as "playId"`)
  return inserted.length
}

/** Counts plays a billboard reported that matched nothing it was scheduled to play. */
export async function countRefusedPlays(
  db: Queryable,
  deviceId: string,
  refused: number,
): Promise<void> {
  if (refused === 0) return
  await db.query(sql`
    insert into play_refusals (device_id, refused) values (${deviceId}, ${refused})
    on conflict (device_id) do update
      set refused = play_refusals.refused + excluded.refused, last_refused_at = now()`)
}

export async function refusedPlays(db: Queryable, deviceId: string): Promise<number> {
  const [row] = await db.query(sql<{ refused: number }>`
    select refused from play_refusals where device_id = ${deviceId}`)
  return row?.refused ?? 0
}

/**
 * When the billboard's SMIL playlist with this ETag first appeared (epoch ms, whole seconds). A new
 * ETag replaces the row with `nowEpochMs`, at least a second after the previous change, so
 * Last-Modified (an HTTP date: whole seconds) always moves when the document changes.
 */
export async function smilModifiedAt(
  db: Queryable,
  deviceId: string,
  etag: string,
  nowEpochMs: number,
): Promise<number> {
  const second = Math.floor(nowEpochMs / 1000) * 1000
  const [changed] = await db.query(sql<{ at: number }>`
    insert into smil_feeds (device_id, etag, modified_at_epoch_ms)
    values (${deviceId}, ${etag}, ${second}::bigint)
    on conflict (device_id) do update
      set etag = excluded.etag,
        modified_at_epoch_ms = greatest(excluded.modified_at_epoch_ms,
          smil_feeds.modified_at_epoch_ms + 1000)
      where smil_feeds.etag <> excluded.etag
    returning modified_at_epoch_ms::float8 as "at"`)
  if (changed) return changed.at
  const [kept] = await db.query(sql<{ at: number }>`
    select modified_at_epoch_ms::float8 as "at" from smil_feeds where device_id = ${deviceId}`)
  return kept?.at ?? second
}

export type StoredHeartbeat = {
  deviceId: string
  source: 'web' | 'smil'
  seenAtEpochMs: number
  clockOffsetMs: number | null
  beat: Heartbeat | null
}

/** Records a billboard's report: a web player's heartbeat (with its body) or a SMIL fetch. */
export async function saveHeartbeat(
  db: Queryable,
  report: Omit<StoredHeartbeat, 'deviceId'> & { deviceId: string },
): Promise<void> {
  const beat = report.beat === null ? null : JSON.stringify(report.beat)
  await db.query(sql`
    insert into player_heartbeats (device_id, source, seen_at_epoch_ms, clock_offset_ms, beat)
    values (${report.deviceId}, ${report.source}, ${report.seenAtEpochMs}::bigint,
      ${report.clockOffsetMs}::bigint, ${beat}::jsonb)
    on conflict (device_id) do update set source = excluded.source,
      seen_at_epoch_ms = greatest(player_heartbeats.seen_at_epoch_ms, excluded.seen_at_epoch_ms),
      clock_offset_ms = coalesce(excluded.clock_offset_ms, player_heartbeats.clock_offset_ms),
      beat = coalesce(excluded.beat, player_heartbeats.beat)`)
}

export function heartbeatsOf(
  db: Queryable,
  deviceIds: readonly string[],
): Promise<StoredHeartbeat[]> {
  if (deviceIds.length === 0) return Promise.resolve([])
  return db.query(sql<StoredHeartbeat>`
    select device_id as "deviceId", source, seen_at_epoch_ms::float8 as "seenAtEpochMs",
      clock_offset_ms::float8 as "clockOffsetMs", beat
    from player_heartbeats
    where device_id in (${joinSql(deviceIds.map((id) => sql`${id}`))})`)
}

export type BillboardReport = Pick<StoredHeartbeat, 'clockOffsetMs' | 'beat'> & {
  deviceId: string
  location: string
  city: string
  timeZoneId: string
  source: 'web' | 'smil' | null
  seenAtEpochMs: number | null
}

/** Every billboard of the catalogue with its last report (nulls before the first), by device id. */
export function billboardReports(db: Queryable): Promise<BillboardReport[]> {
  return db.query(sql<BillboardReport>`
    select d.device_id as "deviceId", d.location, d.city, d.time_zone_id as "timeZoneId",
      h.source, h.seen_at_epoch_ms::float8 as "seenAtEpochMs",
      h.clock_offset_ms::float8 as "clockOffsetMs", h.beat
    from devices d left join player_heartbeats h on h.device_id = d.device_id
    order by d.device_id`)
}
