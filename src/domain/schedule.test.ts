import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import { CAMPAIGN_START_LEAD_MS } from './campaign'
import { itemAt, mergeSchedule, nextChangeAt, offsetSeconds } from './playout'
import {
  DEFAULT_SCHEDULE_WINDOW_MS,
  hourlyScheduleWindow,
  houseEventOf,
  houseLocale,
  MAX_SCHEDULE_WINDOW_MS,
  matchesScheduledPlay,
  mayPlay,
  packageFitsSlot,
  playHasAired,
  playsOfSlot,
  SMIL_HOLD_AFTER_MS,
  SMIL_HOLD_BEFORE_MS,
  SMIL_HOLD_MAX_MS,
  schedulePlays,
  scheduleWindow,
  slotAiring,
  slotRangeOfWindow,
  smilFeedHeld,
  smilScheduleWindow,
} from './schedule'
import { PURCHASE_CUTOFF_MS, slotNumberAt, slotStartEpochMs } from './slots'

const at = (iso: string) => Temporal.Instant.from(iso).epochMilliseconds
const PARIS = 'Europe/Paris'
const NY = 'America/New_York'
const event = (start: string, end: string, playsPerSlot = 4, secondsPerShout = 15) => ({
  startDateHourLocalInclusive: start,
  endDateHourLocalExclusive: end,
  slotWidthMS: 900_000,
  playsPerSlot,
  secondsPerShout,
})

describe('playsOfSlot (evenly spread plays of a sold slot)', () => {
  it('plays 4 times, every 225 s from the slot start, 15 s each', () => {
    const e = event('2027-05-07_00', '2027-05-10_00')
    // slot 72 starts at 18:00 Paris time (UTC+2 in May)
    const plays = playsOfSlot(e, PARIS, 72)
    expect(plays.map((p) => new Date(p.startEpochMs).toISOString())).toEqual([
      '2027-05-07T16:00:00.000Z',
      '2027-05-07T16:03:45.000Z',
      '2027-05-07T16:07:30.000Z',
      '2027-05-07T16:11:15.000Z',
    ])
    expect(plays.every((p) => p.endEpochMs - p.startEpochMs === 15_000)).toBe(true)
    expect(plays.map((p) => p.playIndex)).toEqual([0, 1, 2, 3])
  })

  it('follows playsPerSlot and secondsPerShout', () => {
    const e = event('2027-05-07_00', '2027-05-10_00', 3, 20)
    const plays = playsOfSlot(e, NY, 0)
    expect(plays).toHaveLength(3)
    expect(plays[0]?.startEpochMs).toBe(at('2027-05-07T04:00:00Z'))
    expect(plays[1]?.startEpochMs).toBe(at('2027-05-07T04:05:00Z'))
    expect(plays[2]?.endEpochMs).toBe(at('2027-05-07T04:10:20Z'))
  })

  it('keeps real elapsed time across spring-forward night in Paris (23-hour day)', () => {
    // 2027-03-28: clocks go from 02:00 to 03:00. The event starts at midnight (UTC+1).
    const e = event('2027-03-28_00', '2027-03-29_00')
    // slot 8 starts 2 h of real time after midnight: 03:00 on the wall, 01:00Z
    const plays = playsOfSlot(e, PARIS, 8)
    expect(plays[0]?.startEpochMs).toBe(at('2027-03-28T01:00:00Z'))
    expect(plays[3]?.startEpochMs).toBe(at('2027-03-28T01:11:15Z'))
    // and the play's slot is that slot again by the clock
    expect(slotNumberAt(e, PARIS, plays[3]?.startEpochMs ?? 0)).toBe(8)
  })

  it('plays both repeated hours of fall-back night in New York (25-hour day)', () => {
    // 2027-11-07: 02:00 EDT goes back to 01:00 EST. Slots 4 and 8 both start at 01:00 on the wall.
    const e = event('2027-11-07_00', '2027-11-08_00')
    const first = playsOfSlot(e, NY, 4)[0]?.startEpochMs
    const second = playsOfSlot(e, NY, 8)[0]?.startEpochMs
    expect(first).toBe(at('2027-11-07T05:00:00Z'))
    expect(second).toBe(at('2027-11-07T06:00:00Z'))
    expect(second).toBe(slotStartEpochMs(e, NY, 8))
  })
})

