import { randomUUID } from 'node:crypto'
import {
  type Campaign,
  type CampaignDraft,
  type CampaignPatch,
  NEXT_PLAYS_SHOWN,
  type NextPlays,
  type Report,
} from '../../../contract/advertisers.ts'
import { type Problem, type ProblemCode, problem } from '../../../contract/problems.ts'
import {
  budgetProblem,
  type CampaignState,
  type FlightProblemCode,
  flightProblem,
  holdsPlays,
  mayCancel,
  mayChangeSchedule,
  mayPause,
  mayResume,
  pauseReasonOf,
} from '../../../domain/campaign.ts'
import { type AdBillboard, adBillboards } from '../../catalogue/ad-reads.ts'
import type { Database, Queryable } from '../../platform/db/client.ts'
import { err, ok, type Result } from '../../platform/result.ts'
import { owedCents } from '../billing/repo.ts'
import { type AirChanged, airTransactions } from '../on-air/changes.ts'
import {
  openProposalOf,
  playsFrom,
  playTotals,
  releasePlays,
  voidProposals,
} from '../proposals/repo.ts'
import {
  type CampaignChange,
  type CampaignRow,
  campaignById,
  campaignsOf,
  insertCampaign,
  moveCampaign,
  pauseReasons,
  type StateChange,
  updateCampaign,
} from './repo.ts'
import { reportOf } from './report.ts'

// Campaigns (api-v1 "Advertisers"): made as a Draft, changed until booked (the schedule) or at any
// time (the budget: raised freely, lowered down to spent + committed), paused, resumed, cancelled;
// shown with what they hold. An account sees and changes its own only (spec §6: "You do not have
// access to this campaign"). Proposals and acceptance are proposals/proposals.ts; ads, ads.ts.

/** Why a campaign asked for by its id is refused: unknown (404), another account's (403). */
export type OwnCampaignCode = 'campaign_not_found' | 'campaign_forbidden'
/** Why a campaign's billboards are refused. */
export type BillboardProblemCode = 'billboard_not_for_ads' | 'billboard_currency_mismatch'
/** What a change of schedule is refused for (its flight or its billboards). */
export type ScheduleProblemCode = FlightProblemCode | BillboardProblemCode

/** A result of a campaign of the account: refused for its id, or for the codes `C` besides. */
export type CampaignResult<T, C extends ProblemCode = never> = Result<
  T,
  Problem<OwnCampaignCode | C>
>

/** The billboards a campaign names, checked: each sold to advertisers, in the campaign's currency. */
export function billboardProblem(
  billboards: readonly AdBillboard[],
  deviceIds: readonly string[],
  currency: string,
): Problem<BillboardProblemCode> | null {
  for (const deviceId of deviceIds) {
    const b = billboards.find((x) => x.deviceId === deviceId)
    // named as people name it: its place and city (its id only when the catalogue lost it)
    const billboard = b ? `${b.location}, ${b.city}` : deviceId
    if (!b || b.impressionsPerPlay === null || b.adCpmCents === null || b.adCurrency === null) {
      return problem('billboard_not_for_ads', { billboard })
    }
    if (b.adCurrency !== currency) {
      return problem('billboard_currency_mismatch', {
        billboard,
        currency: b.adCurrency,
        campaignCurrency: currency,
      })
    }
  }
  return null
}

/** The campaign when the account owns it: 404 unknown, 403 another account's. */
export async function ownCampaign(
  db: Queryable,
  accountId: string,
  campaignId: string,
  options: { lock?: boolean } = {},
): Promise<CampaignResult<CampaignRow>> {
  const campaign = await campaignById(db, campaignId, options)
  if (!campaign) return err(problem('campaign_not_found'))
  if (campaign.accountId !== accountId) return err(problem('campaign_forbidden'))
  return ok(campaign)
}

export const stateConflict = (state: CampaignState): Problem<'campaign_state_conflict'> =>
  problem('campaign_state_conflict', { state })

export type CampaignService = ReturnType<typeof createCampaignService>

