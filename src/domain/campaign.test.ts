import { describe, expect, it } from 'vitest'
import {
  adPlayCostCents,
  budgetProblem,
  buysMoreOnRaise,
  CAMPAIGN_START_LEAD_MS,
  CAMPAIGN_STATES,
  campaignActions,
  flightProblem,
  MAX_PLAYS_PER_CAMPAIGN,
  mayCancel,
  mayChangeSchedule,
  mayPause,
  mayResume,
  planPlays,
  playsLeftToHold,
  proposalValidUntil,
} from './campaign'

const NOW = Date.UTC(2027, 4, 1, 8, 0, 0)
const HOUR = 3_600_000
const cells = (count: number, from = NOW) =>
  Array.from({ length: count }, (_, i) => from + i * 30_000)

describe('adPlayCostCents (catalogue-format: round(impressions × CPM / 1000))', () => {
  it('prices a play from its impressions and the price of a thousand', () => {
    expect(adPlayCostCents(1200, 800)).toBe(960)
    expect(adPlayCostCents(333, 500)).toBe(167) // 166.5 rounds up
    expect(adPlayCostCents(10, 40)).toBe(0)
  })
})

describe('flightProblem (spec §8 schedule rules)', () => {
  it('refuses a start before now, then one within four hours of now', () => {
    expect(flightProblem({ startEpochMs: NOW - 1, endEpochMs: NOW + 9 * HOUR }, NOW)?.code).toBe(
      'campaign_start_past',
    )
    expect(
      flightProblem({ startEpochMs: NOW + 3 * HOUR, endEpochMs: NOW + 9 * HOUR }, NOW)?.code,
    ).toBe('campaign_start_too_soon')
    expect(
      flightProblem(
        { startEpochMs: NOW + CAMPAIGN_START_LEAD_MS, endEpochMs: NOW + 9 * HOUR },
        NOW,
      ),
    ).toBeNull()
  })

  it('needs the end after the start, and a flight of at most 92 days', () => {
    const start = NOW + 5 * HOUR
    expect(flightProblem({ startEpochMs: start, endEpochMs: start }, NOW)?.code).toBe(
      'campaign_end_before_start',
    )
    expect(flightProblem({ startEpochMs: start, endEpochMs: start + 93 * 24 * HOUR }, NOW)).toEqual(
      { code: 'campaign_flight_too_long', params: { days: 92 } },
    )
  })
  it('keeps a flight within a year of now for its start and two for its end, to the end of time', () => {
    const day = 24 * HOUR
    expect(
      flightProblem({ startEpochMs: NOW + 365 * day, endEpochMs: NOW + 366 * day }, NOW),
    ).toBeNull()
    for (const startEpochMs of [NOW + 365 * day + 1, Date.UTC(9999, 0, 1), 8_640_000_000_000_000]) {
      expect(flightProblem({ startEpochMs, endEpochMs: startEpochMs + day }, NOW)).toEqual({
        code: 'campaign_start_too_far',
        params: { days: 365 },
      })
    }
    expect(
      flightProblem({ startEpochMs: NOW + day, endEpochMs: NOW + 2 * 365 * day + 1 }, NOW),
    ).toEqual({ code: 'campaign_end_too_far', params: { days: 730 } })
  })
})

describe('budgetProblem (raised at any time, lowered down to spent + committed)', () => {
  it('allows down to exactly what is spent and committed, and says both otherwise', () => {
    expect(budgetProblem(500, { spentCents: 200, committedCents: 300 })).toBeNull()
    expect(budgetProblem(499, { spentCents: 200, committedCents: 300 })).toEqual({
      code: 'campaign_budget_below_spent',
      params: { spentCents: 200, committedCents: 300, budgetCents: 499 },
    })
  })
})

