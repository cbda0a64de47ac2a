import type { CampaignState } from '../../../domain/campaign.ts'
import type { Queryable } from '../../platform/db/client.ts'
import { iso, sql } from '../../platform/db/sql.ts'
import { AD_CHARGES, AD_PLAYS, CAMPAIGNS } from '../columns.ts'

// The daily charges of campaigns' proven plays (ad_charges, migration 0027_ad_settlement).

/** Campaigns with a proven play not charged yet, or a charge not settled yet. */
export async function campaignsToSettle(
  db: Queryable,
  after: string,
  limit: number,
): Promise<string[]> {
  const rows = await db.query(sql<{ campaignId: string }>`
    select ${AD_CHARGES.select({ fields: ['campaignId'] })} from (
      select distinct campaign_id from ad_plays
        where proven_at_epoch_ms is not null and charge_day is null
      union
      select campaign_id from ad_charges where status = 'pending'
    ) c where campaign_id > ${after} order by campaign_id limit ${limit}`)
  return rows.map((r) => r.campaignId)
}

export type UnchargedPlay = { deviceId: string; startEpochMs: number; costCents: number }

export async function unchargedPlays(db: Queryable, campaignId: string): Promise<UnchargedPlay[]> {
  const rows = await db.query(sql<UnchargedPlay>`
    select ${AD_PLAYS.select({ fields: ['deviceId', 'startEpochMs', 'costCents'] })}
    from ad_plays
    where campaign_id = ${campaignId} and proven_at_epoch_ms is not null and charge_day is null`)
  return rows.map((r) => ({ ...r, startEpochMs: Number(r.startEpochMs) }))
}

/** What the campaign's charges take, the failed ones excepted (they took nothing). */
export async function chargedCents(db: Queryable, campaignId: string): Promise<number> {
  const [row] = await db.query(sql<{ cents: number }>`
    select coalesce(sum(amount_cents), 0)::float8 as cents from ad_charges
    where campaign_id = ${campaignId} and status <> 'failed'`)
  return Number(row?.cents ?? 0)
}

/**
 * What the campaign owes beyond its spent money: its charges not settled yet and its proven plays
 * not yet in a charge (a lowered budget must still pay them).
 */
export async function owedCents(db: Queryable, campaignId: string): Promise<number> {
  const [row] = await db.query(sql<{ cents: number }>`
    select (coalesce((select sum(amount_cents) from ad_charges
        where campaign_id = ${campaignId} and status = 'pending'), 0)
      + coalesce((select sum(cost_cents) from ad_plays where campaign_id = ${campaignId}
        and proven_at_epoch_ms is not null and charge_day is null), 0))::float8 as cents`)
  return Number(row?.cents ?? 0)
}

