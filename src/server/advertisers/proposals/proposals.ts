import { randomUUID } from 'node:crypto'
import type { Campaign, InventoryLine, Proposal } from '../../../contract/advertisers.ts'
import { type Problem, problem } from '../../../contract/problems.ts'
import { AD_PLAY_MS, type AdTimeBillboard } from '../../../domain/ad-time.ts'
import {
  adPlayCostCents,
  buysMoreOnRaise,
  CAMPAIGN_START_LEAD_MS,
  DAYPARTS,
  flightProblem,
  MAX_FLIGHT_MS,
  mayPropose,
  type PlanBillboard,
  planPlays,
  playsLeftToHold,
  proposalValidUntil,
} from '../../../domain/campaign.ts'
import { type AdBillboard, adBillboards } from '../../catalogue/ad-reads.ts'
import type { CardError, PaymentService } from '../../payment/service.ts'
import type { Database, Queryable } from '../../platform/db/client.ts'
import { pgErrorCode } from '../../platform/db/errors.ts'
import { err, ok, type Result } from '../../platform/result.ts'
import type { AdProblem } from '../campaigns/ads.ts'
import {
  billboardProblem,
  type CampaignService,
  type OwnCampaignCode,
  ownCampaign,
  type ScheduleProblemCode,
  stateConflict,
} from '../campaigns/campaigns.ts'
import { type CampaignRow, campaignById, checkoutUsed, moveCampaign } from '../campaigns/repo.ts'
import { type AirChanged, airTransactions } from '../on-air/changes.ts'
import { openCellCounts, openCellsOf, stillAdCells } from './ad-cells.ts'
import {
  insertProposal,
  markProposalAccepted,
  type NewPlay,
  type ProposalLine,
  type ProposalRow,
  playTotals,
  proposalByGuid,
  reservePlays,
} from './repo.ts'

// What a budget buys, and buying it (api-v1 "Advertisers", docs/decisions/023): the inventory (each
// billboard's price and the ad plays still free), a proposal (plays per billboard spread over the
// flight and dayparts in the ad cells no campaign holds, totals within the budget, valid 48 h, a
// link to share), its acceptance (the card checked, then every play reserved in one transaction:
// all or none, 409 when another campaign took one meanwhile), and more plays when the budget of a
// booked campaign is raised.

/** Why a proposal is not made: the campaign (its id, state, schedule, ad), or nothing to sell. */
type ProposeProblem = Problem<
  | OwnCampaignCode
  | ScheduleProblemCode
  | AdProblem['code']
  | 'campaign_state_conflict'
  | 'campaign_nothing_to_sell'
>

/** Why a proposal is not accepted: its campaign, the proposal as it stands now, or the card. */
type AcceptProblem = Problem<
  | OwnCampaignCode
  | CardError['code']
  | 'proposal_not_found'
  | 'proposal_void'
  | 'proposal_expired'
  | 'proposal_plays_taken'
  | 'payment_already_saved'
>

/** A reservation lost to another campaign: the transaction is rolled back. */
class PlaysTaken extends Error {}

const priced = (b: AdBillboard) => ({
  costCentsPerPlay: adPlayCostCents(b.impressionsPerPlay ?? 0, b.adCpmCents ?? 0),
  impressionsPerPlay: b.impressionsPerPlay ?? 0,
})

const timeOf = (b: AdBillboard): AdTimeBillboard => ({ timeZoneId: b.timeZoneId, events: b.events })

export type ProposalService = ReturnType<typeof createProposalService>

