import { Temporal } from 'temporal-polyfill'
import { spreadEvenly } from './ad-time'
import { type DomainProblem, domainProblem } from './problems'
import type { TimeOfDayBand } from './slots'

// Advertisers' campaigns (api-v1 "Advertisers", docs/decisions/023): the price of a play, what a
// budget buys, the schedule rules of spec §8, the states and who may move them. Money is integer
// cents, in the campaign's one currency.

export const CAMPAIGN_STATES = [
  'Draft',
  'Proposed',
  'Booked',
  'Approved',
  'Live',
  'Paused',
  'Completed',
  'Rejected',
  'Cancelled',
] as const
export type CampaignState = (typeof CAMPAIGN_STATES)[number]

/**
 * Why a campaign is Paused: its advertiser paused it, or the shop did when the card was declined
 * for a day's proven plays (the settlement's history reason `charge_failed`).
 */
export const PAUSE_REASONS = ['advertiser', 'charge_failed'] as const
export type PauseReason = (typeof PAUSE_REASONS)[number]

/** The pause's reason from the reason its history row gave the move to Paused. */
export const pauseReasonOf = (historyReason: string | null): PauseReason =>
  historyReason === 'charge_failed' ? 'charge_failed' : 'advertiser'

export const DAYPARTS = [
  'EarlyMorning',
  'Morning',
  'Afternoon',
  'Evening',
] as const satisfies readonly TimeOfDayBand[]

/** spec §8: a campaign starts at least four hours from now. */
export const CAMPAIGN_START_LEAD_MS = 4 * 3_600_000
/** A flight lasts at most 92 days (a quarter): the plan of a longer one is another campaign. */
export const MAX_FLIGHT_MS = 92 * 86_400_000
/**
 * How far ahead a flight may be bought: it starts within a year and ends within two. Nobody plans
 * billboard ads further out, and a date past the calendar's range (8.64e15 ms, year 275760) or
 * near it makes the plays' time arithmetic throw: a far date is a refusal, never an error.
 */
export const MAX_START_AHEAD_MS = 365 * 86_400_000
export const MAX_END_AHEAD_MS = 2 * 365 * 86_400_000
/** A proposal holds for 48 hours, and never past the campaign's start. */
export const PROPOSAL_VALID_MS = 48 * 3_600_000
/**
 * The most plays one campaign holds, all rounds together (each is a row; a larger plan is several
 * campaigns).
 */
export const MAX_PLAYS_PER_CAMPAIGN = 20_000

/** How many more plays a campaign holding `heldPlays` (proven or not, past or to come) may take. */
export const playsLeftToHold = (heldPlays: number): number =>
  Math.max(0, MAX_PLAYS_PER_CAMPAIGN - heldPlays)

/** catalogue-format: one play costs round(impressionsPerPlay × adCpmCents / 1000) cents. */
export function adPlayCostCents(impressionsPerPlay: number, adCpmCents: number): number {
  return Math.round((impressionsPerPlay * adCpmCents) / 1000)
}

/** What a flight's schedule rules refuse. */
export type FlightProblemCode =
  | 'campaign_start_past'
  | 'campaign_start_too_soon'
  | 'campaign_start_too_far'
  | 'campaign_end_before_start'
  | 'campaign_end_too_far'
  | 'campaign_flight_too_long'

/**
 * spec §8 schedule rules for a flight, checked at creation, at a change and at each proposal: the
 * start not before now, not within four hours of now, within a year; the end after the start,
 * within two years; at most 92 days.
 */
