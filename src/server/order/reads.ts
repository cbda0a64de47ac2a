import { type Sql, sql } from '../platform/db/sql.ts'

// What the order module lets other modules read of its tables, as SQL fragments their statements
// embed: the SQL on orders stays here.

/** Whether an order names the content under this key (a boolean expression). */
export function contentInAnOrder(key: Sql): Sql {
  return sql`exists (select 1 from orders o where o.execution_content_key = ${key})`
}
