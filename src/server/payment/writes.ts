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
