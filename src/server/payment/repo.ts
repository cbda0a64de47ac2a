import type { ProblemData } from '../../domain/problems.ts'
import type { Queryable } from '../platform/db/client.ts'
import { at, json, sql } from '../platform/db/sql.ts'
import { PAYMENT_SETUPS } from './columns.ts'
import type { PaymentSetupRecord } from './provider.ts'
import { REFUND_JSON, type RefundRow } from './reads.ts'

// The payment module's tables: payment_setups (a card saved for a checkout, spec §7 call 11),
// payments (one charge per order, unique order_guid, recorded by the local provider with the order's
// outcome, writes.ts; Stripe keeps its own record and the order keeps the PaymentIntent id) and
// refunds (each keyed: a cancel's, each make-good slot's; migrations 0007, 0036), and local_refunds
// (the keys the local provider refunded). Others read them through reads.ts.

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
    select ${PAYMENT_SETUPS.select({ fields: ['checkoutSecretKey', 'status'] })}
    from payment_setups where client_secret = ${clientSecret}`)
  return row ?? null
}

const SETUP_RECORD_FIELDS = [
  'checkoutSecretKey',
  'customerId',
  'setupIntentId',
  'status',
  'paymentMethodId',
  'chargeOutcome',
] as const satisfies readonly (keyof PaymentSetupRecord)[]

/** The card setup of a checkout (its record for the provider), or null. */
export async function setupByCheckoutKey(
  db: Queryable,
  checkoutSecretKey: string,
): Promise<PaymentSetupRecord | null> {
  const [row] = await db.query(sql<PaymentSetupRecord>`
    select ${PAYMENT_SETUPS.select({ fields: SETUP_RECORD_FIELDS })}
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
 * The local provider gives back part or all of an order's charge, once per idempotency key (a
 * repeated key finds it recorded and changes nothing); several keys add up, never beyond the charge.
 * Null when the order has no succeeded charge of this id with that much left to give back.
 */
export async function recordRefund(
  db: Queryable,
  refund: { orderGuid: string; paymentId: string; amountCents: number; idempotencyKey: string },
): Promise<{ refundedCents: number } | null> {
  // one statement, so a crash cannot record the key without the amount
  const [row] = await db.query(sql<{
    counted: number | null
    known: boolean
    refundedCents: number
  }>`
    with made as (
      insert into local_refunds (idempotency_key, payment_id, amount_cents)
      select ${refund.idempotencyKey}, p.id, ${refund.amountCents}::int from payments p
      where p.order_guid = ${refund.orderGuid} and p.id = ${refund.paymentId}
        and p.status = 'succeeded' and p.refunded_cents + ${refund.amountCents}::int <= p.amount_cents
      on conflict (idempotency_key) do nothing
      returning amount_cents
    ), counted as (
      update payments p set refunded_cents = p.refunded_cents + made.amount_cents from made
      where p.order_guid = ${refund.orderGuid} and p.id = ${refund.paymentId}
      returning p.refunded_cents
    )
    select (select refunded_cents from counted) as counted,
      exists (select 1 from local_refunds l where l.idempotency_key = ${refund.idempotencyKey}
        and l.payment_id = ${refund.paymentId}) as known,
      (select refunded_cents from payments where id = ${refund.paymentId}) as "refundedCents"`)
  if (!row) return null
  if (row.counted !== null) return { refundedCents: Number(row.counted) }
  return row.known ? { refundedCents: Number(row.refundedCents) } : null
}

// ---------- refunds ----------

/** A refund an order owes, written pending in the caller's transaction (once per key). */
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
    on conflict (idempotency_key) do nothing`)
}

/** A pending refund, by its key. */
export async function pendingRefund(db: Queryable, key: string): Promise<RefundRow | null> {
  const [row] = await db.query(sql<{ refund: RefundRow }>`
    select ${REFUND_JSON} as refund from refunds r
    where r.idempotency_key = ${key} and r.status = 'pending'`)
  return row?.refund ?? null
}

/** The keys of an order's pending refunds, oldest first. */
export async function pendingRefundKeys(db: Queryable, guid: string): Promise<string[]> {
  const rows = await db.query(sql<{ key: string }>`
    select idempotency_key as key from refunds
    where order_guid = ${guid} and status = 'pending' order by created_at, idempotency_key`)
  return rows.map((r) => r.key)
}

/** What an order's refunds give back or will (pending or done; a failed one gave nothing). */
export async function refundsOwedCents(db: Queryable, guid: string): Promise<number> {
  const [row] = await db.query(sql<{ cents: number }>`
    select coalesce(sum(amount_cents), 0)::float8 as cents from refunds
    where order_guid = ${guid} and status <> 'failed'`)
  return Number(row?.cents ?? 0)
}

/** The keys of pending refunds older than `olderThanMs` (a cancel's own attempt is left to finish first). */
export async function stalePendingRefunds(
  db: Queryable,
  nowMs: number,
  olderThanMs: number,
): Promise<string[]> {
  const rows = await db.query(sql<{ key: string }>`
    select idempotency_key as key from refunds
    where status = 'pending'
      and created_at < ${at(nowMs - olderThanMs)}
    order by created_at limit 50`)
  return rows.map((r) => r.key)
}

export async function markRefunded(
  db: Queryable,
  key: string,
  providerRefundId: string,
  providerStatus: string | null,
): Promise<void> {
  await db.query(sql`
    update refunds set status = 'succeeded', provider_refund_id = ${providerRefundId},
      provider_status = ${providerStatus},
      error = null, attempts = attempts + 1, completed_at = now()
    where idempotency_key = ${key} and status = 'pending'`)
}

/** A failed attempt: kept pending (tried again by the retries) until `maxAttempts`, then failed. */
export async function markRefundAttemptFailed(
  db: Queryable,
  key: string,
  error: ProblemData,
  maxAttempts: number,
): Promise<void> {
  await db.query(sql`
    update refunds set error = ${json(error)}::jsonb, attempts = attempts + 1,
      status = case when attempts + 1 >= ${maxAttempts}::int then 'failed' else 'pending' end,
      completed_at = case when attempts + 1 >= ${maxAttempts}::int then now() else null end
    where idempotency_key = ${key} and status = 'pending'`)
}
