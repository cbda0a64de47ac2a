import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import {
  AD_PLAY_MS,
  type AdTimeBillboard,
  type AdTimeEvent,
  adCellsOfHour,
  adTimePieces,
  allAdCells,
  isAdCell,
  localHours,
  openAdCells,
  spreadEvenly,
} from './ad-time'
import { slotsPerDevice } from './event'
import { playsOfSlot } from './schedule'

const at = (iso: string) => Temporal.Instant.from(iso).epochMilliseconds
const PARIS = 'Europe/Paris'
const NY = 'America/New_York'
const HOUR = 3_600_000

const event = (
  start: string,
  end: string,
  pkg: Partial<Pick<AdTimeEvent, 'playsPerSlot' | 'secondsPerShout' | 'slotWidthMS'>> = {},
  adSharePercent: number | null = null,
): AdTimeEvent => ({
  startDateHourLocalInclusive: start,
  endDateHourLocalExclusive: end,
  slotWidthMS: pkg.slotWidthMS ?? 900_000,
  playsPerSlot: pkg.playsPerSlot ?? 4,
  secondsPerShout: pkg.secondsPerShout ?? 15,
  adSharePercent,
})

const hourAt = (zone: string, iso: string) => {
  const [hour] = localHours(zone, at(iso), at(iso) + 1)
  if (!hour) throw new Error('no hour')
  return hour
}

/** Every shout place (sold or not) of the event on the billboard. */
const allShoutPlaces = (billboard: AdTimeBillboard) =>
  billboard.events.flatMap((e) =>
    Array.from({ length: slotsPerDevice(e, billboard.timeZoneId) }, (_, n) =>
      playsOfSlot(e, billboard.timeZoneId, n),
    ).flat(),
  )

describe('localHours (the billboard’s wall-clock hours)', () => {
  it('gives 24 hours on an ordinary day, each starting on the hour in the zone', () => {
    const hours = localHours(
      PARIS,
      at('2027-05-07T00:00:00+02:00'),
      at('2027-05-08T00:00:00+02:00'),
    )
    expect(hours).toHaveLength(24)
    expect(hours.map((h) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => i))
    expect(hours.every((h) => h.endEpochMs - h.startEpochMs === HOUR)).toBe(true)
    expect(hours[0]?.date).toBe('2027-05-07')
  })

  it('skips the hour spring-forward removes, and counts the repeated fall-back hour twice', () => {
    const spring = localHours(NY, at('2027-03-14T00:00:00-05:00'), at('2027-03-15T00:00:00-04:00'))
    expect(spring).toHaveLength(23)
    expect(spring.map((h) => h.hour).includes(2)).toBe(false)
    const fall = localHours(NY, at('2027-11-07T00:00:00-04:00'), at('2027-11-08T00:00:00-05:00'))
    expect(fall).toHaveLength(25)
    expect(fall.filter((h) => h.hour === 1)).toHaveLength(2)
  })

  it('starts at the hour that holds the window’s start', () => {
    const hours = localHours(
      PARIS,
      at('2027-05-07T10:20:00+02:00'),
      at('2027-05-07T11:00:01+02:00'),
    )
    expect(hours.map((h) => h.hour)).toEqual([10, 11])
    expect(hours[0]?.startEpochMs).toBe(at('2027-05-07T10:00:00+02:00'))
  })

  it('names each hour as the zone’s wall clock does, half-hour zones and shifts too', () => {
    // March to November: both shifts of New York and of Lord Howe (half an hour), none in Kolkata
    const from = at('2027-03-01T00:20:00Z')
    const to = at('2027-11-10T00:00:00Z')
    for (const zone of [NY, 'Asia/Kolkata', 'Australia/Lord_Howe']) {
      // one wall-clock hour after another, each an hour of real time (Temporal's own arithmetic)
      let zoned = Temporal.Instant.fromEpochMilliseconds(from)
        .toZonedDateTimeISO(zone)
        .round({ smallestUnit: 'hour', roundingMode: 'floor' })
      const expected = []
      while (zoned.epochMilliseconds < to) {
        expected.push({
          startEpochMs: zoned.epochMilliseconds,
          endEpochMs: zoned.epochMilliseconds + HOUR,
          hour: zoned.hour,
          date: zoned.toPlainDate().toString(),
        })
        zoned = zoned.add({ hours: 1 })
      }
      expect(localHours(zone, from, to), zone).toEqual(expected)
    }
  })
})

