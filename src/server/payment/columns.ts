import { columnMap } from '../platform/db/columns.ts'
import type { PaymentSetupRecord } from './provider.ts'
import type { RefundRow } from './reads.ts'

// The payment module's tables (migrations 0001, 0007, 0025) as its rows name their fields: the
// select and `returning` lists are written from these declarations.

export const PAYMENT_SETUPS = columnMap<
  PaymentSetupRecord & { provider: string; clientSecret: string }
>('payment_setups', {
  checkoutSecretKey: 'checkout_secret_key',
  provider: 'provider',
  customerId: 'customer_id',
  clientSecret: 'client_secret',
  setupIntentId: 'setup_intent_id',
  status: 'status',
  paymentMethodId: 'payment_method_id',
  chargeOutcome: 'charge_outcome',
})

/** A charge waiting for its cardholder's authentication (payment_actions). */
export const PAYMENT_ACTIONS = columnMap<{
  orderGuid: string
  provider: string
  paymentId: string
  clientSecret: string
}>('payment_actions', {
  orderGuid: 'order_guid',
  provider: 'provider',
  paymentId: 'payment_id',
  clientSecret: 'client_secret',
})

/** A refund an order owes, keyed (refunds). */
export const REFUNDS = columnMap<
  Pick<
    RefundRow,
    | 'orderGuid'
    | 'provider'
    | 'paymentId'
    | 'amountCents'
    | 'currency'
    | 'idempotencyKey'
    | 'status'
  >
>('refunds', {
  orderGuid: 'order_guid',
  provider: 'provider',
  paymentId: 'payment_id',
  amountCents: { column: 'amount_cents', cast: 'int' },
  currency: 'currency',
  idempotencyKey: 'idempotency_key',
  status: 'status',
})
