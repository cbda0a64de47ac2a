import { contentKeyOf } from '../order/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'
import { PLAYS } from './columns.ts'

// The proofs of play of sold shouts for the console's export, a page at a time in the order they
// started (the export streams them: a month of a fleet never sits in memory at once). Each play is
// stored once (plays_one_per_play), so each is written once.

export type ShoutProofRow = {
  playId: string
  deviceId: string
  orderGuid: string
  contentKey: string | null
  startedAtEpochMs: number
  endedAtEpochMs: number
  receivedAtEpochMs: number
}

const SHOUT_PROOF_FIELDS = [
  'playId',
  'deviceId',
  'orderGuid',
  'startedAtEpochMs',
  'endedAtEpochMs',
  'receivedAtEpochMs',
] as const

export type ProofPage = {
  /** only these billboards; null: every one */
  deviceIds: readonly string[] | null
  fromMs: number
  untilMs: number
  /** the last row of the page before (start and play id), absent for the first page */
  after?: { startEpochMs: number; id: string }
  limit: number
}

export function shoutProofPage(db: Queryable, page: ProofPage): Promise<ShoutProofRow[]> {
  const devices =
    page.deviceIds === null ? sql`true` : sql`p.device_id = any(${[...page.deviceIds]}::text[])`
  const after = page.after
    ? sql`(p.started_at_epoch_ms, p.play_id) > (${page.after.startEpochMs}::bigint, ${page.after.id})`
    : sql`true`
  return db.query(sql<ShoutProofRow>`
    select ${PLAYS.select({ from: 'p', fields: SHOUT_PROOF_FIELDS })},
      ${contentKeyOf(sql`p.order_guid`)} as "contentKey"
    from plays p
    where ${devices} and p.started_at_epoch_ms >= ${page.fromMs}::bigint
      and p.started_at_epoch_ms < ${page.untilMs}::bigint and ${after}
    order by p.started_at_epoch_ms, p.play_id
    limit ${page.limit}::int`)
}

/** A billboard's newest proofs of sold plays (the console's billboard page), newest first. */
export function newestShoutProofs(
  db: Queryable,
  deviceId: string,
  limit: number,
): Promise<Omit<ShoutProofRow, 'contentKey' | 'deviceId'>[]> {
  return db.query(sql<Omit<ShoutProofRow, 'contentKey' | 'deviceId'>>`
    select ${PLAYS.select({ from: 'p', fields: SHOUT_PROOF_FIELDS.filter((f) => f !== 'deviceId') })}
    from plays p where p.device_id = ${deviceId}
    order by p.started_at_epoch_ms desc, p.play_id desc
    limit ${limit}::int`)
}
