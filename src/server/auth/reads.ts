import { type Sql, sql } from '../platform/db/sql.ts'

// What the auth module lets other modules read of its tables: an operator's e-mail, for the console's
// order history (who approved or cancelled), embedded in the reader's statement.

/** The e-mail of the operator with this id, or null. */
export function operatorEmail(operatorId: Sql): Sql {
  return sql`(select op.email from operators op where op.id = ${operatorId})`
}
