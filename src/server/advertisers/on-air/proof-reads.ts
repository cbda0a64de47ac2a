import type { Queryable } from '../../platform/db/client.ts'
import { sql } from '../../platform/db/sql.ts'
import { AD_PLAYS } from '../columns.ts'

// The proven ad plays for the console's proof-of-play export, a page at a time in the order they
// started (the export streams them). A held play without a proof is not a play that happened.

export type AdProofRow = {
  deviceId: string
  campaignId: string
  contentGuid: string | null
  startEpochMs: number
  endEpochMs: number
  proofPlayId: string | null
  provenAtEpochMs: number
}

const PROOF_FIELDS = [
  'deviceId',
  'campaignId',
  'startEpochMs',
  'proofPlayId',
  'provenAtEpochMs',
] as const

export type AdProofPage = {
  deviceIds: readonly string[] | null
  fromMs: number
  untilMs: number
  /** the last row of the page before (start and billboard), absent for the first page */
  after?: { startEpochMs: number; id: string }
  limit: number
}

export function adProofPage(db: Queryable, page: AdProofPage): Promise<AdProofRow[]> {
  const devices =
    page.deviceIds === null ? sql`true` : sql`a.device_id = any(${[...page.deviceIds]}::text[])`
  const after = page.after
    ? sql`(a.start_epoch_ms, a.device_id) > (${page.after.startEpochMs}::bigint, ${page.after.id})`
    : sql`true`
  return db.query(sql<AdProofRow>`
    select ${AD_PLAYS.select({ from: 'a', fields: PROOF_FIELDS })},
      (select c.content_guid from campaigns c where c.campaign_id = a.campaign_id) as "contentGuid",
      coalesce(a.proof_ended_at_epoch_ms, a.end_epoch_ms)::float8 as "endEpochMs"
    from ad_plays a
    where a.proven_at_epoch_ms is not null and ${devices}
      and a.start_epoch_ms >= ${page.fromMs}::bigint and a.start_epoch_ms < ${page.untilMs}::bigint
      and ${after}
    order by a.start_epoch_ms, a.device_id
    limit ${page.limit}::int`)
}
