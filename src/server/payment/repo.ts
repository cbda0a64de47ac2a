import type { ProblemData } from '../../domain/problems.ts'
import type { Queryable } from '../platform/db/client.ts'
import { json, sql } from '../platform/db/sql.ts'
import type { PaymentSetupRecord } from './provider.ts'
import { REFUND_JSON, type RefundRow } from './reads.ts'

// The payment module's tables: payment_setups (a card saved for a checkout, spec §7 call 11),
// payments (one charge per order, unique order_guid, recorded by the local provider with the order's
// outcome, writes.ts; Stripe keeps its own record and the order keeps the PaymentIntent id) and
// refunds (one per cancelled order that was charged, migration 0007). Others read them through
// reads.ts.

// ---------- card setups ----------

export async function insertPaymentSetup(
  db: Queryable,
  setup: {
    checkoutSecretKey: string
    provider: string
    customerId: string
    clientSecret: string
    setupIntentId: string
  },
): Promise<void> {
  await db.query(sql`
    insert into payment_setups (checkout_secret_key, provider, customer_id, client_secret,
      setup_intent_id)
    values (${setup.checkoutSecretKey}, ${setup.provider}, ${setup.customerId},
      ${setup.clientSecret}, ${setup.setupIntentId})`)
}

export async function setupByClientSecret(
  db: Queryable,
  clientSecret: string,
): Promise<{ checkoutSecretKey: string; status: string } | null> {
  const [row] = await db.query(sql<{ checkoutSecretKey: string; status: string }>`
    select checkout_secret_key as "checkoutSecretKey", status
    from payment_setups where client_secret = ${clientSecret}`)
  return row ?? null
}

/** The card setup of a checkout (its record for the provider), or null. */
export async function setupByCheckoutKey(
  db: Queryable,
  checkoutSecretKey: string,
): Promise<PaymentSetupRecord | null> {
  const [row] = await db.query(sql<PaymentSetupRecord>`
    select checkout_secret_key as "checkoutSecretKey", customer_id as "customerId",
      setup_intent_id as "setupIntentId", status, payment_method_id as "paymentMethodId",
      charge_outcome as "chargeOutcome"
    from payment_setups where checkout_secret_key = ${checkoutSecretKey}`)
  return row ?? null
}

/** The local provider's card form saved a card: only its brand and last four digits are kept. */
export async function saveLocalCard(
  db: Queryable,
  card: {
    checkoutSecretKey: string
    paymentMethodId: string
    brand: string
    last4: string
    chargeOutcome: string | null
  },
): Promise<void> {
  await db.query(sql`
    update payment_setups set status = 'succeeded', payment_method_id = ${card.paymentMethodId},
      card_brand = ${card.brand}, card_last4 = ${card.last4}, charge_outcome = ${card.chargeOutcome}
    where checkout_secret_key = ${card.checkoutSecretKey}`)
}

export async function markSetupSucceeded(
  db: Queryable,
  checkoutSecretKey: string,
  paymentMethodId: string | null,
): Promise<void> {
  await db.query(sql`
    update payment_setups set status = 'succeeded', payment_method_id = ${paymentMethodId}
    where checkout_secret_key = ${checkoutSecretKey}`)
}

// ---------- charges ----------

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

// ---------- refunds ----------

/** The refund a cancel owes, written pending in the cancel's transaction (once per order). */
export async function insertPendingRefund(
  db: Queryable,
  refund: {
    orderGuid: string
    provider: string
    paymentId: string
    amountCents: number
    currency: string
    idempotencyKey: string
  },
): Promise<void> {
  await db.query(sql`
    insert into refunds (order_guid, provider, payment_id, amount_cents, currency, idempotency_key)
    values (${refund.orderGuid}, ${refund.provider}, ${refund.paymentId}, ${refund.amountCents},
      ${refund.currency}, ${refund.idempotencyKey})
    on conflict (order_guid) do nothing`)
}

export async function pendingRefund(db: Queryable, guid: string): Promise<RefundRow | null> {
  const [row] = await db.query(sql<{ refund: RefundRow }>`
    select ${REFUND_JSON} as refund from refunds r
    where r.order_guid = ${guid} and r.status = 'pending'`)
  return row?.refund ?? null
}

/** Pending refunds older than `olderThanMs` (a cancel's own attempt is left to finish first). */
export async function stalePendingRefunds(
  db: Queryable,
  nowMs: number,
  olderThanMs: number,
): Promise<string[]> {
  const rows = await db.query(sql<{ guid: string }>`
    select order_guid as guid from refunds
    where status = 'pending'
      and created_at < ${new Date(nowMs - olderThanMs).toISOString()}::timestamptz
    order by created_at limit 50`)
  return rows.map((r) => r.guid)
}

export async function markRefunded(
  db: Queryable,
  guid: string,
  providerRefundId: string,
  providerStatus: string | null,
): Promise<void> {
  await db.query(sql`
    update refunds set status = 'succeeded', provider_refund_id = ${providerRefundId},
      provider_status = ${providerStatus},
      error = null, attempts = attempts + 1, completed_at = now()
    where order_guid = ${guid} and status = 'pending'`)
}

/** A failed attempt: kept pending (tried again by the retries) until `maxAttempts`, then failed. */
export async function markRefundAttemptFailed(
  db: Queryable,
  guid: string,
  error: ProblemData,
  maxAttempts: number,
): Promise<void> {
  await db.query(sql`
    update refunds set error = ${json(error)}::jsonb, attempts = attempts + 1,
      status = case when attempts + 1 >= ${maxAttempts}::int then 'failed' else 'pending' end,
      completed_at = case when attempts + 1 >= ${maxAttempts}::int then now() else null end
    where order_guid = ${guid} and status = 'pending'`)
}
