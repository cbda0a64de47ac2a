import {
  AD_PLAY_MS,
  type AdTimeBillboard,
  adCellsOfHour,
  DEFAULT_AD_SHARE_PERCENT,
  localHours,
  spreadEvenly,
} from './ad-time'
import type { CampaignState } from './campaign'
import { PLAY_TOLERANCE_MS } from './schedule'

// Campaigns on air (docs/decisions/023, api-v1 "Player"): which of the plays a campaign holds a
// billboard shows, how a player's proof of one is recognised, and how plays a billboard missed are
// caught up. The plays were placed at booking (ad-time.ts openAdCells, campaign.ts planPlays: 15 s
// each, spread evenly over the flight and the dayparts in the billboard's local time, in the hour's
// ad cells only); here they are checked again against the billboard's events as they are now, so a
// catalogue changed after the booking can never put an ad over a shout's place or beyond the share.

/** A campaign's plays reach the screens once a reviewer approved it, until it ends or is paused. */
export const mayAir = (state: CampaignState): boolean => state === 'Approved' || state === 'Live'

/** A campaign's move to a state, at a time (its history, oldest first). */
export type CampaignMove = { state: CampaignState; atEpochMs: number }

/**
 * Whether the schedule carried a campaign's play that starts at `startEpochMs`: the state its last
 * move at or before that start left it in may air. Paused by its advertiser or for a declined
 * charge, booked and not approved yet, or not made yet: the play was on no billboard's schedule,
 * so a proof of it proves nothing (and charges nothing), whatever the campaign's state now.
 */
export function carriedAt(history: readonly CampaignMove[], startEpochMs: number): boolean {
  let state: CampaignState | null = null
  // the last in order, not the latest time: a clock set back must not bring an older move back
  for (const move of history) if (move.atEpochMs <= startEpochMs) state = move.state
  return state !== null && mayAir(state)
}

/**
 * An ad play's index, as the schedule's item and the player's proof carry it: its 15-second cell
 * counted from the epoch. Cells start on a local hour (every zone's offset is a whole number of
 * quarter hours), so the index names the play's start exactly and a billboard holds one play a cell.
 */
export const adPlayIndex = (startEpochMs: number): number => Math.floor(startEpochMs / AD_PLAY_MS)
export const adPlayStart = (playIndex: number): number => playIndex * AD_PLAY_MS

/** A play a campaign holds on the billboard. */
export type HeldAdPlay = {
  campaignId: string
  startEpochMs: number
  endEpochMs: number
  state: CampaignState
}

/**
 * The held plays the billboard shows in [fromEpochMs, toEpochMs), sorted by start: of a campaign that
 * may air, 15 s long, overlapping the window, and starting on one of the billboard's ad cells as its
 * events stand now (never a shout's place, never beyond the free-time share). Whatever else the
 * billboard's time holds is the house card's.
 */
export function airingAdPlays<P extends HeldAdPlay>(
  billboard: AdTimeBillboard,
  held: readonly P[],
  window: { fromEpochMs: number; toEpochMs: number },
  defaultSharePercent = DEFAULT_AD_SHARE_PERCENT,
): P[] {
  const candidates = held
    .filter(
      (p) =>
        mayAir(p.state) &&
        p.endEpochMs - p.startEpochMs === AD_PLAY_MS &&
        p.endEpochMs > window.fromEpochMs &&
        p.startEpochMs < window.toEpochMs,
    )
    .sort((a, b) => a.startEpochMs - b.startEpochMs)
  if (candidates.length === 0) return []
  // the ad cells of each local hour that holds a candidate, computed once an hour
  const cells = new Map<number, Set<number>>()
  const first = candidates[0] as P
  const last = candidates[candidates.length - 1] as P
  for (const hour of localHours(billboard.timeZoneId, first.startEpochMs, last.endEpochMs)) {
    cells.set(hour.startEpochMs, new Set(adCellsOfHour(billboard, hour, defaultSharePercent)))
  }
  const hourStarts = [...cells.keys()].sort((a, b) => a - b)
  const aired: P[] = []
  let h = 0
  const seen = new Set<number>()
  for (const play of candidates) {
    while (h + 1 < hourStarts.length && (hourStarts[h + 1] as number) <= play.startEpochMs) h++
    const hourCells = cells.get(hourStarts[h] as number)
    if (!hourCells?.has(play.startEpochMs) || seen.has(play.startEpochMs)) continue
    seen.add(play.startEpochMs)
    aired.push(play)
  }
  return aired
}

