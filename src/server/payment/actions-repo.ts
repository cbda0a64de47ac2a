import type { ProblemData } from '../../domain/problems.ts'
import type { Queryable } from '../platform/db/client.ts'
import { json, sql } from '../platform/db/sql.ts'
import { PAYMENT_ACTIONS } from './columns.ts'
import type { ActionOutcome } from './provider.ts'

// Charges that wait for the cardholder (3-D Secure): payment_actions keeps, per order, the
// provider's charge and the client secret the app hands to Stripe.js or to the local provider's test
// screen (written with the order's AwaitingAuthentication outcome, writes.ts; gone when the order
// settles). The local provider's charge itself is its payments row, `requires_action` until the
// cardholder answers or the wait ends.

/** The waiting charge a client secret names (the local test screen), or null. */
export async function actionByClientSecret(
  db: Queryable,
  clientSecret: string,
): Promise<{ orderGuid: string; provider: string; paymentId: string } | null> {
  const [row] = await db.query(sql<{ orderGuid: string; provider: string; paymentId: string }>`
    select ${PAYMENT_ACTIONS.select({ fields: ['orderGuid', 'provider', 'paymentId'] })}
    from payment_actions where client_secret = ${clientSecret}`)
  return row ?? null
}

const outcomeOfStatus = (status: string | undefined): ActionOutcome =>
  status === 'succeeded' ? 'succeeded' : status === 'requires_action' ? 'pending' : 'failed'

/** Where the local provider's waiting charge stands (its payments row). */
export async function localChargeOutcome(db: Queryable, paymentId: string): Promise<ActionOutcome> {
  const [row] = await db.query(sql<{ status: string }>`
    select status from payments where id = ${paymentId}`)
  return outcomeOfStatus(row?.status)
}

/**
 * The cardholder's answer to the local provider's waiting charge (or the end of the wait: failed).
 * Only a charge still waiting changes, so the first answer wins (the test screen against the
 * timeout); answers where the charge stands after it.
 */
export async function settleLocalCharge(
  db: Queryable,
  paymentId: string,
  answer: { status: 'succeeded' } | { status: 'failed'; error: ProblemData },
): Promise<Exclude<ActionOutcome, 'pending'>> {
  const [row] = await db.query(sql<{ status: string }>`
    with u as (
      update payments set status = ${answer.status},
        error = ${answer.status === 'failed' ? json(answer.error) : null}::jsonb
      where id = ${paymentId} and status = 'requires_action'
      returning status
    )
    select status from u
    union all
    select status from payments where id = ${paymentId} and not exists (select 1 from u)`)
  return row?.status === 'succeeded' ? 'succeeded' : 'failed'
}
