import { AD_PLAY_MS } from '../../../domain/ad-time.ts'
import type { CampaignState } from '../../../domain/campaign.ts'
import type { Queryable } from '../../platform/db/client.ts'
import { iso, json, sql } from '../../platform/db/sql.ts'
import type { Rendition } from '../campaigns/repo.ts'
import { AD_PLAYS, PROPOSALS } from '../columns.ts'

// The ad plays campaigns hold (ad_plays, migration 0015): one row a play, keyed by billboard and
// start, so a time is sold once whatever the instances (docs/decisions/023).

export type NewPlay = {
  deviceId: string
  startEpochMs: number
  endEpochMs: number
  costCents: number
  impressions: number
}

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
    select ${AD_PLAYS.select({ fields: ['deviceId', 'startEpochMs'] })} from ad_plays
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
    select ${AD_PLAYS.select({ fields: ['campaignId'] })}, count(*)::int as "scheduledPlays",
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
    select ${AD_PLAYS.select({ fields: ['deviceId', 'startEpochMs', 'costCents', 'impressions'] })},
      proven_at_epoch_ms is not null as proven
    from ad_plays where campaign_id = ${campaignId} order by start_epoch_ms, device_id`)
}

/** The campaign's plays that begin at `fromMs` or later, soonest first, `limit` at most. */
export function playsFrom(
  db: Queryable,
  campaignId: string,
  fromMs: number,
  limit: number,
): Promise<{ deviceId: string; startEpochMs: number }[]> {
  return db.query(sql<{ deviceId: string; startEpochMs: number }>`
    select ${AD_PLAYS.select({ fields: ['deviceId', 'startEpochMs'] })}
    from ad_plays where campaign_id = ${campaignId} and start_epoch_ms >= ${fromMs}
    order by start_epoch_ms, device_id limit ${limit}`)
}

export type HeldPlayRow = {
  campaignId: string
  startEpochMs: number
  endEpochMs: number
  state: CampaignState
  proven: boolean
  /** The campaign's ad at the size asked for, if it has one. */
  rendition: Rendition | null
}

/**
 * The plays held on the billboard that run in [fromMs, toMs) (one begun before `fromMs` included),
 * with their campaign's state and, given a size ("WIDTHxHEIGHT"), its ad's rendition of that size.
 */
export async function heldPlaysOf(
  db: Queryable,
  deviceId: string,
  size: string | null,
  fromMs: number,
  toMs: number,
): Promise<HeldPlayRow[]> {
  const rows = await db.query(sql<HeldPlayRow>`
    select ${AD_PLAYS.select({ from: 'p', fields: ['campaignId', 'startEpochMs', 'endEpochMs'] })},
      c.state, p.proven_at_epoch_ms is not null as proven,
      case when ${size}::text is null then null else a.renditions -> ${size}::text end as rendition
    from ad_plays p
      join campaigns c on c.campaign_id = p.campaign_id
      left join ad_contents a on a.content_guid = c.content_guid
    where p.device_id = ${deviceId} and p.start_epoch_ms > ${fromMs - AD_PLAY_MS}
      and p.start_epoch_ms < ${toMs}
    order by p.start_epoch_ms`)
  return rows.map((r) => ({
    ...r,
    startEpochMs: Number(r.startEpochMs),
    endEpochMs: Number(r.endEpochMs),
  }))
}

/** A player's proof of an ad play (api-v1 `Play` with `campaignId`). */
export type AdProof = {
  playId: string
  campaignId: string
  playIndex: number
  startedAtEpochMs: number
  endedAtEpochMs: number
}

/**
 * Marks the plays proven, each only if its campaign holds it on this billboard and it is not proven
 * yet (so a proof counts once, whatever the requests racing); answers the campaign of each play
 * it proved.
 */
export async function proveAdPlays(
  db: Queryable,
  deviceId: string,
  proofs: readonly AdProof[],
  nowMs: number,
): Promise<string[]> {
  if (proofs.length === 0) return []
  const rows = await db.query(sql<{ campaignId: string }>`
    update ad_plays p set proven_at_epoch_ms = q.started, proof_play_id = q.play_id,
      proof_ended_at_epoch_ms = q.ended, proof_received_at = ${iso(nowMs)}::timestamptz
    from unnest(${proofs.map((x) => x.playId)}::text[],
      ${proofs.map((x) => x.campaignId)}::text[],
      ${proofs.map((x) => x.playIndex * AD_PLAY_MS)}::bigint[],
      ${proofs.map((x) => x.startedAtEpochMs)}::bigint[],
      ${proofs.map((x) => x.endedAtEpochMs)}::bigint[]) as q(play_id, campaign_id, start_ms, started, ended)
    where p.device_id = ${deviceId} and p.start_epoch_ms = q.start_ms
      and p.campaign_id = q.campaign_id and p.proven_at_epoch_ms is null
    returning ${AD_PLAYS.select({ from: 'p', fields: ['campaignId'] })}`)
  return rows.map((r) => r.campaignId)
}

/** A campaign paused before its first proven play resumes as Live. */
export async function markResumeLive(db: Queryable, campaignId: string): Promise<void> {
  await db.query(sql`
    update campaigns set resume_state = 'Live'
    where campaign_id = ${campaignId} and state = 'Paused' and resume_state = 'Approved'`)
}

/** Campaigns on air with a play unproven since before `beforeMs` (pacing's candidates). */
export async function campaignsWithMissedPlays(
  db: Queryable,
  beforeMs: number,
  after: string,
  limit: number,
): Promise<string[]> {
  const rows = await db.query(sql<{ campaignId: string }>`
    select distinct ${AD_PLAYS.select({ from: 'p', fields: ['campaignId'] })} from ad_plays p
      join campaigns c on c.campaign_id = p.campaign_id
    where p.proven_at_epoch_ms is null and p.start_epoch_ms <= ${beforeMs}
      and c.state in ('Approved', 'Live') and p.campaign_id > ${after}
    order by p.campaign_id limit ${limit}`)
  return rows.map((r) => r.campaignId)
}

/** Frees these plays of the campaign if still unproven (pacing gave them up); how many. */
export async function releaseMissed(
  db: Queryable,
  campaignId: string,
  plays: readonly { deviceId: string; startEpochMs: number }[],
): Promise<number> {
  if (plays.length === 0) return 0
  const rows = await db.query(sql`
    delete from ad_plays p
    using unnest(${plays.map((x) => x.deviceId)}::text[],
      ${plays.map((x) => x.startEpochMs)}::bigint[]) as q(device_id, start_ms)
    where p.device_id = q.device_id and p.start_epoch_ms = q.start_ms
      and p.campaign_id = ${campaignId} and p.proven_at_epoch_ms is null
    returning 1 as x`)
  return rows.length
}

// ---------- proposals ----------

export type ProposalLine = {
  deviceId: string
  plays: number[]
  impressions: number
  costCents: number
  costCentsPerPlay: number
  impressionsPerPlay: number
}

export type ProposalRow = {
  proposalGuid: string
  campaignId: string
  validUntilEpochMs: number
  currency: string
  lines: ProposalLine[]
  totalPlays: number
  totalImpressions: number
  totalCents: number
  status: 'open' | 'accepted' | 'void'
}

const PROPOSAL_COLUMNS = PROPOSALS.select()

/** A new open proposal; the campaign's older open ones are void. */
export async function insertProposal(
  db: Queryable,
  proposal: Omit<ProposalRow, 'status'>,
  nowMs: number,
): Promise<void> {
  await voidProposals(db, proposal.campaignId)
  await db.query(sql`
    insert into proposals (proposal_guid, campaign_id, created_at, valid_until_epoch_ms, currency,
      lines, total_plays, total_impressions, total_cents)
    values (${proposal.proposalGuid}, ${proposal.campaignId}, ${iso(nowMs)}::timestamptz,
      ${proposal.validUntilEpochMs}, ${proposal.currency}, ${json(proposal.lines)}::jsonb,
      ${proposal.totalPlays}, ${proposal.totalImpressions}, ${proposal.totalCents})`)
}

export async function voidProposals(db: Queryable, campaignId: string): Promise<void> {
  await db.query(sql`
    update proposals set status = 'void' where campaign_id = ${campaignId} and status = 'open'`)
}

export async function proposalByGuid(
  db: Queryable,
  proposalGuid: string,
  options: { lock?: boolean } = {},
): Promise<ProposalRow | null> {
  const [row] = await db.query(sql<ProposalRow>`
    select ${PROPOSAL_COLUMNS} from proposals where proposal_guid = ${proposalGuid}
    ${options.lock ? sql`for update` : sql``}`)
  return row ?? null
}

export async function openProposalOf(db: Queryable, campaignId: string): Promise<string | null> {
  const [row] = await db.query(sql<{ proposalGuid: string }>`
    select ${PROPOSALS.select({ fields: ['proposalGuid'] })} from proposals
    where campaign_id = ${campaignId} and status = 'open' limit 1`)
  return row?.proposalGuid ?? null
}

export async function markProposalAccepted(db: Queryable, proposalGuid: string): Promise<void> {
  await db.query(
    sql`update proposals set status = 'accepted' where proposal_guid = ${proposalGuid}`,
  )
}