export function createProposalService(deps: {
  /** Told once a change of what is on air committed (on-air/changes.ts). */
  airChanged: AirChanged
  database: Database
  now: () => number
  payment: PaymentService
  campaigns: () => CampaignService
  /** Whether the campaign's ad is ready at every size it needs (campaigns/ads.ts), or its problem. */
  adProblem: (campaign: CampaignRow) => Promise<AdProblem | null>
  /** Mails the advertiser that the campaign is booked (campaigns/completion.ts). */
  booked: (campaignId: string) => Promise<void>
  /** AD_FREE_TIME_SHARE */
  defaultSharePercent: number
}) {
  const { database: db, now, defaultSharePercent } = deps
  const airTransaction = airTransactions(db, deps.airChanged)

  /** Each billboard's price and open cells for the campaign (other campaigns' plays taken out). */
  async function planBillboards(
    tx: Queryable,
    billboards: readonly AdBillboard[],
    campaign: Pick<CampaignRow, 'deviceIds' | 'startEpochMs' | 'endEpochMs' | 'dayparts'>,
    notBeforeEpochMs: number,
  ): Promise<PlanBillboard[]> {
    const open = await openCellsOf(
      tx,
      campaign.deviceIds.map((deviceId) => ({
        deviceId,
        time: timeOf(billboards.find((x) => x.deviceId === deviceId) as AdBillboard),
      })),
      { ...campaign, notBeforeEpochMs },
      defaultSharePercent,
    )
    return campaign.deviceIds.map((deviceId) => ({
      deviceId,
      ...priced(billboards.find((x) => x.deviceId === deviceId) as AdBillboard),
      openCells: open.get(deviceId) ?? new Float64Array(0),
    }))
  }

  /** GET /advertisers/inventory: every billboard sold to advertisers, its price, its free plays. */
  async function inventory(query: {
    fromEpochMs?: number | undefined
    toEpochMs?: number | undefined
  }): Promise<
    Result<
      { fromEpochMs: number; toEpochMs: number; billboards: InventoryLine[] },
      Problem<'to_before_from' | 'campaign_flight_too_long'>
    >
  > {
    const nowMs = now()
    const fromEpochMs = query.fromEpochMs ?? nowMs + CAMPAIGN_START_LEAD_MS
    const toEpochMs = query.toEpochMs ?? fromEpochMs + 7 * 86_400_000
    if (toEpochMs <= fromEpochMs) return err(problem('to_before_from'))
    if (toEpochMs - fromEpochMs > MAX_FLIGHT_MS) {
      return err(problem('campaign_flight_too_long', { days: MAX_FLIGHT_MS / 86_400_000 }))
    }
    const forSale = (await adBillboards(db)).filter(
      (b) => b.impressionsPerPlay !== null && b.adCpmCents !== null && b.adCurrency !== null,
    )
    const free = await openCellCounts(
      db,
      forSale.map((b) => ({ deviceId: b.deviceId, time: timeOf(b) })),
      {
        startEpochMs: fromEpochMs,
        endEpochMs: toEpochMs,
        dayparts: DAYPARTS,
        notBeforeEpochMs: nowMs,
      },
      defaultSharePercent,
    )
    const billboards = forSale.map((b) => ({
      deviceId: b.deviceId,
      location: b.location,
      city: b.city,
      country: b.country,
      timeZoneId: b.timeZoneId,
      coordinates: b.coordinates,
      imageUrl: b.imageUrl,
      contentWidth: b.contentWidth,
      contentHeight: b.contentHeight,
      impressionsPerPlay: b.impressionsPerPlay ?? 0,
      adCpmCents: b.adCpmCents ?? 0,
      currency: b.adCurrency ?? '',
      costCentsPerPlay: priced(b).costCentsPerPlay,
      freePlays: free.get(b.deviceId) ?? 0,
    }))
    return ok({ fromEpochMs, toEpochMs, billboards })
  }

  /** A proposal as the API shows it (to anyone with its guid). */
  async function proposalView(proposal: ProposalRow): Promise<Proposal> {
    const [campaign, billboards] = await Promise.all([
      campaignById(db, proposal.campaignId),
      adBillboards(
        db,
        proposal.lines.map((l) => l.deviceId),
      ),
    ])
    // the billboard's name as the catalogue has it today (a billboard since removed keeps its id)
    const locationOf = (deviceId: string) =>
      billboards.find((b) => b.deviceId === deviceId)?.location ?? deviceId
    return {
      proposalGuid: proposal.proposalGuid,
      campaignId: proposal.campaignId,
      ...(campaign
        ? {
            campaignName: campaign.name,
            startEpochMs: campaign.startEpochMs,
            endEpochMs: campaign.endEpochMs,
            dayparts: campaign.dayparts,
          }
        : {}),
      validUntilEpochMs: proposal.validUntilEpochMs,
      currency: proposal.currency,
      lines: proposal.lines.map((l) => ({
        deviceId: l.deviceId,
        location: locationOf(l.deviceId),
        plays: l.plays.length,
        impressions: l.impressions,
        costCents: l.costCents,
      })),
      totalPlays: proposal.totalPlays,
      totalImpressions: proposal.totalImpressions,
      totalCents: proposal.totalCents,
      status: proposal.status,
    }
  }

  /**
   * POST /advertisers/campaigns/{id}/proposal: what the budget buys now, valid 48 h (never past the
   * start); the campaign is Proposed and an older open proposal void.
   */
  async function propose(
    accountId: string,
    campaignId: string,
  ): Promise<Result<Proposal, ProposeProblem>> {
    const found = await ownCampaign(db, accountId, campaignId)
    if (!found.ok) return found
    const adProblem = await deps.adProblem(found.value)
    const made = await airTransaction(async (tx): Promise<Result<ProposalRow, ProposeProblem>> => {
      const nowMs = now()
      const locked = await ownCampaign(tx, accountId, campaignId, { lock: true })
      if (!locked.ok) return locked
      const campaign = locked.value
      if (!mayPropose(campaign.state)) return err(stateConflict(campaign.state))
      const flight = flightProblem(campaign, nowMs)
      if (flight) return err(flight)
      if (adProblem) return err(adProblem)
      const billboards = await adBillboards(tx, campaign.deviceIds)
      const refused = billboardProblem(billboards, campaign.deviceIds, campaign.currency)
      if (refused) return err(refused)
      const plan = planPlays(
        await planBillboards(tx, billboards, campaign, nowMs + CAMPAIGN_START_LEAD_MS),
        campaign.budgetCents,
      )
      if (plan.totalPlays === 0) return err(problem('campaign_nothing_to_sell'))
      const proposal: Omit<ProposalRow, 'status'> = {
        proposalGuid: randomUUID(),
        campaignId,
        validUntilEpochMs: proposalValidUntil(nowMs, campaign.startEpochMs),
        currency: campaign.currency,
        lines: plan.lines.map((line) => {
          const b = billboards.find((x) => x.deviceId === line.deviceId) as AdBillboard
          return { ...line, ...priced(b) }
        }),
        totalPlays: plan.totalPlays,
        totalImpressions: plan.totalImpressions,
        totalCents: plan.totalCents,
      }
      await insertProposal(tx, proposal, nowMs)
      await moveCampaign(
        tx,
        campaignId,
        { from: ['Draft', 'Proposed'], to: 'Proposed' },
        { actor: 'advertiser' },
        nowMs,
      )
      return ok({ ...proposal, status: 'open' })
    })
    return made.ok ? ok(await proposalView(made.value)) : made
  }

  /** GET /advertisers/proposals/{guid}: the guid is the key (a link a colleague may open). */
  async function proposal(
    proposalGuid: string,
  ): Promise<Result<Proposal, Problem<'proposal_not_found'>>> {
    const found = await proposalByGuid(db, proposalGuid)
    return found ? ok(await proposalView(found)) : err(problem('proposal_not_found'))
  }

  /**
   * Whether every play of the lines still starts an ad cell of its billboard by today's catalogue
   * (an event imported since the proposal may have put a shout's place there).
   */
  async function stillAdCellsOf(tx: Queryable, lines: readonly ProposalLine[]): Promise<boolean> {
    const billboards = await adBillboards(
      tx,
      lines.map((l) => l.deviceId),
    )
    for (const line of lines) {
      const b = billboards.find((x) => x.deviceId === line.deviceId)
      if (!b || !(await stillAdCells(timeOf(b), line.plays, defaultSharePercent))) return false
    }
    return true
  }

  /**
   * POST /advertisers/proposals/{guid}/accept: the card saved for the checkout (the shop's payment
   * flow), then, in one transaction, every play of the proposal reserved (all or none: 409 when
   * another campaign holds one now) and the campaign Booked. Accepting again with the same card
   * answers the booked campaign.
   */
  async function accept(
    accountId: string,
    proposalGuid: string,
    card: { customerId: string; checkoutSecretKey: string },
  ): Promise<Result<Campaign, AcceptProblem>> {
    const first = await proposalByGuid(db, proposalGuid)
    if (!first) return err(problem('proposal_not_found'))
    const owner = await ownCampaign(db, accountId, first.campaignId)
    if (!owner.ok) return owner
    if (first.status === 'accepted' && owner.value.checkoutSecretKey === card.checkoutSecretKey) {
      return ok(await deps.campaigns().view(owner.value))
    }
    const used = await checkoutUsed(db, card.checkoutSecretKey)
    const saved = await deps.payment.cardForCheckout(card.checkoutSecretKey, card.customerId, used)
    if (!saved.ok) return err(problem(saved.error.code))
    let booked: Result<CampaignRow, AcceptProblem>
    try {
      booked = await airTransaction(async (tx): Promise<Result<CampaignRow, AcceptProblem>> => {
        const nowMs = now()
        // the campaign first, then its proposal: the order propose() takes them in too
        const locked = await ownCampaign(tx, accountId, first.campaignId, { lock: true })
        const proposal = await proposalByGuid(tx, proposalGuid, { lock: true })
        if (!proposal || !locked.ok) return err(problem('proposal_not_found'))
        const campaign = locked.value
        if (proposal.status !== 'open' || campaign.state !== 'Proposed') {
          return err(problem('proposal_void'))
        }
        if (nowMs > proposal.validUntilEpochMs) return err(problem('proposal_expired'))
        if (!(await stillAdCellsOf(tx, proposal.lines))) return err(problem('proposal_void'))
        const plays: NewPlay[] = proposal.lines.flatMap((line) =>
          line.plays.map((start) => ({
            deviceId: line.deviceId,
            startEpochMs: start,
            endEpochMs: start + AD_PLAY_MS,
            costCents: line.costCentsPerPlay,
            impressions: line.impressionsPerPlay,
          })),
        )
        const reserved = await reservePlays(tx, campaign.campaignId, plays, nowMs)
        if (reserved < plays.length) throw new PlaysTaken()
        await markProposalAccepted(tx, proposalGuid)
        const moved = await moveCampaign(
          tx,
          campaign.campaignId,
          { from: ['Proposed'], to: 'Booked', card },
          { actor: 'advertiser' },
          nowMs,
        )
        if (!moved) throw new Error('the campaign left Proposed while it was locked')
        return ok(campaign)
      })
    } catch (error) {
      if (error instanceof PlaysTaken) return err(problem('proposal_plays_taken'))
      // the checkout bound by a concurrent acceptance (its unique key)
      if (pgErrorCode(error) === '23505') return err(problem('payment_already_saved'))
      throw error
    }
    if (!booked.ok) return booked
    await deps.booked(booked.value.campaignId)
    const after = await campaignById(db, booked.value.campaignId)
    return ok(await deps.campaigns().view(after ?? booked.value))
  }

  /**
   * A campaign's budget raised once it is approved (or on its approval, for a raise made while it
   * waited): what is left over (budget − spent − committed) buys more plays, from four hours ahead
   * to the end of the flight, where no campaign holds the time, and never more than
   * MAX_PLAYS_PER_CAMPAIGN held in all (a raise does not start another round of them).
   * Inside the caller's transaction; a play taken meanwhile by another campaign is skipped.
   */
  async function extend(tx: Queryable, campaign: CampaignRow, budgetCents: number): Promise<void> {
    const nowMs = now()
    if (!buysMoreOnRaise(campaign.state)) return
    const held = (await playTotals(tx, [campaign.campaignId], nowMs)).get(campaign.campaignId)
    const room = playsLeftToHold(held?.scheduledPlays ?? 0)
    const available = budgetCents - campaign.spentCents - (held?.committedCents ?? 0)
    // nothing to buy: no work (a raise at the cap costs one read)
    if (room === 0 || available <= 0) return
    const billboards = await adBillboards(tx, campaign.deviceIds)
    if (billboardProblem(billboards, campaign.deviceIds, campaign.currency)) return
    if (available < Math.min(...billboards.map((b) => priced(b).costCentsPerPlay))) return
    const plan = planPlays(
      await planBillboards(tx, billboards, campaign, nowMs + CAMPAIGN_START_LEAD_MS),
      available,
      room,
    )
    const plays = plan.lines.flatMap((line) => {
      const b = billboards.find((x) => x.deviceId === line.deviceId) as AdBillboard
      const { costCentsPerPlay, impressionsPerPlay } = priced(b)
      return line.plays.map((start) => ({
        deviceId: line.deviceId,
        startEpochMs: start,
        endEpochMs: start + AD_PLAY_MS,
        costCents: costCentsPerPlay,
        impressions: impressionsPerPlay,
      }))
    })
    await reservePlays(tx, campaign.campaignId, plays, nowMs)
  }

  return { inventory, propose, proposal, accept, extend }
}
