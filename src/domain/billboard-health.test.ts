import { describe, expect, it } from 'vitest'
import {
  billboardState,
  clockCorrection,
  localDayBounds,
  measuredClockOffset,
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
