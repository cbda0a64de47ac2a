import type { Heartbeat, ShoutPlay as Play } from '../../contract/index.ts'
import { billboards } from '../catalogue/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { joinSql, sql } from '../platform/db/sql.ts'
import { HEARTBEATS, PLAYER_TOKENS, PLAYS, SMIL_FEEDS } from './columns.ts'

// The tables of playout (migrations/0004_playout.sql): player_tokens, plays, play_refusals, the
// SMIL feeds' stamps (smil_feeds) and the last heartbeats (player_heartbeats). The billboards and
// events are read through the catalogue's read model, the orders they play through the order
// module's (catalogue/reads.ts, order/reads.ts).

/** The billboard a live (unrevoked) token belongs to, by the token's hash. */
export async function deviceOfToken(db: Queryable, tokenHash: string): Promise<string | null> {
  const [row] = await db.query(sql<{ deviceId: string }>`
    select ${PLAYER_TOKENS.select({ fields: ['deviceId'] })} from player_tokens
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
    select ${PLAYS.select({ fields: ['playId', 'orderGuid', 'slotNumber', 'playIndex'] })}
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
    returning ${PLAYS.select({ fields: ['playId'] })}`)
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

/** A billboard's published SMIL document: its token-free text, its hash and when it last changed. */
export type PublishedSmil = { etag: string; body: string; modifiedAtEpochMs: number }

/**
 * The billboard's SMIL document as published (smil_feeds): `candidate` becomes it unless `held` and
 * a document for the same window (`windowKey`) was published before, which then stays (its text,
 * hash and time). A new hash replaces the row with `nowEpochMs`, at least a second after the
 * previous change, so Last-Modified (an HTTP date: whole seconds) always moves when the document
 * changes. All of it in the database: every instance serves the same document.
 */
export async function publishSmil(
  db: Queryable,
  deviceId: string,
  candidate: { etag: string; body: string; windowKey: string },
  held: boolean,
  nowEpochMs: number,
): Promise<PublishedSmil> {
  if (held) {
    const [kept] = await db.query(sql<PublishedSmil>`
      select ${SMIL_FEEDS.select({ fields: ['etag', 'body', 'modifiedAtEpochMs'] })} from smil_feeds
      where device_id = ${deviceId} and window_key = ${candidate.windowKey} and body is not null`)
    if (kept) return kept
  }
  const second = Math.floor(nowEpochMs / 1000) * 1000
  const published = { deviceId, ...candidate, modifiedAtEpochMs: second }
  const modified = SMIL_FEEDS.select({ fields: ['modifiedAtEpochMs'] })
  const [changed] = await db.query(sql<Pick<PublishedSmil, 'modifiedAtEpochMs'>>`
    insert into ${SMIL_FEEDS.insert(published)}
    on conflict (device_id) do update
      set etag = excluded.etag, body = excluded.body, window_key = excluded.window_key,
        modified_at_epoch_ms = case when smil_feeds.etag = excluded.etag
          then smil_feeds.modified_at_epoch_ms
          else greatest(excluded.modified_at_epoch_ms, smil_feeds.modified_at_epoch_ms + 1000) end
      where smil_feeds.etag <> excluded.etag or smil_feeds.body is null
        or smil_feeds.window_key is distinct from excluded.window_key
    returning ${modified}`)
  const { etag, body } = candidate
  if (changed) return { etag, body, modifiedAtEpochMs: changed.modifiedAtEpochMs }
  const [kept] = await db.query(sql<Pick<PublishedSmil, 'modifiedAtEpochMs'>>`
    select ${modified} from smil_feeds where device_id = ${deviceId}`)
  return { etag, body, modifiedAtEpochMs: kept?.modifiedAtEpochMs ?? second }
}

/** The kind of player a billboard runs, as its reports tell: our web player or a SMIL player's. */
export type PlayerKind = 'web' | 'garlic' | 'iadea' | 'signageos'

export type StoredHeartbeat = {
  deviceId: string
  source: 'web' | 'smil'
  seenAtEpochMs: number
  clockOffsetMs: number | null
  beat: Heartbeat | null
  /** Known from a web heartbeat or a play log; null while a SMIL player only fetched. */
  playerKind: PlayerKind | null
  /** When its last play log came (a SMIL player's), null before the first. */
  playLogAtEpochMs: number | null
}

/**
 * Records a billboard's report: a web player's heartbeat (with its body), a SMIL fetch, or a SMIL
 * player's play log. What a report does not tell (the kind, the last play log) is kept.
 */
export async function saveHeartbeat(
  db: Queryable,
  report: Omit<StoredHeartbeat, 'playerKind' | 'playLogAtEpochMs'> &
    Partial<Pick<StoredHeartbeat, 'playerKind' | 'playLogAtEpochMs'>>,
): Promise<void> {
  const row = {
    ...report,
    playerKind: report.playerKind ?? null,
    playLogAtEpochMs: report.playLogAtEpochMs ?? null,
  }
  await db.query(sql`
    insert into ${HEARTBEATS.insert(row)}
    on conflict (device_id) do update set source = excluded.source,
      seen_at_epoch_ms = greatest(player_heartbeats.seen_at_epoch_ms, excluded.seen_at_epoch_ms),
      clock_offset_ms = coalesce(excluded.clock_offset_ms, player_heartbeats.clock_offset_ms),
      beat = coalesce(excluded.beat, player_heartbeats.beat),
      player_kind = coalesce(excluded.player_kind, player_heartbeats.player_kind),
      play_log_at_epoch_ms = greatest(player_heartbeats.play_log_at_epoch_ms,
        excluded.play_log_at_epoch_ms)`)
}

export function heartbeatsOf(
  db: Queryable,
  deviceIds: readonly string[],
): Promise<StoredHeartbeat[]> {
  if (deviceIds.length === 0) return Promise.resolve([])
  return db.query(sql<StoredHeartbeat>`
    select ${HEARTBEATS.select()} from player_heartbeats
    where device_id in (${joinSql(deviceIds.map((id) => sql`${id}`))})`)
}

export type BillboardReport = Pick<
  StoredHeartbeat,
  'clockOffsetMs' | 'beat' | 'playerKind' | 'playLogAtEpochMs'
> & {
  deviceId: string
  location: string
  city: string
  timeZoneId: string
  coordinates: { lat: number; lng: number }
  source: 'web' | 'smil' | null
  seenAtEpochMs: number | null
}

/**
 * Every billboard of the catalogue (the catalogue's read model) with its last report (nulls before
 * the first), by device id.
 */
export async function billboardReports(db: Queryable): Promise<BillboardReport[]> {
  const boards = await billboards(db)
  const beats = new Map(
    (
      await heartbeatsOf(
        db,
        boards.map((b) => b.deviceId),
      )
    ).map((h) => [h.deviceId, h]),
  )
  return boards.map(({ deviceId, location, city, timeZoneId, coordinates }) => {
    const h = beats.get(deviceId)
    return {
      deviceId,
      location,
      city,
      timeZoneId,
      coordinates,
      source: h?.source ?? null,
      seenAtEpochMs: h?.seenAtEpochMs ?? null,
      clockOffsetMs: h?.clockOffsetMs ?? null,
      beat: h?.beat ?? null,
      playerKind: h?.playerKind ?? null,
      playLogAtEpochMs: h?.playLogAtEpochMs ?? null,
    }
  })
}
