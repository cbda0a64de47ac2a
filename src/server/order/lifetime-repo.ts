import type { Database, Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'

// The SQL of an order's personal data's lifetime (lifetime.ts): the orders still keeping it, and
// their anonymising.

export type OrderKeepingData = {
  guid: string
  eventSlug: string
  deviceId: string
  slotNumbers: number[]
  executionContentKey: string
  createdAtEpochMs: number
}

/** Orders whose personal data is still kept, made before `madeBeforeMs`, by creation then guid after `after`. */
export function ordersKeepingData(
  db: Queryable,
  madeBeforeMs: number,
  after: { createdAtEpochMs: number; guid: string } | null,
  limit: number,
): Promise<OrderKeepingData[]> {
  const made = sql`(extract(epoch from o.created_at) * 1000)::float8`
  const past = after
    ? sql`and (${made}, o.guid) > (${after.createdAtEpochMs}::float8, ${after.guid})`
    : sql``
  return db.query(sql<OrderKeepingData>`
    select o.guid, o.event_slug as "eventSlug", o.device_id as "deviceId",
      o.slot_numbers as "slotNumbers", o.execution_content_key as "executionContentKey",
      ${made} as "createdAtEpochMs"
    from orders o
    where o.personal_data_erased_at is null and o.state <> 'Processing'
      and o.created_at < to_timestamp(${madeBeforeMs}::float8 / 1000) ${past}
    order by o.created_at, o.guid
    limit ${limit}::int`)
}

/**
 * Blanks an order's contact details and the request as sent, and its promo redemption's e-mail (the
 * redemption itself is accounting: it stays, keyed by the order). Amounts, slots and states stay.
 */
export async function anonymiseOrder(db: Database, guid: string, nowMs: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(sql`
      update orders set email = '', first_name = '', last_name = '', phone_number = '',
        will_receive_marketing = false, request_body = '{}'::jsonb,
        personal_data_erased_at = to_timestamp(${nowMs}::float8 / 1000)
      where guid = ${guid} and personal_data_erased_at is null`)
    await tx.query(sql`
      update promo_redemptions set email = 'forgotten:' || order_guid where order_guid = ${guid}`)
  })
}
