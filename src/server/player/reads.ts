import type { OrderPlay } from '../../contract/index.ts'
import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'

// What the player module lets other modules read of its tables: the proof of play of an order
// (the order summary shows it).

/** The proof of play of an order, in the order the plays happened. */
export function playsOfOrder(db: Queryable, guid: string): Promise<OrderPlay[]> {
  return db.query(sql<OrderPlay>`
    select slot_number as "slotNumber", play_index as "playIndex",
      started_at_epoch_ms as "startedAtEpochMs", ended_at_epoch_ms as "endedAtEpochMs"
    from plays where order_guid = ${guid}
    order by started_at_epoch_ms, slot_number, play_index`)
}
