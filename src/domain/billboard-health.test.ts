import { describe, expect, it } from 'vitest'
import {
  billboardState,
  clockCorrection,
  lastLocalDays,
  localDayBounds,
  measuredClockOffset,
  uptimePercent,
} from './billboard-health'

describe('the player clock against the server’s', () => {
  it('takes the server’s time at the middle of the round trip', () => {
    expect(
      measuredClockOffset({
        sentAtEpochMs: 1_000,
        receivedAtEpochMs: 1_200,
        serverEpochMs: 301_100,
      }),
    ).toBe(300_000)
  })

  it('corrects only beyond 2 s, and keeps a correction through jitter', () => {
    expect(clockCorrection(0, 1_900)).toBe(0)
    expect(clockCorrection(0, -2_500)).toBe(-2_500)
    expect(clockCorrection(0, 300_000)).toBe(300_000)
    expect(clockCorrection(300_000, 301_500)).toBe(300_000)
    expect(clockCorrection(300_000, 296_000)).toBe(296_000)
    // the player's clock was set right: the correction goes
    expect(clockCorrection(300_000, 150)).toBe(0)
  })
})

describe('billboardState (what the console says of a billboard)', () => {
  const options = { offlineMinutes: 10, smilRefreshMs: 300_000 }
  const now = 10_000_000
  const web = (agoMs: number) => ({ seenAtEpochMs: now - agoMs, source: 'web' as const })
  const smil = (agoMs: number) => ({ seenAtEpochMs: now - agoMs, source: 'smil' as const })
  it('never connected, playing, stale past two minutes late, offline after the setting', () => {
    expect(billboardState(null, now, options)).toEqual({ kind: 'never' })
    expect(billboardState(web(60_000), now, options).kind).toBe('playing')
    expect(billboardState(web(180_000), now, options).kind).toBe('playing')
    expect(billboardState(web(180_001), now, options)).toEqual({
      kind: 'stale',
      lastSeenEpochMs: now - 180_001,
    })
    expect(billboardState(web(600_000), now, options)).toEqual({
      kind: 'offline',
      sinceEpochMs: now - 600_000,
    })
  })
  it('gives a SMIL player its playlist’s refresh before it is late', () => {
    expect(billboardState(smil(299_000), now, options).kind).toBe('playing')
    expect(billboardState(smil(421_000), now, options).kind).toBe('stale')
    expect(billboardState(smil(600_000), now, options).kind).toBe('offline')
  })
})

describe("localDayBounds (the day of a billboard's plays)", () => {
  it('runs from local midnight to the next, 23 hours on the day clocks go forward', () => {
    const day = localDayBounds(Date.UTC(2027, 2, 28, 12), 'Europe/Paris')
    expect(day.fromEpochMs).toBe(Date.UTC(2027, 2, 27, 23))
    expect(day.toEpochMs - day.fromEpochMs).toBe(23 * 3_600_000)
  })
})

describe('a billboard’s last days and its uptime on each', () => {
  const H = 3_600_000
  it('lists seven local days, the one that loses an hour 23 hours long', () => {
    const now = Date.UTC(2027, 2, 29, 10) // Monday after Paris moved its clocks forward
    const days = lastLocalDays(now, 'Europe/Paris', 7)
    expect(days.map((d) => d.day)).toEqual([
      '2027-03-23',
      '2027-03-24',
      '2027-03-25',
      '2027-03-26',
      '2027-03-27',
      '2027-03-28',
      '2027-03-29',
    ])
    const sunday = days[5] as { fromEpochMs: number; toEpochMs: number }
    expect(sunday.toEpochMs - sunday.fromEpochMs).toBe(23 * H)
  })

  it('counts overlapping dark spells once, an open one until now, and today only until now', () => {
    const day = { fromEpochMs: 0, toEpochMs: 24 * H }
    const dark = [
      { fromEpochMs: 2 * H, toEpochMs: 5 * H },
      { fromEpochMs: 4 * H, toEpochMs: 8 * H },
    ]
    expect(uptimePercent(day, dark, 48 * H)).toBe(75)
    expect(uptimePercent(day, [{ fromEpochMs: 9 * H, toEpochMs: null }], 10 * H)).toBe(90)
    expect(uptimePercent(day, [], 10 * H)).toBe(100)
    expect(uptimePercent(day, [{ fromEpochMs: 0, toEpochMs: 60_000 }], 48 * H)).toBe(99)
    expect(uptimePercent({ fromEpochMs: 24 * H, toEpochMs: 48 * H }, [], 10 * H)).toBeNull()
  })
})