describe('packageFitsSlot (catalogue-format: plays × seconds fit in the slot)', () => {
  it('accepts the defaults and a slot filled exactly, refuses more', () => {
    expect(packageFitsSlot({ slotWidthMS: 900_000, playsPerSlot: 4, secondsPerShout: 15 })).toBe(
      true,
    )
    expect(packageFitsSlot({ slotWidthMS: 900_000, playsPerSlot: 60, secondsPerShout: 15 })).toBe(
      true,
    )
    expect(packageFitsSlot({ slotWidthMS: 900_000, playsPerSlot: 61, secondsPerShout: 15 })).toBe(
      false,
    )
    expect(packageFitsSlot({ slotWidthMS: 900_000, playsPerSlot: 0, secondsPerShout: 15 })).toBe(
      false,
    )
    expect(packageFitsSlot({ slotWidthMS: 900_000, playsPerSlot: 1.5, secondsPerShout: 15 })).toBe(
      false,
    )
  })
})

describe('mayPlay (only Confirmed orders play)', () => {
  it('plays Confirmed only', () => {
    expect(mayPlay('Confirmed')).toBe(true)
    for (const state of ['Processing', 'UnderReview', 'Failed', 'Cancelled'] as const) {
      expect(mayPlay(state), state).toBe(false)
    }
  })
})

describe('schedulePlays', () => {
  const e = event('2027-05-07_00', '2027-05-10_00')
  const sold = [
    { orderGuid: 'b', slotNumber: 73, content: 'clip' },
    { orderGuid: 'a', slotNumber: 72, content: 'photo' },
    { orderGuid: 'c', slotNumber: 9999, content: 'outside the event' },
  ]
  it('lists the plays overlapping the window, sorted by start, with their content', () => {
    const from = at('2027-05-07T16:05:00Z')
    const to = at('2027-05-07T16:16:00Z')
    const items = schedulePlays({
      event: e,
      timeZoneId: PARIS,
      sold,
      fromEpochMs: from,
      toEpochMs: to,
    })
    expect(items.map((i) => `${i.orderGuid}:${i.slotNumber}:${i.playIndex}`)).toEqual([
      'a:72:2',
      'a:72:3',
      'b:73:0',
    ])
    expect(items[2]?.content).toBe('clip')
  })

  it('includes a play that started before the window and still runs', () => {
    const from = at('2027-05-07T16:00:10Z')
    const items = schedulePlays({
      event: e,
      timeZoneId: PARIS,
      sold,
      fromEpochMs: from,
      toEpochMs: from + 1000,
    })
    expect(items.map((i) => i.playIndex)).toEqual([0])
  })

  it('narrows the slots to ask for from the window', () => {
    const start = at('2027-05-06T22:00:00Z')
    expect(
      slotRangeOfWindow(e, start, at('2027-05-07T16:05:00Z'), at('2027-05-07T16:16:00Z')),
    ).toEqual({
      first: 71,
      last: 73,
    })
  })
})

describe('scheduleWindow (api-v1: now → now + 24 h by default, at most 48 h)', () => {
  const now = at('2027-05-07T10:00:00Z')
  it('defaults to the next 24 hours', () => {
    expect(scheduleWindow({}, now)).toEqual({
      fromEpochMs: now,
      toEpochMs: now + DEFAULT_SCHEDULE_WINDOW_MS,
    })
  })
  it('takes a window up to 48 hours and refuses a longer or reversed one', () => {
    expect(
      scheduleWindow({ fromEpochMs: now, toEpochMs: now + MAX_SCHEDULE_WINDOW_MS }, now),
    ).toEqual({ fromEpochMs: now, toEpochMs: now + MAX_SCHEDULE_WINDOW_MS })
    expect(
      scheduleWindow({ fromEpochMs: now, toEpochMs: now + MAX_SCHEDULE_WINDOW_MS + 1 }, now),
    ).toEqual({ problem: 'window_too_long' })
    expect(scheduleWindow({ fromEpochMs: now, toEpochMs: now }, now)).toEqual({
      problem: 'to_before_from',
    })
  })
})

