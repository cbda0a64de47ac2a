import { columnMap } from '../platform/db/columns.ts'

// make_good_slots (migration 0036) as the make-good module's rows name its fields: the reads take
// their select lists from this one declaration.

/** A slot's decision as stored: one row per slot of a Confirmed order once it is decided. */
export type MakeGoodSlotColumns = {
  orderGuid: string
  slotNumber: number
  eventSlug: string
  /** how many slots the order has */
  orderSlots: number
  playsDue: number
  playsProven: number
  missedPlayIndexes: number[]
  refundCents: number
  refundKey: string | null
  currency: string
  decidedAtEpochMs: number
}

export const MAKE_GOOD_SLOTS = columnMap<MakeGoodSlotColumns>('make_good_slots', {
  orderGuid: 'order_guid',
  slotNumber: 'slot_number',
  eventSlug: 'event_slug',
  orderSlots: { column: 'order_slots', cast: 'int' },
  playsDue: 'plays_due',
  playsProven: 'plays_proven',
  missedPlayIndexes: { column: 'missed_play_indexes', json: true },
  refundCents: 'refund_cents',
  refundKey: 'refund_key',
  currency: 'currency',
  decidedAtEpochMs: { column: 'decided_at', epochMs: true },
})
