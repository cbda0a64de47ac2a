import type { OrderPlay } from '../../contract/index.ts'
import { playsPerSlotOf } from '../catalogue/reads.ts'
import { eventOfOrder, isOrderOfEvent, slotCountOf } from '../order/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'
import { PLAYER_TOKENS, PLAYS } from './columns.ts'

// What the player module lets other modules read of its tables: the proof of play of orders (the
// order summary, the console's orders), of a billboard's slots (the console's schedule), and when a
// billboard's live player link was made (the console's billboards).

const PLAY_FIELDS = ['slotNumber', 'playIndex', 'startedAtEpochMs', 'endedAtEpochMs'] as const

/**
 * The proof of play of an order, in the order the plays happened: at most one row per play of each
 * slot bought (each play is stored once), so a summary is as long as the order, never longer.
 */
export function playsOfOrder(db: Queryable, guid: string): Promise<OrderPlay[]> {
  return db.query(sql<OrderPlay>`
    select ${PLAYS.select({ fields: PLAY_FIELDS })}
    from plays where order_guid = ${guid}
    order by started_at_epoch_ms, slot_number, play_index
    limit ${slotCountOf(guid)} * coalesce(${playsPerSlotOf(eventOfOrder(guid))}, 60)`)
}

/** The proof of play of several orders, each in the order the plays happened. */
export async function playsOfOrders(
  db: Queryable,
  guids: readonly string[],
): Promise<Map<string, OrderPlay[]>> {
  const plays = new Map<string, OrderPlay[]>(guids.map((guid) => [guid, []]))
  if (guids.length === 0) return plays
  const rows = await db.query(sql<OrderPlay & { orderGuid: string }>`
    select ${PLAYS.select({ fields: ['orderGuid', ...PLAY_FIELDS] })}
    from plays where order_guid = any(${guids}::text[])
    order by started_at_epoch_ms, slot_number, play_index`)
  for (const { orderGuid, ...play } of rows) plays.get(orderGuid)?.push(play)
  return plays
}

export type ProofRow = {
  orderGuid: string
  slotNumber: number
  playIndex: number
  startedAtEpochMs: number
}

/** The proofs of play a billboard reported for an event's orders' slots in [first, last]. */
export function proofsOfSlots(
  db: Queryable,
  deviceId: string,
  eventSlug: string,
  first: number,
  last: number,
): Promise<ProofRow[]> {
  return db.query(sql<ProofRow>`
    select ${PLAYS.select({ from: 'p', fields: ['orderGuid', 'slotNumber', 'playIndex'] })},
      min(p.started_at_epoch_ms) as "startedAtEpochMs"
    from plays p
    where p.device_id = ${deviceId} and ${isOrderOfEvent(sql`p.order_guid`, eventSlug)}
      and p.slot_number between ${first} and ${last}
    group by p.order_guid, p.slot_number, p.play_index`)
}

/** When each billboard's live (unrevoked) player link was made; absent: none. */
export async function playerLinksMade(db: Queryable): Promise<Map<string, number>> {
  const rows = await db.query(sql<{ deviceId: string; createdAtEpochMs: number }>`
    select ${PLAYER_TOKENS.select({ fields: ['deviceId', 'createdAtEpochMs'] })}
    from player_tokens where revoked_at is null`)
  return new Map(rows.map((r) => [r.deviceId, Number(r.createdAtEpochMs)]))
}
