import { createHash, randomBytes } from 'node:crypto'
import { declineProblemCode } from '../../contract/problems.ts'
import type { ProblemData } from '../../domain/problems.ts'
import type { Queryable } from '../platform/db/client.ts'
import { localChargeOutcome, settleLocalCharge } from './actions-repo.ts'
import type {
  ChargeRecord,
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  PaymentSetupRecord,
  RefundRequest,
} from './provider.ts'
import { recordRefund } from './repo.ts'
import { AUTHENTICATION_REQUIRED } from './test-cards.ts'

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
      const outcome = request.setup.chargeOutcome
      const id = token('pi_local')
      const record = (status: ChargeRecord['status'], error: ProblemData | null): ChargeRecord => ({
        id,
        orderGuid: request.orderGuid,
        provider: 'local',
        amountCents: request.amountCents,
        currency: request.currency,
        status,
        error,
      })
      if (outcome === AUTHENTICATION_REQUIRED) {
        // A 3-D Secure test card: on session the charge waits for the test screen's answer
        // (settleLocalCharge); off session the bank's question is a decline, as Stripe's is
        const problem = { code: AUTHENTICATION_REQUIRED } as const
        if (!request.onSession) {
          return { ok: false, problem, paymentId: id, record: record('failed', problem) }
        }
        const clientSecret = `${id}_secret_${randomBytes(16).toString('hex')}`
        return {
          ok: false,
          problem,
          paymentId: id,
          record: record('requires_action', null),
          action: { clientSecret },
        }
      }
      if (outcome) {
        const problem = { code: declineProblemCode(outcome) }
        return { ok: false, problem, paymentId: id, record: record('failed', problem) }
      }
      return { ok: true, paymentId: id, record: record('succeeded', null) }
    },
    actionOutcome: (paymentId: string) => localChargeOutcome(db, paymentId),
    cancelAction: (paymentId: string) =>
      settleLocalCharge(db, paymentId, {
        status: 'failed',
        error: { code: 'authentication_failed' },
      }),
    async refund(request: RefundRequest) {
      // Recorded once per key on its payment (an order may owe several: a cancel, make-good
      // slots); the id follows from the key, so a repeat answers the same refund.
      const recorded = await recordRefund(db, request)
      if (!recorded)
        throw new Error(`order ${request.orderGuid} has no charge ${request.paymentId}`)
      const digest = createHash('sha256').update(request.idempotencyKey).digest('hex')
      return { refundId: `re_local_${digest.slice(0, 24)}` }
    },
  }
}
