import type { Daypart } from '../../../contract/advertisers.ts'
import type { CampaignMove } from '../../../domain/ad-playout.ts'
import type { CampaignState } from '../../../domain/campaign.ts'
import type { CompletionReason } from '../../../domain/campaign-completion.ts'
import type { Queryable } from '../../platform/db/client.ts'
import { iso, json, sql } from '../../platform/db/sql.ts'
import { AD_CONTENTS, CAMPAIGN_HISTORY, CAMPAIGNS } from '../columns.ts'

// The SQL of campaigns, their history, ads and proposals (migration 0015). The ad plays a campaign
// holds are in proposals/repo.ts.

export type CampaignRow = {
  campaignId: string
  accountId: string
  name: string
  budgetCents: number
  currency: string
  startEpochMs: number
  endEpochMs: number
  deviceIds: string[]
  dayparts: Daypart[]
  state: CampaignState
  resumeState: CampaignState | null
  contentGuid: string | null
  rejectionReason: string | null
  completedReason: CompletionReason | null
  checkoutSecretKey: string | null
  spentCents: number
  bookedAtEpochMs: number | null
}

const CAMPAIGN_COLUMNS = CAMPAIGNS.select({
  from: 'c',
  fields: CAMPAIGNS.fields.filter((f) => f !== 'customerId'),
})

export async function insertCampaign(
  db: Queryable,
  campaign: Omit<
    CampaignRow,
    | 'state'
    | 'resumeState'
    | 'contentGuid'
    | 'rejectionReason'
    | 'completedReason'
    | 'checkoutSecretKey'
    | 'spentCents'
    | 'bookedAtEpochMs'
  >,
  nowMs: number,
): Promise<CampaignRow> {
  const at = sql`${iso(nowMs)}::timestamptz`
  const [row] = await db.query(sql<CampaignRow>`
    insert into campaigns as c (campaign_id, account_id, name, budget_cents, currency,
      start_epoch_ms, end_epoch_ms, device_ids, dayparts, state, created_at, updated_at)
    values (${campaign.campaignId}, ${campaign.accountId}, ${campaign.name},
      ${campaign.budgetCents}, ${campaign.currency}, ${campaign.startEpochMs},
      ${campaign.endEpochMs}, ${campaign.deviceIds}::text[], ${campaign.dayparts}::text[], 'Draft',
      ${at}, ${at})
    returning ${CAMPAIGN_COLUMNS}`)
  if (!row) throw new Error('the campaign was not stored')
  await recordState(db, campaign.campaignId, 'Draft', { actor: 'advertiser' }, nowMs)
  return row
}

/** A campaign; `lock`: held until the transaction ends (a change or an acceptance is one step). */
export async function campaignById(
  db: Queryable,
  campaignId: string,
  options: { lock?: boolean } = {},
): Promise<CampaignRow | null> {
  const [row] = await db.query(sql<CampaignRow>`
    select ${CAMPAIGN_COLUMNS} from campaigns c where c.campaign_id = ${campaignId}
    ${options.lock ? sql`for update` : sql``}`)
  return row ?? null
}

export function campaignsOf(db: Queryable, accountId: string): Promise<CampaignRow[]> {
  return db.query(sql<CampaignRow>`
    select ${CAMPAIGN_COLUMNS} from campaigns c where c.account_id = ${accountId}
    order by c.created_at desc, c.campaign_id`)
}

/** Campaigns in these states, oldest booking first (the review queue), or all, newest first. */
export function campaignsIn(
  db: Queryable,
  states: readonly CampaignState[] | null,
  limit: number,
): Promise<(CampaignRow & { accountEmail: string; company: string })[]> {
  const where = states ? sql`c.state = any(${[...states]}::text[])` : sql`true`
  const order = states ? sql`c.booked_at nulls last, c.created_at` : sql`c.created_at desc`
  return db.query(sql<CampaignRow & { accountEmail: string; company: string }>`
    select ${CAMPAIGN_COLUMNS}, a.email as "accountEmail", a.company
    from campaigns c join advertiser_accounts a on a.account_id = c.account_id
    where ${where} order by ${order} limit ${limit}`)
}

export type CampaignChange = Partial<
  Pick<
    CampaignRow,
    'name' | 'budgetCents' | 'currency' | 'startEpochMs' | 'endEpochMs' | 'deviceIds' | 'dayparts'
  >
>

