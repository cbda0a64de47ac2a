import type { Transaction } from '../client.ts'
import { sql } from '../sql.ts'
import { convertColumn, type StoredText, storedProblem } from '../stored-problems.ts'

// The orders' stored failures become problems (decision 021), as content's did in 0010: what the shop
// kept in English is read back into {code, params} (../stored-problems.ts). A text no template makes
// is kept whole: as the operator's own words for a cancel's reason (order_cancelled), as the
// provider's or the mail server's words for a refund or a mail that failed, else as plain_text.
//
//   orders.errors               jsonb array of texts -> jsonb array of problems
//   order_state_history.reason  text -> jsonb problem
//   payments.error              text -> jsonb problem
//   refunds.error               text -> jsonb problem
//   mail_outbox.last_error      text -> jsonb problem

/** A cancel's reason: the sweep's (a code of the catalogue), or the words an operator typed. */
const cancelReason = (text: string) => {
  const known = storedProblem(text)
  return known.code === 'plain_text' ? { code: 'order_cancelled', params: { reason: text } } : known
}

/** What a provider or a mail server said, kept as its words in the code's sentence. */
const saidBy = (code: 'refund_failed' | 'mail_send_failed') => (row: StoredText) => {
  const known = storedProblem(row.text)
  return known.code === 'plain_text' ? { code, params: { reason: row.text } } : known
}

export async function migrate(tx: Transaction): Promise<void> {
  // orders.errors is jsonb already: each text of its array is read back.
  const orders = await tx.query(sql<{ guid: string; state: string; errors: unknown }>`
    select guid, state, errors from orders where jsonb_array_length(errors) > 0`)
  for (const order of orders) {
    const errors = Array.isArray(order.errors) ? order.errors : []
    const problems = errors.map((e: unknown) => {
      if (typeof e !== 'string') return e
      return order.state === 'Cancelled' ? cancelReason(e) : storedProblem(e)
    })
    await tx.query(
      sql`update orders set errors = ${JSON.stringify(problems)}::jsonb where guid = ${order.guid}`,
    )
  }
  await convertColumn(
    tx,
    'order_state_history',
    'reason',
    sql<StoredText>`select id::text as key, reason -> 'params' ->> 'text' as text, state
      from order_state_history where reason is not null`,
    (key, value) =>
      sql`update order_state_history set reason = ${value}::jsonb where id = ${Number(key)}`,
    (row) => (row.state === 'Cancelled' ? cancelReason(row.text) : storedProblem(row.text)),
  )
  await convertColumn(
    tx,
    'payments',
    'error',
    sql<StoredText>`select id as key, error -> 'params' ->> 'text' as text
      from payments where error is not null`,
    (key, value) => sql`update payments set error = ${value}::jsonb where id = ${key}`,
    (row) => storedProblem(row.text),
  )
  await convertColumn(
    tx,
    'refunds',
    'error',
    sql<StoredText>`select order_guid as key, error -> 'params' ->> 'text' as text
      from refunds where error is not null`,
    (key, value) => sql`update refunds set error = ${value}::jsonb where order_guid = ${key}`,
    saidBy('refund_failed'),
  )
  await convertColumn(
    tx,
    'mail_outbox',
    'last_error',
    sql<StoredText>`select id as key, last_error -> 'params' ->> 'text' as text
      from mail_outbox where last_error is not null`,
    (key, value) => sql`update mail_outbox set last_error = ${value}::jsonb where id = ${key}`,
    saidBy('mail_send_failed'),
  )
}
