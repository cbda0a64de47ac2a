import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import {
  adPlayIndex,
  adPlayStart,
  airingAdPlays,
  carriedAt,
  catchUpStarts,
  type HeldAdPlay,
  MISSED_AFTER_MS,
  matchesAdPlay,
  missedPlays,
  stateAfterProof,
} from './ad-playout'
import {
  AD_PLAY_MS,
  type AdTimeBillboard,
  type AdTimeEvent,
  adCellsOfHour,
  localHours,
  openAdCells,
} from './ad-time'
import { planPlays } from './campaign'
import { slotsPerDevice } from './event'
import { playsOfSlot } from './schedule'
import { bandOfHour, type TimeOfDayBand } from './slots'

const at = (iso: string) => Temporal.Instant.from(iso).epochMilliseconds
const HOUR = 3_600_000

const event = (
  start: string,
  end: string,
  playsPerSlot = 4,
  adSharePercent: number | null = null,
): AdTimeEvent => ({
  startDateHourLocalInclusive: start,
  endDateHourLocalExclusive: end,
  slotWidthMS: 900_000,
  playsPerSlot,
  secondsPerShout: 15,
  adSharePercent,
})

const paris: AdTimeBillboard = {
  timeZoneId: 'Europe/Paris',
  events: [event('2027-05-07_00', '2027-05-09_00', 4, 30)],
}
const newYork: AdTimeBillboard = {
  timeZoneId: 'America/New_York',
  events: [event('2027-05-07_06', '2027-05-08_22', 6)],
}

const shoutPlaces = (billboard: AdTimeBillboard) =>
  billboard.events.flatMap((e) =>
    Array.from({ length: slotsPerDevice(e, billboard.timeZoneId) }, (_, n) =>
      playsOfSlot(e, billboard.timeZoneId, n),
    ).flat(),
  )

const localBand = (zone: string, epochMs: number): TimeOfDayBand =>
  bandOfHour(Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone).hour)

/** A campaign booked over two local days of each billboard, with these dayparts and this budget. */
function booked(dayparts: TimeOfDayBand[], budgetCents: number) {
  const flights = [
    { id: 'paris', billboard: paris, from: '2027-05-07T00:00:00+02:00', cost: 7 },
    { id: 'ny', billboard: newYork, from: '2027-05-07T00:00:00-04:00', cost: 5 },
  ].map((f) => {
    const startEpochMs = at(f.from)
    const endEpochMs = startEpochMs + 48 * HOUR
    const openCells = openAdCells(f.billboard, {
      startEpochMs,
      endEpochMs,
      dayparts,
      notBeforeEpochMs: 0,
      taken: new Set(),
    })
    return { ...f, startEpochMs, endEpochMs, openCells }
  })
  const plan = planPlays(
    flights.map((f) => ({
      deviceId: f.id,
      costCentsPerPlay: f.cost,
      impressionsPerPlay: 1,
      openCells: f.openCells,
    })),
    budgetCents,
  )
  const held = (deviceId: string, state: HeldAdPlay['state'] = 'Approved'): HeldAdPlay[] =>
    (plan.lines.find((l) => l.deviceId === deviceId)?.plays ?? []).map((start) => ({
      campaignId: 'c1',
      startEpochMs: start,
      endEpochMs: start + AD_PLAY_MS,
      state,
    }))
  return { flights, plan, held }
}