export function flightProblem(
  flight: { startEpochMs: number; endEpochMs: number },
  nowEpochMs: number,
): DomainProblem<FlightProblemCode> | null {
  if (flight.startEpochMs < nowEpochMs) return domainProblem('campaign_start_past')
  if (flight.startEpochMs < nowEpochMs + CAMPAIGN_START_LEAD_MS) {
    return domainProblem('campaign_start_too_soon')
  }
  if (flight.startEpochMs > nowEpochMs + MAX_START_AHEAD_MS) {
    return domainProblem('campaign_start_too_far', { days: MAX_START_AHEAD_MS / 86_400_000 })
  }
  if (flight.endEpochMs <= flight.startEpochMs) return domainProblem('campaign_end_before_start')
  if (flight.endEpochMs > nowEpochMs + MAX_END_AHEAD_MS) {
    return domainProblem('campaign_end_too_far', { days: MAX_END_AHEAD_MS / 86_400_000 })
  }
  if (flight.endEpochMs - flight.startEpochMs > MAX_FLIGHT_MS) {
    return domainProblem('campaign_flight_too_long', { days: MAX_FLIGHT_MS / 86_400_000 })
  }
  return null
}

/** The schedule (times, billboards, dayparts) may change until the campaign is booked. */
export const mayChangeSchedule = (state: CampaignState): boolean =>
  state === 'Draft' || state === 'Proposed'

/** The ad may be replaced until the campaign is booked (what a reviewer approves stays what plays). */
export const mayChangeContent = mayChangeSchedule

/** A proposal can be asked for a campaign not booked yet. */
export const mayPropose = mayChangeSchedule

/** Plays are reserved from Booked on, until the campaign ends one way or another. */
export const holdsPlays = (state: CampaignState): boolean =>
  state === 'Booked' || state === 'Approved' || state === 'Live' || state === 'Paused'

/**
 * A raised budget buys more plays once a reviewer approved the campaign: until then it holds no
 * more than the proposal its advertiser accepted (time nobody reviewed, nothing charged yet, is not
 * taken from other advertisers); the budget raised while it waited buys its plays on approval.
 */
export const buysMoreOnRaise = (state: CampaignState): boolean =>
  holdsPlays(state) && state !== 'Booked'

/** What may be done to a campaign as it stands (its advertiser all three, an admin `cancel`). */
export type CampaignAction = 'pause' | 'resume' | 'cancel'

// Pausing stops an approved (or live) campaign's plays; resuming takes it back where it was; a
// campaign is cancelled until it has ended one way or another. The server refuses the others
// (campaign_state_conflict), and the advertiser's page and the console offer exactly these.
const ACTIONS: Record<CampaignState, readonly CampaignAction[]> = {
  Draft: ['cancel'],
  Proposed: ['cancel'],
  Booked: ['cancel'],
  Approved: ['pause', 'cancel'],
  Live: ['pause', 'cancel'],
  Paused: ['resume', 'cancel'],
  Completed: [],
  Rejected: [],
  Cancelled: [],
}

/** The actions a campaign in this state allows, in the order the pages offer them. */
export const campaignActions = (state: CampaignState): readonly CampaignAction[] => ACTIONS[state]

export const mayPause = (state: CampaignState): boolean => ACTIONS[state].includes('pause')
export const mayResume = (state: CampaignState): boolean => ACTIONS[state].includes('resume')
export const mayCancel = (state: CampaignState): boolean => ACTIONS[state].includes('cancel')

/** A reviewer decides a booked campaign's ad: approved (it plays) or rejected (nothing charged). */
export const awaitsReview = (state: CampaignState): boolean => state === 'Booked'

/**
 * A budget change: raised at any time; lowered only down to what is spent and committed (spec §8
 * "amount spent to date + …"). Null when allowed.
 */
export function budgetProblem(
  budgetCents: number,
  money: { spentCents: number; committedCents: number },
): DomainProblem<'campaign_budget_below_spent'> | null {
  if (budgetCents >= money.spentCents + money.committedCents) return null
  return domainProblem('campaign_budget_below_spent', {
    spentCents: money.spentCents,
    committedCents: money.committedCents,
    budgetCents,
  })
}

/** A billboard a campaign may buy: its price and the ad cells still open to it (sorted). */
export type PlanBillboard = {
  deviceId: string
  costCentsPerPlay: number
  impressionsPerPlay: number
  /** Any list of numbers: a quarter on one billboard is some 260,000 cells (a typed array). */
  openCells: ArrayLike<number>
}

export type PlanLine = {
  deviceId: string
  /** The starts of the plays, sorted. */
  plays: number[]
  impressions: number
  costCents: number
}

