import { describe, expect, it } from 'vitest'
import { playoutSegments } from './playout'

const MIN = 60_000
const T0 = Date.UTC(2027, 4, 7, 10, 0, 0)
const play = (fromS: number, toS: number, name: string) => ({
  name,
  startEpochMs: T0 + fromS * 1000,
  endEpochMs: T0 + toS * 1000,
})
/** The segments as [kind or name, start s, end s] from T0. */
const shape = (segments: ReturnType<typeof playoutSegments<ReturnType<typeof play>>>) =>
  segments.map((s) => [
    s.kind === 'play' ? s.item.name : 'house',
    (s.startEpochMs - T0) / 1000,
    (s.endEpochMs - T0) / 1000,
  ])

describe('playoutSegments (what a window shows, the house card between plays)', () => {
  it('fills the gaps with the house card and covers the window end to end', () => {
    const items = [play(30, 45, 'a'), play(255, 270, 'b')]
    expect(shape(playoutSegments(items, { fromEpochMs: T0, toEpochMs: T0 + 5 * MIN }))).toEqual([
      ['house', 0, 30],
      ['a', 30, 45],
      ['house', 45, 255],
      ['b', 255, 270],
      ['house', 270, 300],
    ])
  })

  it('cuts the house card at whole minutes of the wall clock, never longer than a minute', () => {
    const items = [play(30, 45, 'a'), play(255, 270, 'b')]
    const segments = playoutSegments(
      items,
      { fromEpochMs: T0 + 10_000, toEpochMs: T0 + 5 * MIN },
      { houseChunkMs: MIN, unitMs: 1000 },
    )
    expect(shape(segments)).toEqual([
      ['house', 10, 30],
      ['a', 30, 45],
      ['house', 45, 60],
      ['house', 60, 120],
      ['house', 120, 180],
      ['house', 180, 240],
      ['house', 240, 255],
      ['b', 255, 270],
      ['house', 270, 300],
    ])
    for (const s of segments) expect(s.endEpochMs - s.startEpochMs).toBeLessThanOrEqual(MIN)
  })

  it('clips plays to the window, starts an overlapping play where the one before ends, rounds to the unit', () => {
    const items = [play(-5, 10, 'before'), play(8.4, 20, 'overlap'), play(290, 305, 'after')]
    expect(
      shape(playoutSegments(items, { fromEpochMs: T0, toEpochMs: T0 + 5 * MIN }, { unitMs: 1000 })),
    ).toEqual([
      ['before', 0, 10],
      ['overlap', 10, 20],
      ['house', 20, 290],
      ['after', 290, 300],
    ])
  })

  it('shows the house card alone in an empty window', () => {
    expect(shape(playoutSegments([], { fromEpochMs: T0, toEpochMs: T0 + 90_000 }))).toEqual([
      ['house', 0, 90],
    ])
  })
})
