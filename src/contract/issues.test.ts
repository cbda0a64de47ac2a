import { describe, expect, it } from 'vitest'
import { parseWithProblems } from './issues'
import { HeartbeatSchema } from './player'
import { englishOf } from './problems'

// A billboard's heartbeat carries what it shows as a union of three shapes: a refusal names the
// field inside the shape its `kind` chose, or the kinds there are, never "Expected Object but
// received Object".

const beat = {
  sentAtEpochMs: 1_800_000_000_000,
  clockCorrectionMs: 0,
  window: null,
  files: { cached: 0, failed: 0 },
  pendingPlays: 0,
  version: '1.0.0',
  screen: { widthPx: 1920, heightPx: 1080 },
}

const refusal = (showing: unknown) => {
  const parsed = parseWithProblems(HeartbeatSchema, { ...beat, showing })
  return parsed.success ? [] : parsed.problems.map(englishOf)
}

describe("a refused union's problems", () => {
  it('are those of the shape its discriminator names', () => {
    expect(refusal({ kind: 'shout', orderGuid: 'g1', slotNumber: 'one', playIndex: 0 })).toEqual([
      'showing.slotNumber: Invalid type: Expected number but received "one"',
    ])
    expect(refusal({ kind: 'shout', orderGuid: 'g1', slotNumber: 1 })).toEqual([
      'showing.playIndex: is required',
    ])
    expect(refusal({ kind: 'house', extra: true })).toEqual([
      'showing.extra: is not an allowed field',
    ])
  })

  it('name the values a discriminator may take when it names none', () => {
    const parsed = parseWithProblems(HeartbeatSchema, { ...beat, showing: { kind: 'film' } })
    expect(parsed.success ? null : parsed.problems).toEqual([
      {
        code: 'field_not_one_of',
        params: { field: 'showing.kind', expected: '"shout", "ad", "house"' },
      },
    ])
    expect(refusal({ kind: 'film' })).toEqual([
      'showing.kind: must be one of "shout", "ad", "house"',
    ])
  })

  it('accept every shape of the union', () => {
    expect(refusal({ kind: 'shout', orderGuid: 'g1', slotNumber: 1, playIndex: 0 })).toEqual([])
    expect(refusal({ kind: 'ad', campaignId: 'c1', playIndex: 2 })).toEqual([])
    expect(refusal({ kind: 'house' })).toEqual([])
  })
})