/** The day is charged once: its plays name it whether or not the day already had a charge. */
export async function addCharge(
  db: Queryable,
  charge: Omit<AdChargeRow, 'status' | 'paymentId'>,
  starts: readonly { deviceId: string; startEpochMs: number }[],
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into ad_charges (campaign_id, day, idempotency_key, plays, amount_cents, currency,
      status, created_at)
    values (${charge.campaignId}, ${charge.day}, ${charge.key}, ${charge.plays},
      ${charge.amountCents}, ${charge.currency}, 'pending', ${iso(nowMs)}::timestamptz)
    on conflict (campaign_id, day) do nothing`)
  await db.query(sql`
    update ad_plays p set charge_day = ${charge.day}
    from unnest(${starts.map((s) => s.deviceId)}::text[],
      ${starts.map((s) => s.startEpochMs)}::bigint[]) as q(device_id, start_ms)
    where p.device_id = q.device_id and p.start_epoch_ms = q.start_ms
      and p.campaign_id = ${charge.campaignId}`)
}

/** A campaign's day of proven plays, charged once under its key, as AD_CHARGES reads it. */
export type AdChargeRow = {
  campaignId: string
  day: string
  key: string
  plays: number
  amountCents: number
  currency: string
  status: ChargeStatus
  paymentId: string | null
}

/** What charging a day needs. */
export type ChargeRow = Pick<AdChargeRow, 'campaignId' | 'day' | 'key' | 'amountCents' | 'currency'>

const CHARGE_COLUMNS = AD_CHARGES.select({
  fields: ['campaignId', 'day', 'key', 'amountCents', 'currency'],
})

export function pendingCharges(db: Queryable, campaignId: string): Promise<ChargeRow[]> {
  return db.query(sql<ChargeRow>`
    select ${CHARGE_COLUMNS}
    from ad_charges where campaign_id = ${campaignId} and status = 'pending' order by day`)
}

/**
 * Settles a pending charge: charged (the campaign's spent money grows by it, in the same statement,
 * once) or failed. False when it was settled already (another run got there first).
 */
export async function settleCharge(
  db: Queryable,
  charge: ChargeRow,
  outcome: { charged: true; paymentId: string } | { charged: false; error: unknown },
  nowMs: number,
): Promise<boolean> {
  const rows = await db.query(sql`
    with settled as (
      update ad_charges set status = ${outcome.charged ? 'charged' : 'failed'},
        payment_id = ${outcome.charged ? outcome.paymentId : null}::text,
        error = ${outcome.charged ? null : JSON.stringify(outcome.error)}::jsonb,
        settled_at = ${iso(nowMs)}::timestamptz
      where campaign_id = ${charge.campaignId} and day = ${charge.day} and status = 'pending'
      returning amount_cents, status
    )
    update campaigns c set spent_cents = c.spent_cents + coalesce((
      select amount_cents from settled where status = 'charged'), 0)
    where c.campaign_id = ${charge.campaignId} and exists (select 1 from settled)
    returning c.campaign_id`)
  return rows.length > 0
}

export async function customerOf(db: Queryable, campaignId: string): Promise<string | null> {
  const [row] = await db.query(sql<{ customerId: string | null }>`
    select ${CAMPAIGNS.select({ fields: ['customerId'] })} from campaigns where campaign_id = ${campaignId}`)
  return row?.customerId ?? null
}

export type ChargeStatus = 'pending' | 'charged' | 'failed'

/** The campaign's charges, by day (the console and the tests read them). */
export function chargesOf(
  db: Queryable,
  campaignId: string,
): Promise<(ChargeRow & Pick<AdChargeRow, 'status' | 'plays'>)[]> {
  return db.query(sql<ChargeRow & Pick<AdChargeRow, 'status' | 'plays'>>`
    select ${CHARGE_COLUMNS}, ${AD_CHARGES.select({ fields: ['status', 'plays'] })}
    from ad_charges where campaign_id = ${campaignId} order by day`)
}

/** What decides whether a campaign on air is over (src/domain/campaign-completion.ts). */
export type OnAirFacts = {
  campaignId: string
  state: CampaignState
  endEpochMs: number
  budgetCents: number
  deviceIds: string[]
  provenCents: number
  cheapestPlayCents: number | null
  unsettled: boolean
}

const ON_AIR_FIELDS = ['campaignId', 'state', 'endEpochMs', 'budgetCents', 'deviceIds'] as const

/** Campaigns approved or live, a page at a time, with what their plays and charges stand at. */
export async function campaignsOnAir(
  db: Queryable,
  after: string,
  limit: number,
): Promise<OnAirFacts[]> {
  const rows = await db.query(sql<OnAirFacts>`
    select ${CAMPAIGNS.select({ from: 'c', fields: ON_AIR_FIELDS })},
      (coalesce((select sum(amount_cents) from ad_charges h
          where h.campaign_id = c.campaign_id and h.status <> 'failed'), 0)
        + coalesce(p.uncharged, 0))::float8 as "provenCents",
      p.cheapest::float8 as "cheapestPlayCents",
      (coalesce(p.uncharged_plays, 0) > 0 or exists (select 1 from ad_charges h
        where h.campaign_id = c.campaign_id and h.status = 'pending')) as unsettled
    from campaigns c
    left join lateral (
      select min(cost_cents) as cheapest,
        sum(cost_cents) filter (where proven_at_epoch_ms is not null and charge_day is null)
          as uncharged,
        count(*) filter (where proven_at_epoch_ms is not null and charge_day is null)
          as uncharged_plays
      from ad_plays a where a.campaign_id = c.campaign_id) p on true
    where c.state in ('Approved', 'Live') and c.campaign_id > ${after}
    order by c.campaign_id limit ${limit}`)
  return rows.map((r) => ({
    ...r,
    endEpochMs: Number(r.endEpochMs),
    budgetCents: Number(r.budgetCents),
    provenCents: Number(r.provenCents),
    cheapestPlayCents: r.cheapestPlayCents === null ? null : Number(r.cheapestPlayCents),
  }))
}

/** A charged day's plays per billboard (the receipt's lines). */
export function chargedDayLines(
  db: Queryable,
  campaignId: string,
  day: string,
): Promise<{ deviceId: string; plays: number; impressions: number; costCents: number }[]> {
  return db.query(sql<{ deviceId: string; plays: number; impressions: number; costCents: number }>`
    select ${AD_PLAYS.select({ fields: ['deviceId'] })}, count(*)::int as plays,
      coalesce(sum(impressions), 0)::int as impressions,
      coalesce(sum(cost_cents), 0)::float8 as "costCents"
    from ad_plays where campaign_id = ${campaignId} and charge_day = ${day}
    group by device_id order by device_id`)
}

/**
 * The campaign's declined days, pending again under their key for the new card (`keyOf`): the next
 * settlement charges each once. Days tried on this card already keep their outcome.
 */
export async function retryDeclinedDays(
  db: Queryable,
  campaignId: string,
  keyOf: (day: string) => string,
): Promise<string[]> {
  const declined = await db.query(sql<{ day: string }>`
    select day from ad_charges where campaign_id = ${campaignId} and status = 'failed'
    order by day for update`)
  const retried: string[] = []
  for (const { day } of declined) {
    const rows = await db.query(sql`
      update ad_charges set status = 'pending', idempotency_key = ${keyOf(day)}, error = null,
        payment_id = null, settled_at = null
      where campaign_id = ${campaignId} and day = ${day} and status = 'failed'
        and idempotency_key <> ${keyOf(day)}
      returning day`)
    if (rows.length > 0) retried.push(day)
  }
  return retried
}

/** Charged days whose receipt is not in the outbox yet, oldest first. */
export function receiptsDue(db: Queryable, limit: number): Promise<ChargeRow[]> {
  return db.query(sql<ChargeRow>`
    select ${CHARGE_COLUMNS}
    from ad_charges where status = 'charged' and receipt_queued_at is null
    order by settled_at, campaign_id, day limit ${limit}`)
}

export async function markReceiptQueued(
  db: Queryable,
  charge: { campaignId: string; day: string },
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    update ad_charges set receipt_queued_at = ${iso(nowMs)}::timestamptz
    where campaign_id = ${charge.campaignId} and day = ${charge.day}`)
}