/** Writes the changed fields (the caller checked they may change). */
export async function updateCampaign(
  db: Queryable,
  campaignId: string,
  change: CampaignChange,
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    update campaigns set
      name = coalesce(${change.name ?? null}::text, name),
      budget_cents = coalesce(${change.budgetCents ?? null}::bigint, budget_cents),
      currency = coalesce(${change.currency ?? null}::text, currency),
      start_epoch_ms = coalesce(${change.startEpochMs ?? null}::bigint, start_epoch_ms),
      end_epoch_ms = coalesce(${change.endEpochMs ?? null}::bigint, end_epoch_ms),
      device_ids = coalesce(${change.deviceIds ?? null}::text[], device_ids),
      dayparts = coalesce(${change.dayparts ?? null}::text[], dayparts),
      updated_at = ${iso(nowMs)}::timestamptz
    where campaign_id = ${campaignId}`)
}

export type StateChange = {
  actor: 'advertiser' | 'operator' | 'system'
  operatorId?: string | null
  reason?: string | null
}

async function recordState(
  db: Queryable,
  campaignId: string,
  state: CampaignState,
  change: StateChange,
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into campaign_state_history (campaign_id, state, at, actor, operator_id, reason)
    values (${campaignId}, ${state}, ${iso(nowMs)}::timestamptz, ${change.actor},
      ${change.operatorId ?? null}, ${change.reason ?? null})`)
}

/**
 * Moves the campaign to a state (with its history row) only when it is in one of `from`: a state
 * changed meanwhile by someone else is not overwritten. True when it moved.
 */
export async function moveCampaign(
  db: Queryable,
  campaignId: string,
  move: {
    from: readonly CampaignState[]
    to: CampaignState
    resumeState?: CampaignState | null
    rejectionReason?: string
    completedReason?: CompletionReason
    card?: { checkoutSecretKey: string; customerId: string }
    reviewedBy?: string
  },
  change: StateChange,
  nowMs: number,
): Promise<boolean> {
  const at = sql`${iso(nowMs)}::timestamptz`
  const rows = await db.query(sql`
    update campaigns set state = ${move.to}, updated_at = ${at},
      resume_state = ${move.resumeState ?? null}::text,
      rejection_reason = coalesce(${move.rejectionReason ?? null}::text, rejection_reason),
      completed_reason = coalesce(${move.completedReason ?? null}::text, completed_reason),
      checkout_secret_key = coalesce(${move.card?.checkoutSecretKey ?? null}::text,
        checkout_secret_key),
      customer_id = coalesce(${move.card?.customerId ?? null}::text, customer_id),
      booked_at = case when ${move.to} = 'Booked' then ${at} else booked_at end,
      reviewed_at = case when ${move.reviewedBy ?? null}::text is null then reviewed_at
        else ${at} end,
      reviewed_by = coalesce(${move.reviewedBy ?? null}::text, reviewed_by)
    where campaign_id = ${campaignId} and state = any(${[...move.from]}::text[])
    returning campaign_id`)
  if (rows.length === 0) return false
  await recordState(db, campaignId, move.to, change, nowMs)
  return true
}

export type StateHistoryRow = {
  state: CampaignState
  atEpochMs: number
  actor: string
  operatorId: string | null
  reason: string | null
}

export function stateHistory(db: Queryable, campaignId: string): Promise<StateHistoryRow[]> {
  return db.query(sql<StateHistoryRow>`
    select ${CAMPAIGN_HISTORY.select({ fields: ['state', 'atEpochMs', 'actor', 'operatorId', 'reason'] })}
    from campaign_state_history where campaign_id = ${campaignId} order by id`)
}

/** Each campaign's moves, oldest first, by campaign (a proof checks what its play's time saw). */
export async function movesOf(
  db: Queryable,
  campaignIds: readonly string[],
): Promise<Map<string, CampaignMove[]>> {
  const rows = await db.query(sql<CampaignMove & { campaignId: string }>`
    select ${CAMPAIGN_HISTORY.select({ fields: ['campaignId', 'state', 'atEpochMs'] })}
    from campaign_state_history where campaign_id = any(${[...campaignIds]}::text[])
    order by campaign_id, id`)
  const moves = new Map<string, CampaignMove[]>()
  for (const { campaignId, ...move } of rows) {
    const list = moves.get(campaignId) ?? []
    list.push(move)
    moves.set(campaignId, list)
  }
  return moves
}