describe('a campaign on air: the plays a billboard shows', () => {
  const dayparts: TimeOfDayBand[] = ['Morning', 'Evening']
  const { flights, plan, held } = booked(dayparts, 20_000)

  it('shows exactly the plays the campaign bought, on two billboards over two days', () => {
    expect(plan.totalPlays).toBeGreaterThan(100)
    expect(plan.totalCents).toBeLessThanOrEqual(20_000)
    for (const f of flights) {
      const shown = airingAdPlays(f.billboard, held(f.id), {
        fromEpochMs: f.startEpochMs,
        toEpochMs: f.endEpochMs,
      })
      expect(shown.map((p) => p.startEpochMs)).toEqual(
        plan.lines.find((l) => l.deviceId === f.id)?.plays,
      )
    }
  })

  it('never puts a play over a shout’s place, sold or not, nor outside its dayparts', () => {
    for (const f of flights) {
      const places = shoutPlaces(f.billboard)
      const shown = airingAdPlays(f.billboard, held(f.id), {
        fromEpochMs: f.startEpochMs,
        toEpochMs: f.endEpochMs,
      })
      for (const play of shown) {
        expect(play.endEpochMs - play.startEpochMs).toBe(AD_PLAY_MS)
        const over = places.filter(
          (s) => s.startEpochMs < play.endEpochMs && play.startEpochMs < s.endEpochMs,
        )
        expect(over).toEqual([])
        expect(dayparts).toContain(localBand(f.billboard.timeZoneId, play.startEpochMs))
      }
    }
  })

  it('never takes more of an hour than the event’s share of its free time', () => {
    for (const f of flights) {
      const shown = airingAdPlays(f.billboard, held(f.id), {
        fromEpochMs: f.startEpochMs,
        toEpochMs: f.endEpochMs,
      })
      for (const hour of localHours(f.billboard.timeZoneId, f.startEpochMs, f.endEpochMs)) {
        const inHour = shown.filter(
          (p) => p.startEpochMs >= hour.startEpochMs && p.startEpochMs < hour.endEpochMs,
        ).length
        expect(inHour).toBeLessThanOrEqual(adCellsOfHour(f.billboard, hour).length)
      }
    }
    // Paris sells 30 % of an hour's free time: 4 shouts of 15 s a quarter leave 224 free cells → 67
    const hour = localHours(
      'Europe/Paris',
      at('2027-05-07T09:00:00+02:00'),
      at('2027-05-07T09:00:01+02:00'),
    )[0]
    expect(hour && adCellsOfHour(paris, hour).length).toBe(67)
  })

  it('shows only the window asked for, sorted, the house card holding the rest', () => {
    const f = flights[0] as (typeof flights)[number]
    const from = at('2027-05-07T09:10:00+02:00')
    const to = at('2027-05-07T09:40:00+02:00')
    const shown = airingAdPlays(f.billboard, held(f.id), { fromEpochMs: from, toEpochMs: to })
    expect(shown.length).toBeGreaterThan(0)
    expect(shown.every((p) => p.endEpochMs > from && p.startEpochMs < to)).toBe(true)
    const starts = shown.map((p) => p.startEpochMs)
    expect(starts).toEqual([...starts].sort((a, b) => a - b))
  })

  it('shows nothing of a campaign paused, booked but not approved, or ended', () => {
    const f = flights[0] as (typeof flights)[number]
    const window = { fromEpochMs: f.startEpochMs, toEpochMs: f.endEpochMs }
    for (const state of ['Paused', 'Booked', 'Cancelled', 'Completed', 'Rejected'] as const) {
      expect(airingAdPlays(f.billboard, held(f.id, state), window)).toEqual([])
    }
    expect(airingAdPlays(f.billboard, held(f.id, 'Live'), window)).toHaveLength(held(f.id).length)
  })

  it('drops a play a catalogue change has put on a shout’s place since the booking', () => {
    const f = flights[0] as (typeof flights)[number]
    // the event now plays each shout 12 times a slot: many booked cells now overlap a shout
    const changed: AdTimeBillboard = {
      timeZoneId: paris.timeZoneId,
      events: [event('2027-05-07_00', '2027-05-09_00', 12, 30)],
    }
    const shown = airingAdPlays(changed, held(f.id), {
      fromEpochMs: f.startEpochMs,
      toEpochMs: f.endEpochMs,
    })
    expect(shown.length).toBeLessThan(held(f.id).length)
    const places = shoutPlaces(changed)
    for (const play of shown) {
      expect(
        places.some((s) => s.startEpochMs < play.endEpochMs && play.startEpochMs < s.endEpochMs),
      ).toBe(false)
    }
  })
})