describe('adCellsOfHour (the cells ads may take: a share of the hour’s free time)', () => {
  const mothersDay: AdTimeBillboard = {
    timeZoneId: PARIS,
    events: [event('2027-05-07_00', '2027-05-10_00')],
  }

  it('takes half the free time by default: 4 slots of 4 shouts leave 224 free cells, 112 for ads', () => {
    const cells = adCellsOfHour(mothersDay, hourAt(PARIS, '2027-05-07T18:30:00+02:00'))
    expect(cells).toHaveLength(112)
    // every other free cell: the house card keeps the ones between
    expect((cells[1] as number) - (cells[0] as number)).toBe(2 * AD_PLAY_MS)
  })

  it('never puts an ad over a shout’s place, whatever is sold later', () => {
    for (const pkg of [
      {},
      { playsPerSlot: 3, secondsPerShout: 20 },
      { playsPerSlot: 7, secondsPerShout: 10 },
      { slotWidthMS: 3_600_000, playsPerSlot: 5, secondsPerShout: 30 },
    ]) {
      const billboard = {
        timeZoneId: NY,
        events: [event('2027-05-07_00', '2027-05-08_00', pkg, 100)],
      }
      const places = allShoutPlaces(billboard)
      const cells = localHours(
        NY,
        at('2027-05-07T00:00:00-04:00'),
        at('2027-05-08T00:00:00-04:00'),
      ).flatMap((h) => adCellsOfHour(billboard, h))
      expect(cells.length).toBeGreaterThan(0)
      for (const start of cells) {
        const end = start + AD_PLAY_MS
        expect(places.some((p) => p.startEpochMs < end && p.endEpochMs > start)).toBe(false)
      }
    }
  })

  it('follows the event’s own share: 25 % of 224, none at 0 %, every free cell at 100 %', () => {
    const hour = hourAt(PARIS, '2027-05-08T09:00:00+02:00')
    const share = (percent: number) => ({
      timeZoneId: PARIS,
      events: [event('2027-05-07_00', '2027-05-10_00', {}, percent)],
    })
    expect(adCellsOfHour(share(25), hour)).toHaveLength(56)
    expect(adCellsOfHour(share(0), hour)).toHaveLength(0)
    expect(adCellsOfHour(share(100), hour)).toHaveLength(224)
  })

  it('counts the whole hour as free where no event covers the billboard (the default share)', () => {
    const hour = hourAt(PARIS, '2027-06-01T12:00:00+02:00')
    expect(adCellsOfHour(mothersDay, hour)).toHaveLength(120)
    expect(adCellsOfHour(mothersDay, hour, 10)).toHaveLength(24)
    expect(adCellsOfHour({ timeZoneId: PARIS, events: [] }, hour)).toHaveLength(120)
  })

  it('keeps out of both events’ shouts where two events overlap, at the smaller share', () => {
    const both: AdTimeBillboard = {
      timeZoneId: PARIS,
      events: [
        event('2027-05-07_00', '2027-05-10_00', {}, 100),
        event('2027-05-08_00', '2027-05-09_00', { slotWidthMS: 600_000, playsPerSlot: 2 }, 50),
      ],
    }
    const hour = hourAt(PARIS, '2027-05-08T12:00:00+02:00')
    const cells = adCellsOfHour(both, hour)
    const places = allShoutPlaces(both)
    for (const start of cells) {
      expect(places.some((p) => p.startEpochMs < start + AD_PLAY_MS && p.endEpochMs > start)).toBe(
        false,
      )
    }
    // 240 cells − 24 shouts' places (16 of the first, 12 of the second, 4 of them the same); half
    expect(cells).toHaveLength(108)
  })

  it('is the same whoever asks, so isAdCell accepts exactly the cells it gives', () => {
    const hour = hourAt(PARIS, '2027-05-07T21:00:00+02:00')
    const cells = adCellsOfHour(mothersDay, hour)
    expect(cells.every((c) => isAdCell(mothersDay, c))).toBe(true)
    expect(isAdCell(mothersDay, (cells[0] as number) + AD_PLAY_MS)).toBe(false)
    expect(isAdCell(mothersDay, (cells[0] as number) + 1)).toBe(false)
  })
})

