// Make-goods: a shout that did not play is not paid for. Once a slot has ended and the grace has
// passed (MAKE_GOOD_GRACE_HOURS: an offline player sends its proofs late), each play of the slot
// without a proof is missed, and the slot is refunded for its share: the missed plays' part of what
// the shopper paid for that slot (one of four missed, a quarter; all four, all of it). Each slot is
// decided once, on its own (an order whose slots span days is not kept waiting for its last one),
// and kept: proofs that arrive after it change nothing about money.

/**
 * What the shopper paid for each slot: the order's total (after any discount) shared evenly, the
 * cents that do not divide going one each to the first slots, so the shares add up to the total.
 */
export function slotShares(
  totalCents: number,
  slotNumbers: readonly number[],
): Map<number, number> {
  const sorted = [...new Set(slotNumbers)].sort((a, b) => a - b)
  const shares = new Map<number, number>()
  if (sorted.length === 0) return shares
  const base = Math.floor(totalCents / sorted.length)
  let left = totalCents - base * sorted.length
  for (const slot of sorted) {
    shares.set(slot, base + (left > 0 ? 1 : 0))
    left--
  }
  return shares
}

export type SlotMakeGood = {
  slotNumber: number
  /** The play indexes of the slot with no proof. */
  missedPlayIndexes: number[]
  refundCents: number
}

/** A slot as decided: its plays, those proven, those missed and what they give back. */
export type SlotDecision = SlotMakeGood & { playsDue: number; playsProven: number }

export type MakeGood = {
  /** Every play of the slots decided, and how many of them were proven. */
  playsDue: number
  playsProven: number
  /** The slots with missed plays, by slot number. */
  slots: SlotMakeGood[]
  refundCents: number
}

/** When a slot's make-good is decided: its end plus the grace. */
export function makeGoodDueAt(slotEndEpochMs: number, graceHours: number): number {
  return slotEndEpochMs + graceHours * 3_600_000
}

/**
 * The last slot number of an event on a billboard whose make-good is due at `nowEpochMs`: slots
 * count from the event's start in the billboard's zone (slots.ts), so a slot n ends at start +
 * (n + 1) × width and its orders are decided once that end plus the grace has passed. -1: none yet.
 */
export function lastDecidableSlot(
  eventStartEpochMs: number,
  slotWidthMs: number,
  nowEpochMs: number,
  graceHours: number,
): number {
  const endsBy = nowEpochMs - graceHours * 3_600_000
  return Math.max(-1, Math.floor((endsBy - eventStartEpochMs) / slotWidthMs) - 1)
}

/**
 * The decisions on the slots `deciding` of an order (those of its slots not decided yet whose
 * grace has passed), from the proofs the billboard sent: which plays were missed and what that gives
 * back. The shares come from all of the order's slots, so slots decided at different times add up to
 * what deciding them together would. A slot's refund is its share times the missed plays over the
 * plays of a slot, rounded down (all plays missed: the whole share), so it never exceeds what was paid.
 */
export function slotDecisions(order: {
  totalCents: number
  slotNumbers: readonly number[]
  playsPerSlot: number
  proofs: readonly { slotNumber: number; playIndex: number }[]
  deciding: readonly number[]
}): SlotDecision[] {
  const shares = slotShares(order.totalCents, order.slotNumbers)
  const deciding = new Set(order.deciding)
  const proven = new Set(order.proofs.map((p) => `${p.slotNumber}:${p.playIndex}`))
  const decisions: SlotDecision[] = []
  for (const [slotNumber, share] of shares) {
    if (!deciding.has(slotNumber)) continue
    const missedPlayIndexes: number[] = []
    for (let playIndex = 0; playIndex < order.playsPerSlot; playIndex++) {
      if (!proven.has(`${slotNumber}:${playIndex}`)) missedPlayIndexes.push(playIndex)
    }
    decisions.push({
      slotNumber,
      playsDue: order.playsPerSlot,
      playsProven: order.playsPerSlot - missedPlayIndexes.length,
      missedPlayIndexes,
      refundCents: Math.floor((share * missedPlayIndexes.length) / order.playsPerSlot),
    })
  }
  return decisions
}

/** An order's make-good so far: its decided slots together, those that missed plays listed. */
export function makeGoodOfSlots(decided: readonly SlotDecision[]): MakeGood {
  const sorted = [...decided].sort((a, b) => a.slotNumber - b.slotNumber)
  const slots = sorted
    .filter((d) => d.missedPlayIndexes.length > 0)
    .map(({ slotNumber, missedPlayIndexes, refundCents }) => ({
      slotNumber,
      missedPlayIndexes,
      refundCents,
    }))
  return {
    playsDue: sorted.reduce((sum, d) => sum + d.playsDue, 0),
    playsProven: sorted.reduce((sum, d) => sum + d.playsProven, 0),
    slots,
    refundCents: slots.reduce((sum, s) => sum + s.refundCents, 0),
  }
}

/** The make-good of a whole order, every slot decided at once. */
export function makeGoodOf(order: {
  totalCents: number
  slotNumbers: readonly number[]
  playsPerSlot: number
  proofs: readonly { slotNumber: number; playIndex: number }[]
}): MakeGood {
  return makeGoodOfSlots(slotDecisions({ ...order, deciding: order.slotNumbers }))
}

/** How a sold play stands at a moment: proven, missed, or still awaited. */
export type PlayOutcome = 'proven' | 'missed' | 'awaited'

/**
 * A sold play's outcome at `nowEpochMs`, by the make-good's rule: once its slot's make-good is
 * decided, the decision says (a proof that came later leaves it missed: the money went back);
 * before that, a proof proves it, and a play without one is missed only once the grace after its
 * slot has passed (an offline player sends its proofs late), else it is awaited.
 */
export function playOutcome(
  play: {
    proven: boolean
    /** The decided make-good's verdict on this play; null while its slot is not decided. */
    decidedMissed: boolean | null
    makeGoodDueAtEpochMs: number
  },
  nowEpochMs: number,
): PlayOutcome {
  if (play.decidedMissed !== null) return play.decidedMissed ? 'missed' : 'proven'
  if (play.proven) return 'proven'
  return nowEpochMs >= play.makeGoodDueAtEpochMs ? 'missed' : 'awaited'
}
