import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'

// The payments table: one charge per order (unique order_guid), recorded by the local provider.
// (Stripe keeps its own record; the order keeps the PaymentIntent id.)

export type PaymentRow = { id: string; status: 'succeeded' | 'failed'; error: string | null }

/**
 * Records a charge unless the order has one already; either way the order's one payment. A charge
 * repeated after a crash finds the first.
 */
export async function recordCharge(
  db: Queryable,
  charge: {
    id: string
    orderGuid: string
    provider: 'local'
    amountCents: number
    currency: string
    status: PaymentRow['status']
    error: string | null
  },
): Promise<PaymentRow | null> {
  const [inserted] = await db.query(sql<PaymentRow>`
    insert into payments (id, order_guid, provider, amount_cents, currency, status, error)
    values (${charge.id}, ${charge.orderGuid}, ${charge.provider}, ${charge.amountCents},
      ${charge.currency}, ${charge.status}, ${charge.error})
    on conflict (order_guid) do nothing
    returning id, status, error`)
  if (inserted) return inserted
  const [existing] = await db.query(sql<PaymentRow>`
    select id, status, error from payments where order_guid = ${charge.orderGuid}`)
  return existing ?? null
}

/**
 * The local provider gives the order's charge back: recorded once (a repeated refund finds
 * it recorded and changes nothing). Null when the order has no succeeded charge of this id.
 */
export async function recordRefund(
  db: Queryable,
  refund: { orderGuid: string; paymentId: string; amountCents: number },
): Promise<{ refundedCents: number } | null> {
  const [row] = await db.query(sql<{ refundedCents: number }>`
    update payments set refunded_cents = case when refunded_cents = 0 then ${refund.amountCents}::int
      else refunded_cents end
    where order_guid = ${refund.orderGuid} and id = ${refund.paymentId} and status = 'succeeded'
      and ${refund.amountCents}::int <= amount_cents
    returning refunded_cents as "refundedCents"`)
  return row ?? null
}
