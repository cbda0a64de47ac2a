import { describe, expect, it } from 'vitest'
import { localClock, proofCells, utcClock } from './proof-export'

describe('the proof-of-play export', () => {
  it("writes a play's times in UTC and on its billboard's clock, across a change of offset", () => {
    const paris = localClock('Europe/Paris')
    expect(paris(Date.UTC(2026, 10, 28, 23, 0, 5))).toBe('2026-11-29 00:00:05')
    // summer time ends on 25 October 2026 at 01:00 UTC
    expect(paris(Date.UTC(2026, 9, 25, 0, 59, 59))).toBe('2026-10-25 02:59:59')
    expect(paris(Date.UTC(2026, 9, 25, 1, 0, 0))).toBe('2026-10-25 02:00:00')
    expect(localClock('Asia/Kolkata')(Date.UTC(2026, 0, 1, 0, 0))).toBe('2026-01-01 05:30:00')
    expect(utcClock(Date.UTC(2026, 0, 1, 12, 30))).toBe('2026-01-01 12:30:00')
  })

  it('writes one row a play: billboard, both times, duration, what played and its proof', () => {
    const start = Date.UTC(2026, 10, 29, 9, 0)
    const cells = proofCells(
      {
        deviceId: 'paris-opera-1',
        timeZoneId: 'Europe/Paris',
        startEpochMs: start,
        endEpochMs: start + 15_000,
        kind: 'shout',
        orderGuid: 'o-1',
        campaignId: null,
        contentId: 'c-1',
        proofId: 'p-1',
        reportedAtEpochMs: start + 20_000,
      },
      localClock('Europe/Paris'),
    )
    expect(cells).toEqual([
      'paris-opera-1',
      'Europe/Paris',
      '2026-11-29 09:00:00',
      '2026-11-29 09:00:15',
      '2026-11-29 10:00:00',
      '2026-11-29 10:00:15',
      15,
      'shout',
      'o-1',
      '',
      'c-1',
      'player_report',
      'p-1',
      '2026-11-29 09:00:20',
    ])
  })
})
