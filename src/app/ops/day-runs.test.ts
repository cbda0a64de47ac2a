import { describe, expect, it } from 'vitest'
import type { OpsScheduleDay } from '../../contract/ops/billboards'
import { runsOf } from './day-runs'

const DAY = Date.UTC(2026, 10, 25)
const MIN = 60_000
const play = (minute: number, proof: 'proved' | 'missing' | 'upcoming', playIndex = 0) => ({
  playIndex,
  startEpochMs: DAY + minute * MIN,
  endEpochMs: DAY + minute * MIN + 15_000,
  proof,
  provedAtEpochMs: null,
})

function day(more: Partial<OpsScheduleDay> = {}): OpsScheduleDay {
  return {
    deviceId: 'b',
    location: 'Opera',
    timeZoneId: 'UTC',
    day: '2026-11-25',
    previousDay: '2026-11-24',
    nextDay: '2026-11-26',
    dayStartEpochMs: DAY,
    dayEndEpochMs: DAY + 1440 * MIN,
    generatedAtEpochMs: DAY,
    playerLink: { active: true, createdAtEpochMs: DAY },
    events: [
      {
        slug: 'e',
        name: 'E',
        playsPerSlot: 4,
        secondsPerShout: 15,
        slots: [
          {
            slotNumber: 40,
            startEpochMs: DAY + 600 * MIN,
            endEpochMs: DAY + 615 * MIN,
            status: 'sold',
            order: { guid: 'abcdef1234', state: 'Confirmed', email: 'a@b.c', content: null },
            plays: [play(600, 'proved', 0), play(603, 'proved', 1), play(606, 'missing', 2)],
          },
          {
            slotNumber: 41,
            startEpochMs: DAY + 615 * MIN,
            endEpochMs: DAY + 630 * MIN,
            status: 'free',
            order: null,
            plays: [],
          },
        ],
      },
    ],
    adPlays: [
      { campaignId: 'c', campaignName: 'Coats', ...play(700, 'upcoming') },
      { campaignId: 'c', campaignName: 'Coats', ...play(702, 'upcoming') },
    ],
    totals: { slots: 2, sold: 1, held: 0, free: 1, proved: 2, missing: 1 },
    ...more,
  }
}

describe('a billboard’s day drawn as runs', () => {
  it('joins close plays of one shout and proof, keeps a play without proof apart', () => {
    const runs = runsOf(day()).filter((r) => r.kind === 'shout')
    expect(runs.map((r) => [r.plays, r.proof, r.what])).toEqual([
      [2, 'proved', 'abcdef12 a@b.c'],
      [1, 'missing', 'abcdef12 a@b.c'],
    ])
    expect(runs[0]?.startEpochMs).toBe(DAY + 600 * MIN)
    expect(runs[0]?.endEpochMs).toBe(DAY + 603 * MIN + 15_000)
  })

  it('draws campaigns on their own and the house card in every gap, to the day’s end', () => {
    const runs = runsOf(day())
    const ads = runs.filter((r) => r.kind === 'ad')
    expect(ads.map((r) => [r.plays, r.what, r.proof])).toEqual([[2, 'Coats', 'upcoming']])
    const house = runs.filter((r) => r.kind === 'house')
    expect(house[0]?.startEpochMs).toBe(DAY)
    expect(house[0]?.endEpochMs).toBe(DAY + 600 * MIN)
    expect(house[house.length - 1]?.endEpochMs).toBe(DAY + 1440 * MIN)
    // no house run overlaps a play
    for (const h of house)
      for (const r of runs.filter((x) => x.kind !== 'house'))
        expect(h.endEpochMs <= r.startEpochMs || h.startEpochMs >= r.endEpochMs).toBe(true)
  })

  it('is all house card on a day with nothing sold', () => {
    const runs = runsOf(day({ events: [], adPlays: [] }))
    expect(runs).toEqual([
      {
        kind: 'house',
        startEpochMs: DAY,
        endEpochMs: DAY + 1440 * MIN,
        plays: 0,
        what: null,
        proof: null,
      },
    ])
  })
})