/** The reason each campaign's latest move to Paused gave, by campaign (those never paused: none). */
export async function pauseReasons(
  db: Queryable,
  campaignIds: readonly string[],
): Promise<Map<string, string | null>> {
  const rows = await db.query(sql<{ campaignId: string; reason: string | null }>`
    select distinct on (campaign_id) ${CAMPAIGN_HISTORY.select({ fields: ['campaignId', 'reason'] })}
    from campaign_state_history
    where campaign_id = any(${[...campaignIds]}::text[]) and state = 'Paused'
    order by campaign_id, id desc`)
  return new Map(rows.map((r) => [r.campaignId, r.reason]))
}

// ---------- ads ----------

export type Rendition = {
  key: string
  url: string
  flagged: boolean
  flagReasons: string[]
  /** What a billboard's schedule says of it (kept since ads go on air; older ones: by the file). */
  type?: 'photo' | 'video'
  durationSeconds?: number | null
}

export type AdContentRow = {
  contentGuid: string
  campaignId: string
  accountId: string
  uploadId: string
  /** By "WIDTHxHEIGHT". */
  renditions: Record<string, Rendition>
  /** Why a rendition could not be made (a problem), or null. */
  error: { code: string; params?: Record<string, string | number> } | null
}

const AD_COLUMNS = AD_CONTENTS.select({ from: 'a' })

/** A new ad for the campaign; the campaign names it from now on. */
export async function insertAdContent(
  db: Queryable,
  ad: Pick<AdContentRow, 'contentGuid' | 'campaignId' | 'accountId' | 'uploadId'>,
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into ad_contents (content_guid, campaign_id, account_id, upload_id, created_at)
    values (${ad.contentGuid}, ${ad.campaignId}, ${ad.accountId}, ${ad.uploadId},
      ${iso(nowMs)}::timestamptz)`)
  await db.query(sql`
    update campaigns set content_guid = ${ad.contentGuid}, updated_at = ${iso(nowMs)}::timestamptz
    where campaign_id = ${ad.campaignId}`)
}

export async function adContentByGuid(
  db: Queryable,
  contentGuid: string,
): Promise<AdContentRow | null> {
  const [row] = await db.query(sql<AdContentRow>`
    select ${AD_COLUMNS} from ad_contents a where a.content_guid = ${contentGuid}`)
  return row ?? null
}

/** Keeps a rendition unless one of that size is there already (two makers at once: one kept). */
export async function addRendition(
  db: Queryable,
  contentGuid: string,
  size: string,
  rendition: Rendition,
): Promise<boolean> {
  const rows = await db.query(sql`
    update ad_contents set renditions = renditions || jsonb_build_object(${size}::text,
      ${json(rendition)}::jsonb)
    where content_guid = ${contentGuid} and not renditions ? ${size}
    returning content_guid`)
  return rows.length > 0
}

export async function setAdError(
  db: Queryable,
  contentGuid: string,
  error: AdContentRow['error'],
): Promise<void> {
  await db.query(sql`
    update ad_contents set error = ${error === null ? null : json(error)}::jsonb
    where content_guid = ${contentGuid}`)
}

/**
 * The ads that campaigns still running name, with their campaign's billboards, oldest first: the
 * `ad-renditions` job's candidates (it asks the catalogue for the sizes each one needs).
 */
export function adsOfActiveCampaigns(
  db: Queryable,
): Promise<(AdContentRow & { deviceIds: string[] })[]> {
  return db.query(sql<AdContentRow & { deviceIds: string[] }>`
    select ${AD_COLUMNS}, ${CAMPAIGNS.select({ from: 'c', fields: ['deviceIds'] })}
    from ad_contents a join campaigns c on c.content_guid = a.content_guid
    where a.error is null and c.state in ('Draft', 'Proposed', 'Booked', 'Approved', 'Live', 'Paused')
    order by a.created_at`)
}

/** Whether a campaign already books with this checkout (one campaign per saved card form). */
export async function checkoutUsed(db: Queryable, checkoutSecretKey: string): Promise<boolean> {
  const rows = await db.query(sql`
    select 1 as x from campaigns where checkout_secret_key = ${checkoutSecretKey}`)
  return rows.length > 0
}

/** The campaign's card: the checkout of a new SetupIntent replaces the one it was booked with. */
export async function setCard(
  db: Queryable,
  campaignId: string,
  card: { checkoutSecretKey: string; customerId: string },
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    update campaigns set checkout_secret_key = ${card.checkoutSecretKey},
      customer_id = ${card.customerId}, updated_at = ${iso(nowMs)}::timestamptz
    where campaign_id = ${campaignId}`)
}