describe('hourlyScheduleWindow (a player asks the same window all hour)', () => {
  it('is the same from the first to the last millisecond of an hour, and moves at the next', () => {
    const hour = at('2027-05-07T10:00:00Z')
    const window = { fromEpochMs: hour, toEpochMs: hour + 25 * 3_600_000 }
    expect(hourlyScheduleWindow(hour)).toEqual(window)
    expect(hourlyScheduleWindow(hour + 3_599_999)).toEqual(window)
    expect(hourlyScheduleWindow(hour + 3_600_000).fromEpochMs).toBe(hour + 3_600_000)
    expect(scheduleWindow(window, hour + 3_599_999)).toEqual(window)
  })
})

describe('smilScheduleWindow (a playlist that changes only when what is sold does, and twice a day)', () => {
  it('starts at the last 00:00 or 12:00 UTC and runs 36 hours when no start is asked', () => {
    const noon = at('2027-05-07T12:00:00Z')
    for (const now of [noon, noon + 1, noon + 11 * 3_600_000 + 59 * 60_000 + 59_999]) {
      expect(smilScheduleWindow({}, now)).toEqual({
        fromEpochMs: noon,
        toEpochMs: noon + 36 * 3_600_000,
      })
    }
    expect(smilScheduleWindow({}, noon + 12 * 3_600_000)).toEqual({
      fromEpochMs: noon + 12 * 3_600_000,
      toEpochMs: noon + 48 * 3_600_000,
    })
  })
  it('keeps an asked window as it is, with the same limits', () => {
    const now = at('2027-05-07T10:20:00Z')
    expect(smilScheduleWindow({ fromEpochMs: now, toEpochMs: now + 60_000 }, now)).toEqual({
      fromEpochMs: now,
      toEpochMs: now + 60_000,
    })
    expect(smilScheduleWindow({ toEpochMs: now + 49 * 3_600_000 }, now)).toEqual({
      problem: 'window_too_long',
    })
  })
})

describe('houseLocale (the house card speaks the billboard country)', () => {
  it('maps France to fr, Germany to de, others to en', () => {
    expect(houseLocale('France')).toBe('fr')
    expect(houseLocale(' germany ')).toBe('de')
    expect(houseLocale('DE')).toBe('de')
    expect(houseLocale('United Kingdom')).toBe('en')
    expect(houseLocale('United States')).toBe('en')
  })
})

describe('matchesScheduledPlay (proof of play)', () => {
  const scheduled = {
    orderGuid: 'a',
    slotNumber: 72,
    playIndex: 1,
    startEpochMs: 1_000_000,
    endEpochMs: 1_015_000,
  }
  const report = {
    orderGuid: 'a',
    slotNumber: 72,
    playIndex: 1,
    startedAtEpochMs: 1_000_400,
    endedAtEpochMs: 1_015_300,
  }
  it('accepts the scheduled play at about its time', () => {
    expect(matchesScheduledPlay(report, scheduled)).toBe(true)
  })
  it('refuses another order, slot or play, a time far off, or an end before the start', () => {
    expect(matchesScheduledPlay({ ...report, orderGuid: 'b' }, scheduled)).toBe(false)
    expect(matchesScheduledPlay({ ...report, slotNumber: 73 }, scheduled)).toBe(false)
    expect(matchesScheduledPlay({ ...report, playIndex: 2 }, scheduled)).toBe(false)
    expect(
      matchesScheduledPlay({ ...report, startedAtEpochMs: 1_000_000 + 3 * 3_600_000 }, scheduled),
    ).toBe(false)
    expect(
      matchesScheduledPlay({ ...report, endedAtEpochMs: report.startedAtEpochMs - 1 }, scheduled),
    ).toBe(false)
  })
})