export type Plan = {
  lines: PlanLine[]
  totalPlays: number
  totalImpressions: number
  totalCents: number
}

/**
 * What a budget buys (api-v1 Proposal): plays shared out across the billboards one at a time, in
 * their order, so each gets as many as the others (one more at most) until the budget, a billboard's
 * open cells or MAX_PLAYS_PER_CAMPAIGN runs out; then each billboard's plays are spread evenly over
 * its open cells (the flight and the dayparts). The total never exceeds the budget.
 */
export function planPlays(
  billboards: readonly PlanBillboard[],
  budgetCents: number,
  maxPlays = MAX_PLAYS_PER_CAMPAIGN,
): Plan {
  const counts = billboards.map(() => 0)
  let spent = 0
  let total = 0
  for (let progress = true; progress && total < maxPlays; ) {
    progress = false
    for (let i = 0; i < billboards.length && total < maxPlays; i++) {
      const b = billboards[i] as PlanBillboard
      const count = counts[i] as number
      if (count >= b.openCells.length || spent + b.costCentsPerPlay > budgetCents) continue
      counts[i] = count + 1
      spent += b.costCentsPerPlay
      total++
      progress = true
    }
  }
  const lines = billboards.map((b, i) => {
    const plays = spreadEvenly(b.openCells, counts[i] as number)
    return {
      deviceId: b.deviceId,
      plays,
      impressions: plays.length * b.impressionsPerPlay,
      costCents: plays.length * b.costCentsPerPlay,
    }
  })
  return {
    lines,
    totalPlays: total,
    totalImpressions: lines.reduce((n, l) => n + l.impressions, 0),
    totalCents: spent,
  }
}

/** Until when a proposal made now holds: 48 hours, and never past the campaign's start. */
export function proposalValidUntil(nowEpochMs: number, startEpochMs: number): number {
  return Math.min(nowEpochMs + PROPOSAL_VALID_MS, startEpochMs)
}

/** A held play as a report counts it. */
export type ReportPlay = {
  deviceId: string
  startEpochMs: number
  costCents: number
  impressions: number
  proven: boolean
}

export type ReportRow = {
  /** The billboard's local date of the play, yyyy-MM-dd. */
  day: string
  deviceId: string
  scheduledPlays: number
  provenPlays: number
  /** Of the proven plays: what the advertiser reached and pays. */
  impressions: number
  spentCents: number
}

/**
 * api-v1 Report: one row a billboard-local day and billboard, by day then billboard; plays scheduled
 * (held) and proven, and the impressions and cost of the proven ones (unproven plays are not paid).
 */
export function campaignReport(
  plays: readonly ReportPlay[],
  zoneOf: (deviceId: string) => string,
): { rows: ReportRow[]; totals: Omit<ReportRow, 'day' | 'deviceId'> } {
  const rows = new Map<string, ReportRow>()
  for (const play of plays) {
    const day = Temporal.Instant.fromEpochMilliseconds(play.startEpochMs)
      .toZonedDateTimeISO(zoneOf(play.deviceId))
      .toPlainDate()
      .toString()
    const key = `${day} ${play.deviceId}`
    let row = rows.get(key)
    if (!row) {
      row = {
        day,
        deviceId: play.deviceId,
        scheduledPlays: 0,
        provenPlays: 0,
        impressions: 0,
        spentCents: 0,
      }
      rows.set(key, row)
    }
    row.scheduledPlays++
    if (play.proven) {
      row.provenPlays++
      row.impressions += play.impressions
      row.spentCents += play.costCents
    }
  }
  const sorted = [...rows.values()].sort(
    (a, b) => a.day.localeCompare(b.day) || a.deviceId.localeCompare(b.deviceId),
  )
  const totals = { scheduledPlays: 0, provenPlays: 0, impressions: 0, spentCents: 0 }
  for (const row of sorted) {
    totals.scheduledPlays += row.scheduledPlays
    totals.provenPlays += row.provenPlays
    totals.impressions += row.impressions
    totals.spentCents += row.spentCents
  }
  return { rows: sorted, totals }
}
