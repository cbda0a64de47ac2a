import type { SlotDecision } from '../../domain/make-good.ts'
import type { Queryable } from '../platform/db/client.ts'
import { at, json, type Sql, sql } from '../platform/db/sql.ts'
import { MAKE_GOOD_SLOTS } from './columns.ts'

// The make-good module's table, make_good_slots (migration 0036): one row per slot of a Confirmed
// order once it is decided, as it was decided. Others read it through reads.ts.

export type SlotRecord = SlotDecision & {
  /** The idempotency key of the refund the slot owes (null: none). */
  refundKey: string | null
}

/** A condition on an order's guid and one of its slot numbers: that slot is not decided yet. */
export const undecided = (orderGuid: Sql, slotNumber: Sql): Sql =>
  sql`not exists (select 1 from make_good_slots g
    where g.order_guid = ${orderGuid} and g.slot_number = ${slotNumber})`

/** The slot numbers of an order already decided. */
export async function decidedSlots(db: Queryable, orderGuid: string): Promise<Set<number>> {
  const rows = await db.query(sql<{ slotNumber: number }>`
    select ${MAKE_GOOD_SLOTS.select({ fields: ['slotNumber'] })} from make_good_slots where order_guid = ${orderGuid}`)
  return new Set(rows.map((r) => r.slotNumber))
}

/** Records slots decided together; answers how many were new (a slot decided before is kept). */
export async function insertSlotDecisions(
  db: Queryable,
  order: { orderGuid: string; eventSlug: string; orderSlots: number; currency: string },
  slots: readonly SlotRecord[],
  decidedAtEpochMs: number,
): Promise<number> {
  if (slots.length === 0) return 0
  const rows = await db.query(sql`
    insert into make_good_slots (order_guid, slot_number, event_slug, order_slots, plays_due,
      plays_proven, missed_play_indexes, refund_cents, refund_key, currency, decided_at)
    select ${order.orderGuid}, s.slot_number, ${order.eventSlug}, ${order.orderSlots}::int,
      s.plays_due, s.plays_proven, s.missed_play_indexes, s.refund_cents, s.refund_key,
      ${order.currency}, ${at(decidedAtEpochMs)}
    from jsonb_to_recordset(${json(
      slots.map((s) => ({
        slot_number: s.slotNumber,
        plays_due: s.playsDue,
        plays_proven: s.playsProven,
        missed_play_indexes: s.missedPlayIndexes,
        refund_cents: s.refundCents,
        refund_key: s.refundKey,
      })),
    )}::jsonb) as s(slot_number int, plays_due int, plays_proven int, missed_play_indexes jsonb,
      refund_cents bigint, refund_key text)
    on conflict (order_guid, slot_number) do nothing
    returning slot_number`)
  return rows.length
}