describe('playHasAired (proof of play)', () => {
  const report = { startedAtEpochMs: 1_000_400, endedAtEpochMs: 1_015_300 }
  const skew = 120_000
  it('accepts a proof once the play has ended, and one a billboard sends with its clock a little ahead', () => {
    expect(playHasAired(report, 1_000_000, 1_016_000, skew)).toBe(true)
    expect(playHasAired(report, 1_000_000, 1_015_300 - skew, skew)).toBe(true)
  })
  it('refuses a proof of a play that has not aired, or that ends in the future', () => {
    // the play starts in ten minutes
    expect(playHasAired(report, 1_000_000, 1_000_000 - 600_000, skew)).toBe(false)
    expect(playHasAired(report, 1_000_000, 1_015_300 - skew - 1, skew)).toBe(false)
    expect(
      playHasAired({ ...report, startedAtEpochMs: 900_000 }, 1_000_000, 1_000_000 - skew - 1, skew),
    ).toBe(false)
  })
})

describe('the player timeline (playout.ts)', () => {
  const items = [
    { id: 'a', startEpochMs: 100, endEpochMs: 115 },
    { id: 'b', startEpochMs: 200, endEpochMs: 215 },
    { id: 'c', startEpochMs: 300, endEpochMs: 315 },
  ]
  it('finds what plays at an instant, or nothing between plays', () => {
    expect(itemAt(items, 99)).toBeNull()
    expect(itemAt(items, 100)?.id).toBe('a')
    expect(itemAt(items, 114)?.id).toBe('a')
    expect(itemAt(items, 115)).toBeNull()
    expect(itemAt(items, 314)?.id).toBe('c')
    expect(itemAt([], 5)).toBeNull()
  })
  it('tells when the screen next changes, and how far into a play it is', () => {
    expect(nextChangeAt(items, 0)).toBe(100)
    expect(nextChangeAt(items, 100)).toBe(115)
    expect(nextChangeAt(items, 115)).toBe(200)
    expect(nextChangeAt(items, 315)).toBeNull()
    expect(offsetSeconds(items[0] as (typeof items)[number], 110)).toBeCloseTo(0.01)
  })
  it('replaces the fetched window, keeps what lies outside it, forgets the past', () => {
    const kept = [
      { id: 'old', startEpochMs: 10, endEpochMs: 20 },
      { id: 'cancelled', startEpochMs: 150, endEpochMs: 165 },
      { id: 'later', startEpochMs: 900, endEpochMs: 915 },
    ]
    const merged = mergeSchedule(kept, { fromEpochMs: 100, toEpochMs: 500, items }, 50)
    expect(merged.map((i) => i.id)).toEqual(['a', 'b', 'c', 'later'])
  })
})

describe('houseEventOf (the event a billboard of several events advertises)', () => {
  const long = { slug: 'summer', ...event('2027-06-01_00', '2027-09-01_00') }
  const short = { slug: 'fete', ...event('2027-06-21_00', '2027-06-22_00') }
  const later = { slug: 'autumn', ...event('2027-10-01_00', '2027-10-10_00') }
  const all = [long, short, later]
  it('takes the event live at the instant, the one that started last when several are', () => {
    expect(houseEventOf(all, PARIS, at('2027-07-01T12:00:00Z'))?.slug).toBe('summer')
    expect(houseEventOf(all, PARIS, at('2027-06-21T12:00:00Z'))?.slug).toBe('fete')
  })
  it('else the next to start, else the last to end, else none', () => {
    expect(houseEventOf(all, PARIS, at('2027-09-15T12:00:00Z'))?.slug).toBe('autumn')
    expect(houseEventOf(all, PARIS, at('2027-12-01T12:00:00Z'))?.slug).toBe('autumn')
    expect(houseEventOf([long, short], PARIS, at('2027-12-01T12:00:00Z'))?.slug).toBe('summer')
    expect(houseEventOf([], PARIS, at('2027-12-01T12:00:00Z'))).toBeNull()
  })
  it('reads event hours in the billboard zone: a Paris midnight start is 22:00 UTC in summer', () => {
    expect(houseEventOf([short], PARIS, at('2027-06-20T21:59:59Z'))?.slug).toBe('fete')
    expect(houseEventOf([long, short], PARIS, at('2027-06-20T22:00:00Z'))?.slug).toBe('fete')
    expect(houseEventOf([long, short], PARIS, at('2027-06-20T21:59:59Z'))?.slug).toBe('summer')
  })
})

