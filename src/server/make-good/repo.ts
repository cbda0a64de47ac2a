import type { SlotMakeGood } from '../../domain/make-good.ts'
import type { Queryable } from '../platform/db/client.ts'
import { json, type Sql, sql } from '../platform/db/sql.ts'

// The make-good module's table, make_goods (migration 0030): one row per Confirmed order once its
// make-good is decided, as it was decided. Others read it through reads.ts.

export type MakeGoodRecord = {
  orderGuid: string
  eventSlug: string
  playsDue: number
  playsProven: number
  slots: SlotMakeGood[]
  refundCents: number
  currency: string
}

/** A condition on an order's guid: its make-good is not decided yet. */
export const undecided = (orderGuid: Sql): Sql =>
  sql`not exists (select 1 from make_goods g where g.order_guid = ${orderGuid})`

/** Records a make-good once; false when the order's was already decided. */
export async function insertMakeGood(
  db: Queryable,
  record: MakeGoodRecord,
  decidedAtEpochMs: number,
): Promise<boolean> {
  const rows = await db.query(sql`
    insert into make_goods (order_guid, event_slug, plays_due, plays_proven, slots, refund_cents,
      currency, decided_at)
    values (${record.orderGuid}, ${record.eventSlug}, ${record.playsDue}, ${record.playsProven},
      ${json(record.slots)}::jsonb, ${record.refundCents}, ${record.currency},
      ${new Date(decidedAtEpochMs).toISOString()}::timestamptz)
    on conflict (order_guid) do nothing
    returning order_guid`)
  return rows.length === 1
}