describe('allAdCells (a proposal’s plays checked against today’s catalogue)', () => {
  it('says yes only when every start is an ad cell, as isAdCell says of each', () => {
    const billboard: AdTimeBillboard = {
      timeZoneId: NY,
      events: [event('2027-11-06_20', '2027-11-07_04', { playsPerSlot: 2 }, 30)],
    }
    const open = openAdCells(billboard, {
      startEpochMs: at('2027-11-06T18:00:00-04:00'),
      endEpochMs: at('2027-11-08T00:00:00-05:00'),
      dayparts: ['EarlyMorning', 'Morning', 'Afternoon', 'Evening'],
      notBeforeEpochMs: 0,
      taken: new Set(),
    })
    const some = spreadEvenly(open, 500)
    expect(some.every((start) => isAdCell(billboard, start))).toBe(true)
    expect(allAdCells(billboard, some)).toBe(true)
    expect(allAdCells(billboard, [])).toBe(true)
    for (const off of [some[0] as number, (some[300] as number) + 15_000, 5]) {
      expect(allAdCells(billboard, [...some, off])).toBe(isAdCell(billboard, off))
    }
  })
})

describe('openAdCells (what a campaign may still take on a billboard)', () => {
  const billboard: AdTimeBillboard = { timeZoneId: NY, events: [] }
  const flight = {
    startEpochMs: at('2027-05-07T00:00:00-04:00'),
    endEpochMs: at('2027-05-09T00:00:00-04:00'),
  }

  it('keeps to the dayparts on the billboard’s wall clock', () => {
    const cells = openAdCells(billboard, {
      ...flight,
      dayparts: ['Morning'],
      notBeforeEpochMs: 0,
      taken: new Set(),
    })
    // 9:00-12:00, two days, 120 cells an hour
    expect(cells).toHaveLength(2 * 3 * 120)
    const hours = new Set(
      cells.map((c) => Temporal.Instant.fromEpochMilliseconds(c).toZonedDateTimeISO(NY).hour),
    )
    expect([...hours].sort((a, b) => a - b)).toEqual([9, 10, 11])
  })

  it('keeps whole plays inside the flight, after notBefore, and leaves taken starts out', () => {
    const all = openAdCells(billboard, {
      startEpochMs: at('2027-05-07T09:10:00-04:00'),
      endEpochMs: at('2027-05-07T09:20:07-04:00'),
      dayparts: ['Morning'],
      notBeforeEpochMs: at('2027-05-07T09:15:00-04:00'),
      // the first ad cell from 9:15 (every other free cell is the house card's: 9:15:00 is one)
      taken: new Set([at('2027-05-07T09:15:15-04:00')]),
    })
    expect(all[0]).toBe(at('2027-05-07T09:15:45-04:00'))
    expect((all.at(-1) as number) + AD_PLAY_MS).toBeLessThanOrEqual(at('2027-05-07T09:20:07-04:00'))
    expect(all).toHaveLength(9)
  })
})

describe('adTimePieces (a long window worked a piece at a time)', () => {
  const billboard: AdTimeBillboard = {
    timeZoneId: 'Asia/Kolkata',
    events: [event('2027-03-01_18', '2027-03-20_23', { playsPerSlot: 3 }, 40)],
  }

  it('cuts the window into pieces end to end whose open cells are the whole window’s', () => {
    const request = {
      startEpochMs: at('2027-02-25T07:10:05Z'),
      endEpochMs: at('2027-04-02T13:00:10Z'),
      dayparts: ['Morning', 'Evening'] as const,
      notBeforeEpochMs: 0,
      taken: new Set([at('2027-03-02T04:30:15Z'), at('2027-03-10T14:00:00Z')]),
    }
    const whole = openAdCells(billboard, { ...request, dayparts: [...request.dayparts] })
    const pieces = adTimePieces(request.startEpochMs, request.endEpochMs, 3 * 24 * HOUR)
    expect(pieces.length).toBe(13)
    expect(pieces[0]?.[0]).toBe(request.startEpochMs)
    expect(pieces.at(-1)?.[1]).toBe(request.endEpochMs)
    for (let i = 1; i < pieces.length; i++) expect(pieces[i]?.[0]).toBe(pieces[i - 1]?.[1])
    const joined = pieces.flatMap(([startEpochMs, endEpochMs]) =>
      openAdCells(billboard, {
        ...request,
        dayparts: [...request.dayparts],
        startEpochMs,
        endEpochMs,
      }),
    )
    expect(joined.length).toBeGreaterThan(10_000)
    expect(joined).toEqual(whole)
    expect(adTimePieces(5, 5)).toEqual([])
  })
})

describe('spreadEvenly', () => {
  it('picks evenly, never more than there is', () => {
    expect(spreadEvenly([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 5)).toEqual([1, 3, 5, 7, 9])
    expect(spreadEvenly([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 2)).toEqual([2, 7])
    expect(spreadEvenly([0, 1, 2], 7)).toEqual([0, 1, 2])
    expect(spreadEvenly([0, 1, 2], 0)).toEqual([])
  })
})