describe('slotAiring (what the confirmation page says of a slot)', () => {
  const slot = { startEpochMs: 1_000_000, endEpochMs: 1_900_000 }
  const proof = (playIndex: number, startedAtEpochMs: number) => ({ playIndex, startedAtEpochMs })
  it('is upcoming before the slot and on air while it runs', () => {
    expect(slotAiring(slot, [], 4, 999_999)).toEqual({ kind: 'upcoming' })
    expect(slotAiring(slot, [], 4, 1_000_000)).toEqual({ kind: 'on-air' })
    expect(slotAiring(slot, [proof(0, 1_000_010)], 4, 1_899_999)).toEqual({ kind: 'on-air' })
  })
  it('counts the proven plays once the slot is over, or once every play is proven', () => {
    expect(slotAiring(slot, [proof(1, 1_225_000), proof(0, 1_000_010)], 4, 1_900_000)).toEqual({
      kind: 'played',
      played: 2,
      firstAtEpochMs: 1_000_010,
    })
    expect(slotAiring(slot, [], 4, 2_000_000)).toEqual({
      kind: 'played',
      played: 0,
      firstAtEpochMs: null,
    })
    const all = [0, 1, 2, 3].map((i) => proof(i, 1_000_000 + i * 225_000))
    expect(slotAiring(slot, all, 4, 1_700_000)).toMatchObject({ kind: 'played', played: 4 })
  })
})

describe('a changed SMIL document waits for the sold play on screen', () => {
  const play = { startEpochMs: 100_000, endEpochMs: 115_000 }
  it('holds it from just before a sold play begins until just after it ends', () => {
    expect(smilFeedHeld([play], play.startEpochMs - SMIL_HOLD_BEFORE_MS - 1)).toBe(false)
    expect(smilFeedHeld([play], play.startEpochMs - SMIL_HOLD_BEFORE_MS)).toBe(true)
    expect(smilFeedHeld([play], play.startEpochMs + 7_000)).toBe(true)
    expect(smilFeedHeld([play], play.endEpochMs + SMIL_HOLD_AFTER_MS - 1)).toBe(true)
    expect(smilFeedHeld([play], play.endEpochMs + SMIL_HOLD_AFTER_MS)).toBe(false)
    expect(smilFeedHeld([], play.startEpochMs)).toBe(false)
  })
  it('holds it through plays back to back, but not through a stretch longer than an hour', () => {
    const at = (startEpochMs: number) => ({ startEpochMs, endEpochMs: startEpochMs + 15_000 })
    const close = [at(0), at(20_000), at(40_000), at(1_000_000)]
    expect(smilFeedHeld(close, 30_000)).toBe(true)
    expect(smilFeedHeld(close, 57_000)).toBe(true)
    expect(smilFeedHeld(close, 60_000)).toBe(false)
    expect(smilFeedHeld(close, 1_000_000)).toBe(true)
    const packed = Array.from({ length: 300 }, (_, i) => at(i * 15_000))
    expect(SMIL_HOLD_MAX_MS).toBeLessThan(300 * 15_000)
    expect(smilFeedHeld(packed, 60_000)).toBe(false)
    expect(smilFeedHeld(packed.slice(0, 100), 60_000)).toBe(true)
  })
  it('holds it for far less than a sale’s shortest lead, so a sale never waits past its first play', () => {
    expect(SMIL_HOLD_MAX_MS + 300_000).toBeLessThan(
      Math.min(PURCHASE_CUTOFF_MS, CAMPAIGN_START_LEAD_MS),
    )
  })
})
