import type { ProblemData } from '../../domain/problems.ts'
import { epochMs, type Sql, sql } from '../platform/db/sql.ts'

// What the payment module lets other modules read of its tables. Placing and processing an order
// read the checkout's card with the order's own rows in one round trip (the hot path of the shop),
// and the console and the mails read an order's card and refund with it: so each is offered as a
// scalar subquery or a condition that the reader's statement embeds. The SQL on payment_setups and
// refunds stays here.

export type { PaymentSetupRecord } from './provider.ts'

/** The card saved for a checkout (a PaymentSetupRecord as JSON, or null), by its checkoutSecretKey. */
export function checkoutCard(checkoutSecretKey: Sql): Sql {
  return sql`(select json_build_object('checkoutSecretKey', p.checkout_secret_key,
    'customerId', p.customer_id, 'setupIntentId', p.setup_intent_id, 'status', p.status,
    'paymentMethodId', p.payment_method_id, 'chargeOutcome', p.charge_outcome)
    from payment_setups p where p.checkout_secret_key = ${checkoutSecretKey})`
}

/** What the console shows of a checkout's card: {provider, cardBrand, cardLast4} as JSON, or null. */
export function checkoutCardFacts(checkoutSecretKey: Sql): Sql {
  return sql`(select json_build_object('provider', ps.provider, 'cardBrand', ps.card_brand,
    'cardLast4', ps.card_last4)
    from payment_setups ps where ps.checkout_secret_key = ${checkoutSecretKey})`
}

/** The provider that saved a checkout's card (`stripe`, `local`), or null. */
export function checkoutProvider(checkoutSecretKey: Sql): Sql {
  return sql`(select ps.provider from payment_setups ps
    where ps.checkout_secret_key = ${checkoutSecretKey})`
}

export type RefundRow = {
  orderGuid: string
  provider: string
  paymentId: string
  amountCents: number
  currency: string
  idempotencyKey: string
  status: 'pending' | 'succeeded' | 'failed'
  /** the last failed attempt's problem (refund_failed: the provider's words) */
  error: ProblemData | null
  attempts: number
  /** Stripe's status of the refund (pending, succeeded, failed, canceled…), as its events say */
  providerStatus: string | null
  createdAtEpochMs: number
  completedAtEpochMs: number | null
}

export const REFUND_JSON = sql`json_build_object('orderGuid', r.order_guid, 'provider', r.provider,
  'paymentId', r.payment_id, 'amountCents', r.amount_cents, 'currency', r.currency,
  'idempotencyKey', r.idempotency_key, 'status', r.status, 'error', r.error,
  'attempts', r.attempts, 'providerStatus', r.provider_status, 'createdAtEpochMs', round(${epochMs(sql`r.created_at`)}),
  'completedAtEpochMs', round(${epochMs(sql`r.completed_at`)}))`

/**
 * The refunds that `where` (a condition on `r`) picks, summed up as one RefundRow as JSON (null when
 * none): an order may owe several (a cancel's, each make-good slot's). Its amount is theirs together;
 * it is failed if one failed, pending while one is, succeeded when all are; the error and Stripe's
 * status are the latest there are.
 */
function refundsTogether(where: Sql): Sql {
  return sql`(select json_build_object('orderGuid', min(r.order_guid), 'provider', min(r.provider),
    'paymentId', min(r.payment_id), 'amountCents', sum(r.amount_cents)::int, 'currency', min(r.currency),
    'idempotencyKey', string_agg(r.idempotency_key, ' ' order by r.created_at, r.idempotency_key),
    'status', case when bool_or(r.status = 'failed') then 'failed'
      when bool_or(r.status = 'pending') then 'pending' else 'succeeded' end,
    'error', (array_agg(r.error order by r.created_at desc) filter (where r.error is not null))[1],
    'attempts', max(r.attempts),
    'providerStatus', (array_agg(r.provider_status order by r.created_at desc)
      filter (where r.provider_status is not null))[1],
    'createdAtEpochMs', round(${epochMs(sql`min(r.created_at)`)}),
    'completedAtEpochMs', case when bool_and(r.completed_at is not null)
      then round(${epochMs(sql`max(r.completed_at)`)}) end)
    from refunds r where ${where} having count(*) > 0)`
}

/** An order's refunds together (a RefundRow as JSON, or null), by the order's guid. */
export function orderRefund(orderGuid: Sql): Sql {
  return refundsTogether(sql`r.order_guid = ${orderGuid}`)
}

/** The refunds of these idempotency keys (a text[]) together (a RefundRow as JSON, or null). */
export function keyedRefunds(keys: Sql): Sql {
  return refundsTogether(sql`r.idempotency_key = any(${keys}::text[])`)
}

/** What an order's refunds gave back, 0 until the provider took them (succeeded). */
export function refundedCents(orderGuid: Sql): Sql {
  return sql`coalesce((select sum(f.amount_cents)::int from refunds f
    where f.order_guid = ${orderGuid} and f.status = 'succeeded'), 0)`
}

/** True while one of an order's refunds is not done (pending, or failed for good). */
export function refundOpen(orderGuid: Sql): Sql {
  return sql`exists (select 1 from refunds f
    where f.order_guid = ${orderGuid} and f.status in ('pending', 'failed'))`
}

/** True while one of the refunds of these keys (a text[]) is not done. */
export function keyedRefundOpen(keys: Sql): Sql {
  return sql`exists (select 1 from refunds f
    where f.idempotency_key = any(${keys}::text[]) and f.status in ('pending', 'failed'))`
}

/**
 * The charge an order waits on the cardholder for: {provider, paymentId, clientSecret} as JSON, or
 * null (its status answer gives the app the secret; settling reads the provider's charge).
 */
export function orderPaymentAction(orderGuid: Sql): Sql {
  return sql`(select json_build_object('provider', a.provider, 'paymentId', a.payment_id,
    'clientSecret', a.client_secret)
    from payment_actions a where a.order_guid = ${orderGuid})`
}

/** A chargeback on an order's charge, as Stripe's events told it (payment/webhooks.ts). */
export type DisputeFacts = {
  disputeId: string
  amountCents: number
  currency: string
  reason: string
  status: string
  evidenceDueEpochMs: number | null
  openedAtEpochMs: number
  closedAtEpochMs: number | null
}

/** An order's disputes (DisputeFacts as a JSON array, oldest first; empty when none), by its guid. */
export function orderDisputes(orderGuid: Sql): Sql {
  return sql`coalesce((select json_agg(json_build_object('disputeId', d.dispute_id,
      'amountCents', d.amount_cents, 'currency', d.currency, 'reason', d.reason, 'status', d.status,
      'evidenceDueEpochMs', round(${epochMs(sql`d.evidence_due_at`)}),
      'openedAtEpochMs', round(${epochMs(sql`d.opened_at`)}),
      'closedAtEpochMs', round(${epochMs(sql`d.closed_at`)})) order by d.opened_at, d.dispute_id)
    from payment_disputes d where d.order_guid = ${orderGuid}), '[]'::json)`
}
