import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'

// The ad plays campaigns hold (ad_plays, migration 0015): one row a play, keyed by billboard and
// start, so a time is sold once whatever the instances (docs/decisions/023).

export type NewPlay = {
  deviceId: string
  startEpochMs: number
  endEpochMs: number
  costCents: number
  impressions: number
}

const iso = (epochMs: number) => new Date(epochMs).toISOString()

/**
 * Reserves the plays for the campaign, each unless its time is held already; answers how many it
 * reserved. In a transaction, a start another transaction is reserving waits for it to end.
 */
export async function reservePlays(
  db: Queryable,
  campaignId: string,
  plays: readonly NewPlay[],
  nowMs: number,
): Promise<number> {
  if (plays.length === 0) return 0
  // one order for every transaction (billboard, then start): two reserving the same times wait for
  // each other instead of locking each other out (a deadlock)
  const sorted = [...plays].sort(
    (a, b) => a.deviceId.localeCompare(b.deviceId) || a.startEpochMs - b.startEpochMs,
  )
  const rows = await db.query(sql`
    insert into ad_plays (device_id, start_epoch_ms, end_epoch_ms, campaign_id, cost_cents,
      impressions, reserved_at)
    select p.device_id, p.start_ms, p.end_ms, ${campaignId}, p.cost, p.impressions,
      ${iso(nowMs)}::timestamptz
    from unnest(${sorted.map((p) => p.deviceId)}::text[],
      ${sorted.map((p) => p.startEpochMs)}::bigint[], ${sorted.map((p) => p.endEpochMs)}::bigint[],
      ${sorted.map((p) => p.costCents)}::int[], ${sorted.map((p) => p.impressions)}::int[])
      with ordinality as p(device_id, start_ms, end_ms, cost, impressions, n)
    order by p.n
    on conflict (device_id, start_epoch_ms) do nothing
    returning 1 as x`)
  return rows.length
}

/** The starts held on these billboards in [fromMs, toMs), by billboard. */
export async function heldStarts(
  db: Queryable,
  deviceIds: readonly string[],
  fromMs: number,
  toMs: number,
): Promise<Map<string, Set<number>>> {
  const rows = await db.query(sql<{ deviceId: string; startEpochMs: number }>`
    select device_id as "deviceId", start_epoch_ms as "startEpochMs" from ad_plays
    where device_id = any(${[...deviceIds]}::text[])
      and start_epoch_ms >= ${fromMs} and start_epoch_ms < ${toMs}`)
  const held = new Map<string, Set<number>>(deviceIds.map((id) => [id, new Set<number>()]))
  for (const row of rows) held.get(row.deviceId)?.add(Number(row.startEpochMs))
  return held
}

/** Frees the campaign's plays from `fromMs` on (all of them with 0); answers how many. */
export async function releasePlays(
  db: Queryable,
  campaignId: string,
  fromMs: number,
): Promise<number> {
  const rows = await db.query(sql`
    delete from ad_plays where campaign_id = ${campaignId} and start_epoch_ms >= ${fromMs}
      and proven_at_epoch_ms is null
    returning 1 as x`)
  return rows.length
}

export type PlayTotals = {
  campaignId: string
  scheduledPlays: number
  provenPlays: number
  /** What the plays still to come cost (reserved, starting from now). */
  committedCents: number
}

/** The plays and the money each campaign holds, at `nowMs`. */
export async function playTotals(
  db: Queryable,
  campaignIds: readonly string[],
  nowMs: number,
): Promise<Map<string, PlayTotals>> {
  const rows = await db.query(sql<PlayTotals>`
    select campaign_id as "campaignId", count(*)::int as "scheduledPlays",
      count(proven_at_epoch_ms)::int as "provenPlays",
      coalesce(sum(cost_cents) filter (where start_epoch_ms >= ${nowMs}
        and proven_at_epoch_ms is null), 0)::float8 as "committedCents"
    from ad_plays where campaign_id = any(${[...campaignIds]}::text[])
    group by campaign_id`)
  return new Map(
    rows.map((r) => [r.campaignId, { ...r, committedCents: Number(r.committedCents) }]),
  )
}

export type PlayRow = {
  deviceId: string
  startEpochMs: number
  costCents: number
  impressions: number
  proven: boolean
}

export function playsOf(db: Queryable, campaignId: string): Promise<PlayRow[]> {
  return db.query(sql<PlayRow>`
    select device_id as "deviceId", start_epoch_ms as "startEpochMs", cost_cents as "costCents",
      impressions, proven_at_epoch_ms is not null as proven
    from ad_plays where campaign_id = ${campaignId} order by start_epoch_ms, device_id`)
}