describe('a proof of an ad play', () => {
  const start = at('2027-05-07T09:00:45+02:00')
  const held = { campaignId: 'c1', startEpochMs: start, endEpochMs: start + AD_PLAY_MS }

  it('names the play by its 15-second cell', () => {
    expect(adPlayStart(adPlayIndex(start))).toBe(start)
    expect(adPlayIndex(start + AD_PLAY_MS)).toBe(adPlayIndex(start) + 1)
  })

  it('matches its play at about its time, and no other campaign’s or cell’s', () => {
    const proof = {
      campaignId: 'c1',
      playIndex: adPlayIndex(start),
      startedAtEpochMs: start + 900,
      endedAtEpochMs: start + AD_PLAY_MS + 900,
    }
    expect(matchesAdPlay(proof, held)).toBe(true)
    expect(matchesAdPlay({ ...proof, campaignId: 'c2' }, held)).toBe(false)
    expect(matchesAdPlay({ ...proof, playIndex: proof.playIndex + 1 }, held)).toBe(false)
    expect(matchesAdPlay({ ...proof, startedAtEpochMs: start + 3 * 60_000 }, held)).toBe(false)
    expect(matchesAdPlay({ ...proof, endedAtEpochMs: start - 1 }, held)).toBe(false)
  })

  it('puts an approved campaign on air, and leaves other states as they are', () => {
    expect(stateAfterProof('Approved')).toBe('Live')
    expect(stateAfterProof('Live')).toBe('Live')
    expect(stateAfterProof('Paused')).toBe('Paused')
  })
})

describe('a play the schedule carried', () => {
  const T = Date.UTC(2027, 4, 1, 10)
  const history = [
    { state: 'Draft', atEpochMs: T - 5000 },
    { state: 'Booked', atEpochMs: T - 4000 },
    { state: 'Approved', atEpochMs: T - 3000 },
    { state: 'Live', atEpochMs: T - 2000 },
    { state: 'Paused', atEpochMs: T },
    { state: 'Live', atEpochMs: T + 60_000 },
  ] as const

  it('is one whose campaign was approved or live at its start, not paused, not booked only', () => {
    expect(carriedAt(history, T - 4500)).toBe(false)
    expect(carriedAt(history, T - 3500)).toBe(false)
    expect(carriedAt(history, T - 2500)).toBe(true)
    expect(carriedAt(history, T - 1)).toBe(true)
    expect(carriedAt(history, T)).toBe(false)
    expect(carriedAt(history, T + 45_000)).toBe(false)
    expect(carriedAt(history, T + 60_000)).toBe(true)
    // before the campaign was made, or with no history at all
    expect(carriedAt(history, T - 10_000)).toBe(false)
    expect(carriedAt([], T)).toBe(false)
  })
})

describe('pacing: plays a dark billboard missed', () => {
  const now = at('2027-05-07T12:00:00+02:00')
  const plays = [
    { startEpochMs: now - 3 * HOUR, proven: true },
    { startEpochMs: now - 3 * HOUR + AD_PLAY_MS, proven: false },
    { startEpochMs: now - MISSED_AFTER_MS, proven: false },
    { startEpochMs: now - MISSED_AFTER_MS + 1, proven: false },
    { startEpochMs: now + HOUR, proven: false },
  ]

  it('gives up an unproven play only once its proofs had time to arrive', () => {
    expect(missedPlays(plays, now).map((p) => p.startEpochMs)).toEqual([
      now - 3 * HOUR + AD_PLAY_MS,
      now - MISSED_AFTER_MS,
    ])
  })

  const openCells = Array.from({ length: 100 }, (_, i) => now + HOUR + i * 60_000)

  it('catches up as many plays as were missed, spread over the time left', () => {
    const starts = catchUpStarts({
      missed: 4,
      openCells,
      costCentsPerPlay: 10,
      budgetCents: 1_000,
      spentCents: 100,
      committedCents: 500,
    })
    expect(starts).toEqual([openCells[12], openCells[37], openCells[62], openCells[87]])
  })

  it('never holds more than the budget pays for beside what is proven and held', () => {
    const starts = catchUpStarts({
      missed: 40,
      openCells,
      costCentsPerPlay: 10,
      budgetCents: 1_000,
      spentCents: 600,
      committedCents: 370,
    })
    expect(starts).toHaveLength(3)
    expect(600 + 370 + starts.length * 10).toBeLessThanOrEqual(1_000)
  })

  it('catches up nothing once the flight has no time left: the missed plays are not charged', () => {
    const input = { missed: 5, costCentsPerPlay: 10, budgetCents: 1_000, spentCents: 0 }
    expect(catchUpStarts({ ...input, openCells: [], committedCents: 0 })).toEqual([])
    expect(
      catchUpStarts({ ...input, openCells: openCells.slice(0, 2), committedCents: 0 }),
    ).toHaveLength(2)
    expect(catchUpStarts({ ...input, openCells, committedCents: 1_000 })).toEqual([])
  })
})
