// Make-goods: a shout that did not play is not paid for. Once an order's last slot has ended and the
// grace has passed (MAKE_GOOD_GRACE_HOURS: an offline player sends its proofs late), each play of
// the order without a proof is missed, and each slot with missed plays is refunded for its share:
// the missed plays' part of what the shopper paid for that slot (one of four missed, a quarter; all
// four, all of it). The decision is made once per order and kept: proofs that arrive after it change
// nothing about money.

/** MAKE_GOOD_GRACE_HOURS's default. */
export const DEFAULT_MAKE_GOOD_GRACE_HOURS = 6

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

export type MakeGood = {
  /** Every play of the order, and how many of them were proven. */
  playsDue: number
  playsProven: number
  /** The slots with missed plays, by slot number. */
  slots: SlotMakeGood[]
  refundCents: number
}

/** When an order's make-good is decided: its last slot's end plus the grace. */
export function makeGoodDueAt(lastSlotEndEpochMs: number, graceHours: number): number {
  return lastSlotEndEpochMs + graceHours * 3_600_000
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
 * The make-good of an order from its slots and the proofs the billboard sent: which plays were
 * missed and what that gives back. A slot's refund is its share times the missed plays over the
 * plays of a slot, rounded down (all plays missed: the whole share), so it never exceeds what was paid.
 */
export function makeGoodOf(order: {
  totalCents: number
  slotNumbers: readonly number[]
  playsPerSlot: number
  proofs: readonly { slotNumber: number; playIndex: number }[]
}): MakeGood {
  const shares = slotShares(order.totalCents, order.slotNumbers)
  const proven = new Set(order.proofs.map((p) => `${p.slotNumber}:${p.playIndex}`))
  const slots: SlotMakeGood[] = []
  let playsProven = 0
  for (const [slotNumber, share] of shares) {
    const missedPlayIndexes: number[] = []
    for (let playIndex = 0; playIndex < order.playsPerSlot; playIndex++) {
      if (proven.has(`${slotNumber}:${playIndex}`)) playsProven++
      else missedPlayIndexes.push(playIndex)
    }
    if (missedPlayIndexes.length === 0) continue
    const refundCents = Math.floor((share * missedPlayIndexes.length) / order.playsPerSlot)
    slots.push({ slotNumber, missedPlayIndexes, refundCents })
  }
  return {
    playsDue: shares.size * order.playsPerSlot,
    playsProven,
    slots,
    refundCents: slots.reduce((sum, s) => sum + s.refundCents, 0),
  }
}

/** How a sold play stands at a moment: proven, missed, or still awaited. */
export type PlayOutcome = 'proven' | 'missed' | 'awaited'

/**
 * A sold play's outcome at `nowEpochMs`, by the make-good's rule: once its order's make-good is
 * decided, the decision says (a proof that came later leaves it missed: the money went back);
 * before that, a proof proves it, and a play without one is missed only once the grace after the
 * order's last slot has passed (an offline player sends its proofs late), else it is awaited.
 */
export function playOutcome(
  play: {
    proven: boolean
    /** The decided make-good's verdict on this play; null while the order is not decided. */
    decidedMissed: boolean | null
    makeGoodDueAtEpochMs: number
  },
  nowEpochMs: number,
): PlayOutcome {
  if (play.decidedMissed !== null) return play.decidedMissed ? 'missed' : 'proven'
  if (play.proven) return 'proven'
  return nowEpochMs >= play.makeGoodDueAtEpochMs ? 'missed' : 'awaited'
}