/** A player's proof of an ad play (api-v1 `Play` with `campaignId`). */
export type AdPlayReport = {
  campaignId: string
  playIndex: number
  startedAtEpochMs: number
  endedAtEpochMs: number
}

/**
 * Whether a proof is of this held play: the same campaign and cell, begun about at its start and
 * ended about by its end (a player's clock drifts a little: the shouts' tolerance).
 */
export function matchesAdPlay(
  report: AdPlayReport,
  held: Pick<HeldAdPlay, 'campaignId' | 'startEpochMs' | 'endEpochMs'>,
): boolean {
  return (
    report.campaignId === held.campaignId &&
    adPlayStart(report.playIndex) === held.startEpochMs &&
    report.endedAtEpochMs >= report.startedAtEpochMs &&
    Math.abs(report.startedAtEpochMs - held.startEpochMs) <= PLAY_TOLERANCE_MS &&
    report.endedAtEpochMs <= held.endEpochMs + PLAY_TOLERANCE_MS
  )
}

/** A campaign goes on air with its first proven play. */
export function stateAfterProof(state: CampaignState): CampaignState {
  return state === 'Approved' ? 'Live' : state
}

/**
 * How long after its start an unproven play is given up as missed: a player that lost the network
 * keeps playing and sends its proofs when it is back, so a play is missed only when no proof came
 * within this time. A proof arriving later finds the play released and is refused (nothing is paid
 * for it), so the budget is never spent twice on one missed play.
 */
export const MISSED_AFTER_MS = 2 * 3_600_000

/** A held play as pacing sees it. */
export type PacedPlay = { startEpochMs: number; proven: boolean }

/** The plays given up as missed at `nowEpochMs`: unproven, begun more than MISSED_AFTER_MS ago. */
export function missedPlays<P extends PacedPlay>(plays: readonly P[], nowEpochMs: number): P[] {
  return plays.filter((p) => !p.proven && p.startEpochMs + MISSED_AFTER_MS <= nowEpochMs)
}

/** What catching up may spend, on one billboard of a campaign. */
export type CatchUpInput = {
  /** Plays of this billboard given up as missed (they are released: never charged). */
  missed: number
  /** The ad cells still open to the campaign on this billboard (ad-time.ts openAdCells), sorted. */
  openCells: ArrayLike<number>
  costCentsPerPlay: number
  budgetCents: number
  /** What the campaign's proven plays cost, on every billboard. */
  spentCents: number
  /** What its plays still to come cost, on every billboard, the missed ones not counted. */
  committedCents: number
}

/**
 * Pacing: the starts of the plays that replace missed ones, spread evenly over the open cells left in
 * the flight. As many as were missed, at most as many as the open cells, and only as many as the
 * budget still pays for beside what is proven and what is held, so proven plus held never exceeds
 * the budget. At the end of the flight there is no open cell: nothing is caught up and the missed
 * plays are not charged.
 */
export function catchUpStarts(input: CatchUpInput): number[] {
  if (input.missed <= 0) return []
  const room = input.budgetCents - input.spentCents - input.committedCents
  const affordable =
    input.costCentsPerPlay > 0
      ? Math.max(0, Math.floor(room / input.costCentsPerPlay))
      : input.missed
  return spreadEvenly(input.openCells, Math.min(input.missed, affordable))
}
