import { type Sql, sql } from '../platform/db/sql.ts'

// What the payment module lets other modules read of its tables. Placing and processing an order
// read the checkout's card with the order's own rows in one round trip (the hot path of the shop), so
// the card is offered as a scalar subquery that the order's statement embeds: the SQL on
// payment_setups stays here.

export type { PaymentSetupRecord } from './provider.ts'

/** The card saved for a checkout (a PaymentSetupRecord as JSON, or null), by its checkoutSecretKey. */
export function checkoutCard(checkoutSecretKey: Sql): Sql {
  return sql`(select json_build_object('checkoutSecretKey', p.checkout_secret_key,
    'customerId', p.customer_id, 'setupIntentId', p.setup_intent_id, 'status', p.status,
    'paymentMethodId', p.payment_method_id, 'chargeOutcome', p.charge_outcome)
    from payment_setups p where p.checkout_secret_key = ${checkoutSecretKey})`
}
