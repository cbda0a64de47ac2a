import type { Sql } from '../platform/db/sql.ts'
import { json, sql } from '../platform/db/sql.ts'
import type { ChargeRecord } from './provider.ts'

// What the payment module writes inside another module's statement. A charge the provider does not
// keep itself (the local provider's) is recorded by the statement that writes the order's outcome
// (order/repo.ts finishOrder), so that the charge's record and the outcome are one commit: a crash
// leaves both or neither, and processing the order again charges it once. The SQL on payments stays
// here.

export type { ChargeRecord } from './provider.ts'

/**
 * The pieces of the outcome's statement: the payment id the order keeps (the first record's when an
 * earlier attempt wrote one), and the insert of the record, made only when the outcome is written
 * (`written`: the statement's CTE of the order it changed), once per order.
 */
export function chargeRecordWrite(
  record: ChargeRecord,
  written: Sql,
): { paymentId: Sql; insert: Sql } {
  return {
    paymentId: sql`coalesce((select id from payments where order_guid = ${record.orderGuid}),
      ${record.id})`,
    insert: sql`insert into payments (id, order_guid, provider, amount_cents, currency, status, error)
      select ${record.id}, ${record.orderGuid}, ${record.provider}, ${record.amountCents}::int,
        ${record.currency}, ${record.status},
        ${record.error ? json(record.error) : null}::jsonb
      where exists (select 1 from ${written})
      on conflict (order_guid) do nothing`,
  }
}

/**
 * A charge that waits for the cardholder, written by the statement that puts the order in
 * AwaitingAuthentication (`written`: its CTE of the order it changed): the client secret the app
 * needs, once per order.
 */
export function paymentActionWrite(
  action: { orderGuid: string; provider: string; paymentId: string; clientSecret: string },
  written: Sql,
): Sql {
  return sql`insert into payment_actions (order_guid, provider, payment_id, client_secret)
    select ${action.orderGuid}, ${action.provider}, ${action.paymentId}, ${action.clientSecret}
    where exists (select 1 from ${written})
    on conflict (order_guid) do nothing`
}

/** The waiting charge's client secret goes once the order settled (`written`: its CTE). */
export function paymentActionDone(orderGuid: string, written: Sql): Sql {
  return sql`delete from payment_actions
    where order_guid = ${orderGuid} and exists (select 1 from ${written})`
}
