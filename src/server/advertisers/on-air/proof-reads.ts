import type { Queryable } from '../../platform/db/client.ts'
import { sql } from '../../platform/db/sql.ts'

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
    select a.device_id as "deviceId", a.campaign_id as "campaignId",
      (select c.content_guid from campaigns c where c.campaign_id = a.campaign_id) as "contentGuid",
      a.start_epoch_ms::float8 as "startEpochMs",
      coalesce(a.proof_ended_at_epoch_ms, a.end_epoch_ms)::float8 as "endEpochMs",
      a.proof_play_id as "proofPlayId", a.proven_at_epoch_ms::float8 as "provenAtEpochMs"
    from ad_plays a
    where a.proven_at_epoch_ms is not null and ${devices}
      and a.start_epoch_ms >= ${page.fromMs}::bigint and a.start_epoch_ms < ${page.untilMs}::bigint
      and ${after}
    order by a.start_epoch_ms, a.device_id
    limit ${page.limit}::int`)
}
