import { describe, expect, it } from 'vitest'
import {
  lastDecidableSlot,
  makeGoodDueAt,
  makeGoodOf,
  makeGoodOfSlots,
  playOutcome,
  slotDecisions,
  slotShares,
} from './make-good'

const proofs = (slot: number, indexes: number[]) =>
  indexes.map((playIndex) => ({ slotNumber: slot, playIndex }))

describe('slotShares (what the shopper paid for each slot)', () => {
  it('shares the total evenly, the odd cents to the first slots', () => {
    expect([...slotShares(10_001, [7, 3, 5])]).toEqual([
      [3, 3_334],
      [5, 3_334],
      [7, 3_333],
    ])
    expect([...slotShares(0, [1])]).toEqual([[1, 0]])
  })
})

describe('makeGoodOf (a shout that did not play is not paid for)', () => {
  const order = { totalCents: 8_000, slotNumbers: [10, 11], playsPerSlot: 4 }
  it('refunds nothing when every play is proven', () => {
    expect(
      makeGoodOf({ ...order, proofs: [...proofs(10, [0, 1, 2, 3]), ...proofs(11, [0, 1, 2, 3])] }),
    ).toEqual({
      playsDue: 8,
      playsProven: 8,
      slots: [],
      refundCents: 0,
    })
  })
  it('refunds a quarter of a slot for one of its four plays missed', () => {
    expect(
      makeGoodOf({ ...order, proofs: [...proofs(10, [0, 1, 3]), ...proofs(11, [0, 1, 2, 3])] }),
    ).toEqual({
      playsDue: 8,
      playsProven: 7,
      slots: [{ slotNumber: 10, missedPlayIndexes: [2], refundCents: 1_000 }],
      refundCents: 1_000,
    })
  })
  it('refunds all that was paid when nothing played, to the cent', () => {
    const made = makeGoodOf({
      totalCents: 9_999,
      slotNumbers: [1, 2, 3],
      playsPerSlot: 4,
      proofs: [],
    })
    expect(made.refundCents).toBe(9_999)
    expect(made.playsProven).toBe(0)
  })
  it('never refunds more than a slot’s share, rounding a part down', () => {
    const made = makeGoodOf({
      totalCents: 1_001,
      slotNumbers: [4],
      playsPerSlot: 3,
      proofs: proofs(4, [0, 2]),
    })
    expect(made.refundCents).toBe(333)
    // a duplicate proof or one of a slot not bought counts for nothing
    expect(
      makeGoodOf({ ...order, proofs: [...proofs(10, [0, 0, 0, 0]), ...proofs(12, [0, 1, 2, 3])] })
        .playsProven,
    ).toBe(1)
  })
  it('refunds slots decided at different times as much as decided together', () => {
    const odd = {
      totalCents: 8_001,
      slotNumbers: [10, 11],
      playsPerSlot: 4,
      proofs: proofs(11, [0]),
    }
    const first = slotDecisions({ ...odd, deciding: [10] })
    const second = slotDecisions({ ...odd, deciding: [11] })
    // the odd cent is the first slot's share, whichever is decided first
    expect(first).toEqual([
      {
        slotNumber: 10,
        playsDue: 4,
        playsProven: 0,
        missedPlayIndexes: [0, 1, 2, 3],
        refundCents: 4_001,
      },
    ])
    expect(second).toEqual([
      {
        slotNumber: 11,
        playsDue: 4,
        playsProven: 1,
        missedPlayIndexes: [1, 2, 3],
        refundCents: 3_000,
      },
    ])
    expect(makeGoodOfSlots([...second, ...first])).toEqual(makeGoodOf(odd))
  })
  it('is decided the grace after the slot ends', () => {
    expect(makeGoodDueAt(1_000, 6)).toBe(1_000 + 6 * 3_600_000)
  })
  it('decides a slot once its end plus the grace has passed, not a millisecond before', () => {
    const start = 1_700_000_000_000
    const width = 900_000
    // slot 3 ends at start + 4 widths
    const slot3Due = start + 4 * width + 6 * 3_600_000
    expect(lastDecidableSlot(start, width, slot3Due - 1, 6)).toBe(2)
    expect(lastDecidableSlot(start, width, slot3Due, 6)).toBe(3)
    expect(lastDecidableSlot(start, width, start, 6)).toBe(-1)
  })
})

describe('playOutcome (what the dashboard counts a sold play as)', () => {
  const due = makeGoodDueAt(1_000, 6)
  const play = { proven: false, decidedMissed: null, makeGoodDueAtEpochMs: due }
  it('waits for a proof until the grace has passed, then counts the play missed', () => {
    expect(playOutcome(play, due - 1)).toBe('awaited')
    expect(playOutcome(play, due)).toBe('missed')
    expect(playOutcome({ ...play, proven: true }, due)).toBe('proven')
  })
  it('follows the decided make-good, even when a proof came after it', () => {
    expect(playOutcome({ ...play, decidedMissed: true, proven: true }, due)).toBe('missed')
    expect(playOutcome({ ...play, decidedMissed: false, proven: true }, due)).toBe('proven')
  })
})