export function createCampaignService(deps: {
  /** Told once a change of what is on air committed (on-air/changes.ts). */
  airChanged: AirChanged
  database: Database
  now: () => number
  /**
   * Reserves more plays when the budget of a campaign holding plays is raised (proposals.ts: once
   * it is approved, within the plays a campaign may hold).
   */
  extend: (tx: Queryable, campaign: CampaignRow, budgetCents: number) => Promise<void>
}) {
  const { database: db, now } = deps
  const airTransaction = airTransactions(db, deps.airChanged)

  /** Campaigns as the API shows them, with the plays and money they hold now. */
  async function views(campaigns: readonly CampaignRow[]): Promise<Campaign[]> {
    const totals = await playTotals(
      db,
      campaigns.map((c) => c.campaignId),
      now(),
    )
    const paused = campaigns.filter((c) => c.state === 'Paused').map((c) => c.campaignId)
    const pauses = paused.length > 0 ? await pauseReasons(db, paused) : new Map<string, null>()
    const named = new Map(
      (await adBillboards(db, [...new Set(campaigns.flatMap((c) => c.deviceIds))])).map((b) => [
        b.deviceId,
        b,
      ]),
    )
    return Promise.all(
      campaigns.map(async (c) => {
        const held = totals.get(c.campaignId)
        return {
          campaignId: c.campaignId,
          name: c.name,
          budgetCents: c.budgetCents,
          currency: c.currency,
          startEpochMs: c.startEpochMs,
          endEpochMs: c.endEpochMs,
          deviceIds: c.deviceIds,
          dayparts: c.dayparts,
          state: c.state,
          spentCents: c.spentCents,
          committedCents: held?.committedCents ?? 0,
          contentGuid: c.contentGuid,
          rejectionReason: c.rejectionReason,
          completedReason: c.completedReason,
          pausedReason:
            c.state === 'Paused' ? pauseReasonOf(pauses.get(c.campaignId) ?? null) : null,
          proposalGuid: c.state === 'Proposed' ? await openProposalOf(db, c.campaignId) : null,
          scheduledPlays: held?.scheduledPlays ?? 0,
          provenPlays: held?.provenPlays ?? 0,
          billboards: c.deviceIds.map((deviceId) => {
            const b = named.get(deviceId)
            return {
              deviceId,
              location: b?.location ?? deviceId,
              city: b?.city ?? '',
              timeZoneId: b?.timeZoneId ?? 'UTC',
            }
          }),
        }
      }),
    )
  }

  async function view(campaign: CampaignRow): Promise<Campaign> {
    const [shown] = await views([campaign])
    if (!shown) throw new Error('no view of the campaign')
    return shown
  }

  async function reread(campaignId: string): Promise<Campaign> {
    const campaign = await campaignById(db, campaignId)
    if (!campaign) throw new Error(`campaign ${campaignId} vanished`)
    return view(campaign)
  }

  /** POST /advertisers/campaigns: a Draft, its schedule and billboards checked. */
  async function create(
    accountId: string,
    draft: CampaignDraft,
  ): Promise<Result<Campaign, Problem<ScheduleProblemCode>>> {
    const nowMs = now()
    const flight = flightProblem(draft, nowMs)
    if (flight) return err(flight)
    const billboards = await adBillboards(db, draft.deviceIds)
    const refused = billboardProblem(billboards, draft.deviceIds, draft.currency)
    if (refused) return err(refused)
    const campaign = await db.transaction((tx) =>
      insertCampaign(tx, { campaignId: randomUUID(), accountId, ...draft }, nowMs),
    )
    return ok(await view(campaign))
  }

  async function list(accountId: string): Promise<Campaign[]> {
    return views(await campaignsOf(db, accountId))
  }

  async function get(accountId: string, campaignId: string): Promise<CampaignResult<Campaign>> {
    const found = await ownCampaign(db, accountId, campaignId)
    return found.ok ? ok(await view(found.value)) : found
  }

  /**
   * PATCH: the schedule (times, billboards, dayparts, currency) until the campaign is booked (then
   * 409 `schedule_locked`); a change voids the open proposal (Draft again). The
   * budget: of a campaign holding plays, raised (more plays reserved) or lowered down to spent +
   * committed; the name at any time.
   */
  async function update(
    accountId: string,
    campaignId: string,
    patch: CampaignPatch,
  ): Promise<CampaignResult<Campaign, UpdateProblemCode>> {
    const outcome = await airTransaction(
      async (tx): Promise<CampaignResult<string, UpdateProblemCode>> => {
        const nowMs = now()
        const found = await ownCampaign(tx, accountId, campaignId, { lock: true })
        if (!found.ok) return found
        const campaign = found.value
        const change: CampaignChange = {}
        const schedule = {
          startEpochMs: patch.startEpochMs ?? campaign.startEpochMs,
          endEpochMs: patch.endEpochMs ?? campaign.endEpochMs,
          currency: patch.currency ?? campaign.currency,
          deviceIds: patch.deviceIds ?? campaign.deviceIds,
          dayparts: patch.dayparts ?? campaign.dayparts,
        }
        const changesSchedule =
          schedule.startEpochMs !== campaign.startEpochMs ||
          schedule.endEpochMs !== campaign.endEpochMs ||
          schedule.currency !== campaign.currency ||
          schedule.deviceIds.join() !== campaign.deviceIds.join() ||
          schedule.dayparts.join() !== campaign.dayparts.join()
        if (changesSchedule) {
          if (!mayChangeSchedule(campaign.state)) return err(problem('schedule_locked'))
          const flight = flightProblem(schedule, nowMs)
          if (flight) return err(flight)
          const billboards = await adBillboards(tx, schedule.deviceIds)
          const refused = billboardProblem(billboards, schedule.deviceIds, schedule.currency)
          if (refused) return err(refused)
          Object.assign(change, schedule)
        }
        if (patch.name !== undefined) change.name = patch.name
        if (patch.budgetCents !== undefined && patch.budgetCents !== campaign.budgetCents) {
          const budget = patch.budgetCents
          if (holdsPlays(campaign.state)) {
            const held = (await playTotals(tx, [campaignId], nowMs)).get(campaignId)
            // proven plays not charged yet are spent money too: the budget still pays them
            const floor = budgetProblem(budget, {
              spentCents: campaign.spentCents + (await owedCents(tx, campaignId)),
              committedCents: held?.committedCents ?? 0,
            })
            if (floor) return err(floor)
            if (budget > campaign.budgetCents) await deps.extend(tx, campaign, budget)
          } else if (!mayChangeSchedule(campaign.state)) {
            return err(stateConflict(campaign.state))
          }
          change.budgetCents = budget
        }
        await updateCampaign(tx, campaignId, change, nowMs)
        // a proposal priced another schedule or budget: void, the campaign is a Draft again
        if (
          campaign.state === 'Proposed' &&
          (changesSchedule || change.budgetCents !== undefined)
        ) {
          await voidProposals(tx, campaignId)
          await moveCampaign(tx, campaignId, { from: ['Proposed'], to: 'Draft' }, ADVERTISER, nowMs)
        }
        return ok(campaignId)
      },
    )
    return outcome.ok ? ok(await reread(outcome.value)) : outcome
  }

  /** Moves an own campaign; `allowed` says from which states (409 otherwise). */
  async function move(
    accountId: string,
    campaignId: string,
    allowed: (state: CampaignState) => boolean,
    apply: (tx: Queryable, campaign: CampaignRow, nowMs: number) => Promise<void>,
  ): Promise<CampaignResult<Campaign, 'campaign_state_conflict'>> {
    const outcome = await airTransaction(
      async (tx): Promise<CampaignResult<string, 'campaign_state_conflict'>> => {
        const found = await ownCampaign(tx, accountId, campaignId, { lock: true })
        if (!found.ok) return found
        if (!allowed(found.value.state)) return err(stateConflict(found.value.state))
        await apply(tx, found.value, now())
        return ok(campaignId)
      },
    )
    return outcome.ok ? ok(await reread(outcome.value)) : outcome
  }

  return {
    views,
    view,
    create,
    list,
    get,
    update,
    /** The campaign's report (report.ts). */
    async report(accountId: string, campaignId: string): Promise<CampaignResult<Report>> {
      const found = await ownCampaign(db, accountId, campaignId)
      return found.ok ? ok(await reportOf(db, found.value)) : found
    },
    /** The plays it holds still to begin, soonest first, each billboard named as the catalogue does. */
    async nextPlays(accountId: string, campaignId: string): Promise<CampaignResult<NextPlays>> {
      const found = await ownCampaign(db, accountId, campaignId)
      if (!found.ok) return found
      const [plays, billboards] = await Promise.all([
        playsFrom(db, campaignId, now(), NEXT_PLAYS_SHOWN),
        adBillboards(db, found.value.deviceIds),
      ])
      const named = new Map(billboards.map((b) => [b.deviceId, b]))
      return ok({
        campaignId,
        plays: plays.map((p) => ({
          deviceId: p.deviceId,
          location: named.get(p.deviceId)?.location ?? p.deviceId,
          city: named.get(p.deviceId)?.city ?? '',
          timeZoneId: named.get(p.deviceId)?.timeZoneId ?? 'UTC',
          startEpochMs: Number(p.startEpochMs),
        })),
      })
    },
    /** Stops an approved or live campaign's plays (they stay reserved for the resume). */
    pause: (accountId: string, campaignId: string) =>
      move(accountId, campaignId, mayPause, async (tx, c, nowMs) => {
        await moveCampaign(
          tx,
          c.campaignId,
          { from: [c.state], to: 'Paused', resumeState: c.state },
          ADVERTISER,
          nowMs,
        )
      }),
    resume: (accountId: string, campaignId: string) =>
      move(accountId, campaignId, mayResume, async (tx, c, nowMs) => {
        await moveCampaign(
          tx,
          c.campaignId,
          { from: ['Paused'], to: c.resumeState ?? 'Approved' },
          ADVERTISER,
          nowMs,
        )
      }),
    /** Ends the campaign: the plays still to come are freed; what was proven stays to be paid. */
    cancel: (accountId: string, campaignId: string) =>
      move(accountId, campaignId, mayCancel, (tx, c, nowMs) =>
        cancelCampaign(tx, c, ADVERTISER, nowMs),
      ),
  }
}

/** What a change of a campaign is refused for besides its id. */
type UpdateProblemCode =
  | ScheduleProblemCode
  | 'schedule_locked'
  | 'campaign_budget_below_spent'
  | 'campaign_state_conflict'

const ADVERTISER: StateChange = { actor: 'advertiser' }

/** Cancels a campaign (its owner, or an admin): future plays freed, open proposals void. */
export async function cancelCampaign(
  tx: Queryable,
  campaign: CampaignRow,
  change: StateChange,
  nowMs: number,
): Promise<void> {
  await releasePlays(tx, campaign.campaignId, nowMs)
  await voidProposals(tx, campaign.campaignId)
  await moveCampaign(
    tx,
    campaign.campaignId,
    { from: [campaign.state], to: 'Cancelled' },
    change,
    nowMs,
  )
}