describe('the states', () => {
  it('fixes the schedule from Booked on, pauses only what plays, cancels what has not ended', () => {
    expect(mayChangeSchedule('Draft') && mayChangeSchedule('Proposed')).toBe(true)
    expect(
      ['Booked', 'Approved', 'Live', 'Paused'].some((s) => mayChangeSchedule(s as never)),
    ).toBe(false)
    expect(mayPause('Approved') && mayPause('Live') && !mayPause('Booked')).toBe(true)
    expect(mayCancel('Booked') && !mayCancel('Cancelled') && !mayCancel('Rejected')).toBe(true)
  })

  it('offers pause, resume and cancel exactly where they are allowed', () => {
    expect(Object.fromEntries(CAMPAIGN_STATES.map((s) => [s, campaignActions(s)]))).toEqual({
      Draft: ['cancel'],
      Proposed: ['cancel'],
      Booked: ['cancel'],
      Approved: ['pause', 'cancel'],
      Live: ['pause', 'cancel'],
      Paused: ['resume', 'cancel'],
      Completed: [],
      Rejected: [],
      Cancelled: [],
    })
    for (const state of CAMPAIGN_STATES) {
      expect(campaignActions(state).includes('pause')).toBe(mayPause(state))
      expect(campaignActions(state).includes('resume')).toBe(mayResume(state))
      expect(campaignActions(state).includes('cancel')).toBe(mayCancel(state))
    }
  })

  it('buys more plays on a raise only once approved, never past the plays a campaign may hold', () => {
    expect(['Approved', 'Live', 'Paused'].every((s) => buysMoreOnRaise(s as never))).toBe(true)
    expect(
      ['Draft', 'Proposed', 'Booked', 'Completed', 'Rejected', 'Cancelled'].some((s) =>
        buysMoreOnRaise(s as never),
      ),
    ).toBe(false)
    expect(playsLeftToHold(0)).toBe(MAX_PLAYS_PER_CAMPAIGN)
    expect(playsLeftToHold(MAX_PLAYS_PER_CAMPAIGN - 5)).toBe(5)
    expect(playsLeftToHold(MAX_PLAYS_PER_CAMPAIGN + 100)).toBe(0)
  })
})

describe('planPlays (what a budget buys)', () => {
  const billboard = (deviceId: string, cost: number, open: number) => ({
    deviceId,
    costCentsPerPlay: cost,
    impressionsPerPlay: cost * 2,
    openCells: cells(open),
  })

  it('shares the plays out evenly across billboards, whatever they cost, within the budget', () => {
    const plan = planPlays([billboard('a', 100, 1000), billboard('b', 300, 1000)], 10_000)
    expect(plan.lines.map((l) => l.plays.length)).toEqual([25, 25])
    expect(plan.totalCents).toBe(10_000)
    expect(plan.totalPlays).toBe(50)
    expect(plan.totalImpressions).toBe(25 * 200 + 25 * 600)
  })

  it('never spends more than the budget: the last cents buy what they can', () => {
    const plan = planPlays([billboard('a', 100, 1000), billboard('b', 300, 1000)], 10_350)
    expect(plan.totalCents).toBeLessThanOrEqual(10_350)
    // 25 each is 10,000; the 350 left buy three more of the cheaper one
    expect(plan.lines.map((l) => l.plays.length)).toEqual([28, 25])
    expect(plan.totalCents).toBe(28 * 100 + 25 * 300)
  })

  it('gives a full billboard’s share to the others', () => {
    const plan = planPlays([billboard('a', 100, 3), billboard('b', 100, 1000)], 2_000)
    expect(plan.lines.map((l) => l.plays.length)).toEqual([3, 17])
  })

  it('spreads each billboard’s plays evenly over its open cells', () => {
    const plan = planPlays([billboard('a', 100, 100)], 1_000)
    const starts = plan.lines[0]?.plays ?? []
    expect(starts).toHaveLength(10)
    const gaps = new Set(starts.slice(1).map((s, i) => s - (starts[i] as number)))
    expect([...gaps]).toEqual([10 * 30_000])
  })

  it('buys nothing with too small a budget, and stops at the most plays a campaign holds', () => {
    expect(planPlays([billboard('a', 100, 10)], 99).totalPlays).toBe(0)
    const capped = planPlays([billboard('a', 1, 1000), billboard('b', 1, 1000)], 100_000, 15)
    expect(capped.lines.map((l) => l.plays.length)).toEqual([8, 7])
  })
})

describe('proposalValidUntil', () => {
  it('holds 48 hours, never past the campaign’s start', () => {
    expect(proposalValidUntil(NOW, NOW + 100 * HOUR)).toBe(NOW + 48 * HOUR)
    expect(proposalValidUntil(NOW, NOW + 5 * HOUR)).toBe(NOW + 5 * HOUR)
  })
})
