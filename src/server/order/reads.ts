import { type Sql, sql } from '../platform/db/sql.ts'

// What the order module lets other modules read of its tables, as SQL fragments their statements
// embed: the SQL on orders stays here.

/**
 * Whether an order that still keeps its personal data names the content under this key (a boolean
 * expression); `except` leaves one order out (the one being forgotten). An order whose data was
 * forgotten (lifetime.ts) no longer holds its content.
 */
export function contentInAnOrder(key: Sql, except?: string): Sql {
  const other = except === undefined ? sql`` : sql`and o.guid <> ${except}`
  return sql`exists (select 1 from orders o where o.execution_content_key = ${key}
    and o.personal_data_erased_at is null ${other})`
}

/** Whether the order (a guid expression) still keeps its personal data (a boolean expression). */
export function orderDataKept(guid: Sql): Sql {
  return sql`exists (select 1 from orders o where o.guid = ${guid} and o.personal_data_erased_at is null)`
}
