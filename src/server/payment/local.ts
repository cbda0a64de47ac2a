import { randomBytes } from 'node:crypto'
import type { Database } from '../platform/db/client.ts'
import type {
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  PaymentSetupRecord,
} from './provider.ts'

const token = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`

/**
 * The offline provider: setup intents live in the database and are confirmed by the test-card
 * endpoint (routes/payment.ts); a charge records a payment row, once per order.
 */
export function createLocalProvider(database: Database): PaymentProvider {
  return {
    name: 'local',
    publishableKey: null,
    async createSetup() {
      const setupIntentId = token('seti_local')
      return {
        customerId: token('cus_local'),
        setupIntentId,
        clientSecret: `${setupIntentId}_secret_${randomBytes(16).toString('hex')}`,
      }
    },
    async checkSetup(setup: PaymentSetupRecord) {
      return setup.status === 'succeeded'
        ? { confirmed: true, paymentMethodId: setup.paymentMethodId }
        : { confirmed: false }
    },
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      // One payment per order (unique order_guid): a charge repeated after a crash finds the first.
      const declined = request.setup.chargeOutcome
      const inserted = await database.raw<{ id: string; status: string; error: string | null }>(
        `insert into payments (id, order_guid, provider, amount_cents, currency, status, error)
         values ($1, $2, 'local', $3, $4, $5, $6)
         on conflict (order_guid) do nothing returning id, status, error`,
        [
          token('pi_local'),
          request.orderGuid,
          request.amountCents,
          request.currency,
          declined ? 'failed' : 'succeeded',
          declined,
        ],
      )
      const payment =
        inserted[0] ??
        (
          await database.raw<{ id: string; status: string; error: string | null }>(
            'select id, status, error from payments where order_guid = $1',
            [request.orderGuid],
          )
        )[0]
      if (!payment) throw new Error(`payment of order ${request.orderGuid} vanished`)
      return payment.status === 'succeeded'
        ? { ok: true, paymentId: payment.id }
        : { ok: false, error: payment.error ?? 'Payment failed', paymentId: payment.id }
    },
  }
}
