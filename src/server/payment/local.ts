import { createHash, randomBytes } from 'node:crypto'
import { declineProblemCode } from '../../contract/problems.ts'
import type { Queryable } from '../platform/db/client.ts'
import type {
  ChargeRecord,
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  PaymentSetupRecord,
  RefundRequest,
} from './provider.ts'
import { recordRefund } from './repo.ts'

const token = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`

/**
 * The offline provider: setup intents live in the database and are confirmed by the test-card
 * endpoint (routes.ts, POST /order/payment/local/confirm); a charge is a payment row, written with
 * the order's outcome, once per order.
 */
export function createLocalProvider(db: Queryable): PaymentProvider {
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
      // Nothing leaves the shop: the charge is its record, written with the order's outcome in one
      // commit (payment/writes.ts), once per order (unique order_guid; a charge repeated after a
      // crash keeps the first record's id).
      const declined = request.setup.chargeOutcome
      const record: ChargeRecord = {
        id: token('pi_local'),
        orderGuid: request.orderGuid,
        provider: 'local',
        amountCents: request.amountCents,
        currency: request.currency,
        status: declined ? 'failed' : 'succeeded',
        error: declined ? { code: declineProblemCode(declined) } : null,
      }
      return record.error
        ? { ok: false, problem: record.error, paymentId: record.id, record }
        : { ok: true, paymentId: record.id, record }
    },
    async refund(request: RefundRequest) {
      // One refund per order, recorded on its payment; the id follows from the key, so a repeat
      // answers the same refund.
      const recorded = await recordRefund(db, request)
      if (!recorded)
        throw new Error(`order ${request.orderGuid} has no charge ${request.paymentId}`)
      const digest = createHash('sha256').update(request.idempotencyKey).digest('hex')
      return { refundId: `re_local_${digest.slice(0, 24)}` }
    },
  }
}
