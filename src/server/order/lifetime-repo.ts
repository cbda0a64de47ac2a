import type { Database, Queryable } from '../platform/db/client.ts'
import { at, epochMs, sql } from '../platform/db/sql.ts'
import { ORDERS } from './columns.ts'

// The SQL of an order's personal data's lifetime (lifetime.ts): the orders still keeping it, and
// their anonymising.

export type OrderKeepingData = {
  guid: string
  /** Still Processing: its lease is free (the instance that had it is gone or stalled). */
  processing: boolean
  eventSlug: string
  deviceId: string
  slotNumbers: number[]
  executionContentKey: string
  createdAtEpochMs: number
}

const KEEPING_FIELDS = [
  'guid',
  'eventSlug',
  'deviceId',
  'slotNumbers',
  'executionContentKey',
] as const satisfies readonly (keyof OrderKeepingData)[]

/**
 * Orders whose personal data is still kept, made before `madeBeforeMs`, by creation then guid after
 * `after`, whatever their state, except an order in Processing whose lease a live instance holds (it
 * is being processed right now; the next sweep looks again).
 */
export function ordersKeepingData(
  db: Queryable,
  madeBeforeMs: number,
  after: { createdAtEpochMs: number; guid: string } | null,
  limit: number,
): Promise<OrderKeepingData[]> {
  const made = epochMs(sql`o.created_at`)
  const past = after
    ? sql`and (${made}, o.guid) > (${after.createdAtEpochMs}::float8, ${after.guid})`
    : sql``
  return db.query(sql<OrderKeepingData>`
    select ${ORDERS.select({ from: 'o', fields: KEEPING_FIELDS })},
      o.state = 'Processing' as processing, ${made} as "createdAtEpochMs"
    from orders o
    where o.personal_data_erased_at is null
      and (o.state <> 'Processing' or o.lease_expires_at is null or o.lease_expires_at < now())
      and o.created_at < ${at(madeBeforeMs)} ${past}
    order by o.created_at, o.guid
    limit ${limit}::int`)
}

/** One order whose personal data is still kept (null: forgotten already, or no such order). */
export async function orderKeepingData(
  db: Queryable,
  guid: string,
): Promise<OrderKeepingData | null> {
  const [row] = await db.query(sql<OrderKeepingData>`
    select ${ORDERS.select({ from: 'o', fields: KEEPING_FIELDS })},
      o.state = 'Processing' as processing, ${epochMs(sql`o.created_at`)} as "createdAtEpochMs"
    from orders o where o.guid = ${guid} and o.personal_data_erased_at is null`)
  return row ?? null
}

/**
 * Takes the lease of an order left Processing, so no instance claims and processes it while its data
 * is being forgotten: false when a live instance holds it (or it is no longer Processing). The lease
 * is measured by the database's clock, as every order lease is (platform/lease.ts).
 */
export async function holdForForgetting(
  db: Queryable,
  guid: string,
  holder: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await db.query(sql`
    update orders set lease_owner = ${holder},
      lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}::float8)
    where guid = ${guid} and state = 'Processing'
      and (lease_expires_at is null or lease_expires_at < now())
    returning guid`)
  return rows.length > 0
}

/**
 * Blanks an order's contact details and the request as sent, and its promo redemption's e-mail (the
 * redemption itself is accounting: it stays, keyed by the order). Amounts, slots and states stay.
 */
/** Answers false when nothing was blanked: already forgotten, or Processing under another's lease. */
export async function anonymiseOrder(
  db: Database,
  guid: string,
  nowMs: number,
  /** The lease the forgetting holds on an order left Processing: handed back with the blanking. */
  holder: string,
  /** More work of the same transaction once the order is blanked (the erasure's confirming mail). */
  within?: (tx: Queryable) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // an order in Processing is blanked only under the forgetting's own lease, never under an
    // instance's that is processing it
    const blanked = await tx.query(sql`
      update orders set email = '', first_name = '', last_name = '', phone_number = '',
        will_receive_marketing = false, request_body = '{}'::jsonb,
        personal_data_erased_at = ${at(nowMs)},
        lease_owner = null, lease_expires_at = null
      where guid = ${guid} and personal_data_erased_at is null
        and (state <> 'Processing' or lease_owner = ${holder})
      returning guid`)
    if (blanked.length === 0) return false
    await tx.query(sql`
      update promo_redemptions set email = 'forgotten:' || order_guid where order_guid = ${guid}`)
    await within?.(tx)
    return true
  })
}
