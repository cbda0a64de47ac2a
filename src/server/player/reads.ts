import type { OrderPlay } from '../../contract/index.ts'
import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'

// What the player module lets other modules read of its tables: the proof of play of an order
// (the order summary shows it).

/**
 * The proof of play of an order, in the order the plays happened: at most one row per play of each
 * slot bought (each play is stored once), so a summary is as long as the order, never longer.
 */
export function playsOfOrder(db: Queryable, guid: string): Promise<OrderPlay[]> {
  return db.query(sql<OrderPlay>`
    select slot_number as "slotNumber", play_index as "playIndex",
      started_at_epoch_ms as "startedAtEpochMs", ended_at_epoch_ms as "endedAtEpochMs"
    from plays where order_guid = ${guid}
    order by started_at_epoch_ms, slot_number, play_index
    limit (select cardinality(o.slot_numbers) * coalesce(e.plays_per_slot, 60)
      from orders o left join events e on e.slug = o.event_slug where o.guid = ${guid})`)
}
