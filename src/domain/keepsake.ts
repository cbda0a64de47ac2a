import type { OrderState } from './order-state.ts'

// The keepsake page (api-v1 "Keepsake pages"): who may have one, and what it says of the plays.

/**
 * Only a confirmed order's shout is shown to the public: one under review is not yet approved, a
 * cancelled or failed one never plays. A page made earlier stops showing when its order leaves
 * Confirmed.
 */
export const mayShowKeepsake = (state: OrderState) => state === 'Confirmed'

export type KeepsakeAiring =
  /** The billboard proved `count` plays, the first at `firstEpochMs`. */
  | { kind: 'played'; count: number; firstEpochMs: number }
  /** Nothing proven yet: the first slot starts at `startEpochMs`. */
  | { kind: 'upcoming'; startEpochMs: number }

/** What the page says of the plays: the proofs when there are any, else the first slot's start. */
export function keepsakeAiring(
  slots: readonly { startEpochMs: number }[],
  plays: readonly { startedAtEpochMs: number }[],
): KeepsakeAiring | null {
  if (plays.length > 0) {
    return {
      kind: 'played',
      count: plays.length,
      firstEpochMs: Math.min(...plays.map((p) => p.startedAtEpochMs)),
    }
  }
  if (slots.length === 0) return null
  return { kind: 'upcoming', startEpochMs: Math.min(...slots.map((s) => s.startEpochMs)) }
}
