import type { ProblemData } from '../../domain/problems.ts'

// One payment interface, two providers: `stripe` when STRIPE_SECRET_KEY is set, `local`
// otherwise. Setup saves a card for this checkout (a SetupIntent with a Customer); the charge happens
// when the order is processed, for the total the server computed (an off-session PaymentIntent).
// The payment service (service.ts) chooses one from the settings and is its only user.

export type PaymentSetupRecord = {
  checkoutSecretKey: string
  customerId: string
  setupIntentId: string
  status: string
  paymentMethodId: string | null
  /** the local provider's test card that saves but is refused when charged: its decline code */
  chargeOutcome: string | null
}

export type CreatedSetup = { customerId: string; clientSecret: string; setupIntentId: string }

export type SetupCheck = { confirmed: true; paymentMethodId: string | null } | { confirmed: false }

export type ChargeRequest = {
  orderGuid: string
  amountCents: number
  currency: string
  setup: PaymentSetupRecord
  description: string
  /**
   * The cardholder is there (the shop's checkout): a charge their bank wants confirmed waits for
   * them (a `requires_action` answer) instead of being refused with authentication_required.
   */
  onSession?: boolean
}

/**
 * The record of a charge the provider does not keep itself (the local provider's `payments` row):
 * written by the statement that writes the order's outcome, so that both are one commit
 * (payment/writes.ts). Stripe keeps its own record: none.
 */
export type ChargeRecord = {
  id: string
  orderGuid: string
  provider: 'local'
  amountCents: number
  currency: string
  status: 'succeeded' | 'failed' | 'requires_action'
  /** why the charge was refused: a problem (payments.error), never English */
  error: ProblemData | null
}

export type ChargeResult =
  | { ok: true; paymentId: string; record?: ChargeRecord; action?: undefined }
  /** why it was refused: a card decline of the catalogue, or unknown_error */
  | {
      ok: false
      problem: ProblemData
      paymentId: string | null
      record?: ChargeRecord
      action?: undefined
    }
  /**
   * An on-session charge the cardholder's bank wants confirmed (3-D Secure): not made yet, not
   * refused. The app hands `clientSecret` to Stripe.js (handleNextAction) or to the local provider's
   * test screen; `problem` (authentication_required) is for a caller that cannot wait.
   */
  | {
      ok: false
      problem: ProblemData
      paymentId: string
      record?: ChargeRecord
      action: { clientSecret: string }
    }

/** Where a charge that waited for the cardholder stands. */
export type ActionOutcome = 'succeeded' | 'failed' | 'pending'

/** Giving a cancelled order's charge back. */
export type RefundRequest = {
  orderGuid: string
  /** The provider's id of the charge (Stripe: the PaymentIntent; local: the payments row). */
  paymentId: string
  amountCents: number
  currency: string
  /** The same key for every attempt of one refund: the provider gives the money back once. */
  idempotencyKey: string
}

/**
 * A refund the provider took: its id, and its status there (Stripe's: succeeded, or pending until
 * the card's bank answers; a later failure arrives as an event, payment/webhooks.ts). The local
 * provider gives the money back at once: null.
 */
export type RefundMade = { refundId: string; status?: string | null }

export interface PaymentProvider {
  readonly name: 'stripe' | 'local'
  readonly publishableKey: string | null
  createSetup(): Promise<CreatedSetup>
  /** Whether the shopper finished saving the card for this setup. */
  checkSetup(setup: PaymentSetupRecord): Promise<SetupCheck>
  /** Charges the saved card; the order guid makes a repeated call (after a crash) charge once. */
  charge(request: ChargeRequest): Promise<ChargeResult>
  /**
   * Refunds a charge; answers the provider's refund id. A repeated call with the same
   * idempotency key refunds once and answers the same. Throws when the provider refuses or is
   * unreachable (the caller keeps the refund pending and tries again).
   */
  refund(request: RefundRequest): Promise<RefundMade>
  /** Where a charge that waited for the cardholder (a `requires_action` answer) stands now. */
  actionOutcome(paymentId: string): Promise<ActionOutcome>
  /**
   * Stops waiting for the cardholder: the charge can no longer succeed afterwards. Answers its
   * final outcome (succeeded when the cardholder confirmed it just before).
   */
  cancelAction(paymentId: string): Promise<Exclude<ActionOutcome, 'pending'>>
}
