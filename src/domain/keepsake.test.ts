import { describe, expect, it } from 'vitest'
import { keepsakeAiring, mayShowKeepsake } from './keepsake.ts'

describe('the keepsake page', () => {
  it('counts the proven plays and names the first', () => {
    const plays = [300, 100, 200].map((startedAtEpochMs) => ({ startedAtEpochMs }))
    expect(keepsakeAiring([{ startEpochMs: 50 }], plays)).toEqual({
      kind: 'played',
      count: 3,
      firstEpochMs: 100,
    })
  })

  it('says when it plays while nothing is proven', () => {
    expect(keepsakeAiring([{ startEpochMs: 900 }, { startEpochMs: 500 }], [])).toEqual({
      kind: 'upcoming',
      startEpochMs: 500,
    })
    expect(keepsakeAiring([], [])).toBeNull()
  })

  it('is shown for a confirmed order only', () => {
    expect(mayShowKeepsake('Confirmed')).toBe(true)
    for (const state of ['Processing', 'UnderReview', 'Failed', 'Cancelled'] as const) {
      expect(mayShowKeepsake(state)).toBe(false)
    }
  })
})
