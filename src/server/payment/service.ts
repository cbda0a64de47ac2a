import { createHash, randomBytes } from 'node:crypto'
import type {
  LocalAuthenticationRequest,
  LocalAuthenticationResponse,
  LocalConfirmRequest,
  LocalConfirmResponse,
  SetupIntentResponse,
} from '../../contract/index.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import type { Env } from '../platform/env.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { actionByClientSecret, settleLocalCharge } from './actions-repo.ts'
import { createLocalProvider } from './local.ts'
import type {
  ActionOutcome,
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  PaymentSetupRecord,
  RefundRequest,
} from './provider.ts'
import {
  insertPaymentSetup,
  insertPendingRefund,
  markRefundAttemptFailed,
  markRefunded,
  markSetupSucceeded,
  pendingRefund,
  pendingRefundKeys,
  refundsOwedCents,
  saveLocalCard,
  setupByCheckoutKey,
  setupByClientSecret,
  stalePendingRefunds,
} from './repo.ts'
import { cardBrand, cardOutcome, type SetupDeclineCode } from './test-cards.ts'

// Cards, charges and refunds (api-v1 "Order": the setup intent and the local card form): a checkout
// saves a card (spec §7 call 11), an order placed with it binds it (checked with the provider),
// processing charges it once per order, a cancel refunds it. Answers are results and typed errors; the
// routes (routes.ts) give each error its status and text.
//
// A refund (decision 017): the transaction that cancels the order (or decides a make-good slot) also
// writes the refund it owes as `pending` (oweRefund, in the caller's transaction; an order may owe
// several, each under its own key); the provider is then asked under the refund's
// idempotency key (sendRefund), and the row marked done. A crash in between leaves a pending row that
// the `refund-retry` job (jobs.ts) sends again with the same key: the money goes back exactly once.

export type { PaymentSetupRecord } from './provider.ts'

export type PaymentError =
  /** The checkout's card belongs to another customer, or there is no such checkout. */
  | { code: 'checkout_mismatch' }
  /** The checkout already paid for an order, or the card form was already used. */
  | { code: 'payment_already_saved' }
  | { code: 'setup_not_confirmed' }
  | { code: 'payment_unavailable' }
  | { code: 'local_cards_disabled' }
  | { code: 'payment_form_expired' }
  /** A test card's outcome; `declineCode` is Stripe's (card_declined, insufficient_funds, ...). */
  | { code: 'card_declined'; declineCode: string }

/** A refund is tried this many times (the cancel, then the retries) before it is shown as failed. */
const REFUND_MAX_ATTEMPTS = 10
/** The retries leave a fresh pending refund to the cancel that wrote it. */
const REFUND_RETRY_AFTER_MS = 30_000

export type PaymentSettings = Pick<
  Env,
  'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY' | 'STRIPE_API_URL'
>

/** The provider the settings choose: Stripe with a secret key, else the local test-card provider. */
export async function createPaymentProvider(
  settings: PaymentSettings,
  db: Queryable,
): Promise<PaymentProvider> {
  if (!settings.STRIPE_SECRET_KEY) return createLocalProvider(db)
  // The Stripe SDK is loaded only when it is used (about 18 MB of memory).
  const { createStripeProvider } = await import('./stripe.ts')
  return createStripeProvider(settings.STRIPE_SECRET_KEY, settings.STRIPE_PUBLISHABLE_KEY ?? null, {
    apiUrl: settings.STRIPE_API_URL,
  })
}

/** A refund an order owes (a cancel's, a make-good slot's): part or all of its charge, by its provider. */
export type OwedRefund = {
  orderGuid: string
  provider: string
  paymentId: string
  amountCents: number
  currency: string
  idempotencyKey: string
}

/** Why an order cannot be paid with its checkout's card. */
export type CardError = Extract<
  PaymentError,
  {
    code:
      | 'checkout_mismatch'
      | 'payment_already_saved'
      | 'setup_not_confirmed'
      | 'payment_unavailable'
  }
>

export type PaymentService = ReturnType<typeof createPaymentService>

export function createPaymentService(deps: {
  database: Database
  provider: PaymentProvider
  log: Logger
  now: () => number
  /** A charge the provider failed, or a card it refused. */
  onPaymentError?: (kind: 'provider' | 'declined') => void
}) {
  const { database: db, provider, log, now } = deps

  // spec §7 call 11: a setup intent for this checkout, bound to a checkoutSecretKey.
  async function createSetup(): Promise<
    Result<SetupIntentResponse, { code: 'payment_unavailable' }>
  > {
    let setup: Awaited<ReturnType<typeof provider.createSetup>>
    try {
      setup = await provider.createSetup()
    } catch (error) {
      log.error('payment provider unreachable', { error })
      return err({ code: 'payment_unavailable' })
    }
    const checkoutSecretKey = `cks_${randomBytes(24).toString('base64url')}`
    await insertPaymentSetup(db, {
      checkoutSecretKey,
      provider: provider.name,
      customerId: setup.customerId,
      clientSecret: setup.clientSecret,
      setupIntentId: setup.setupIntentId,
    })
    return ok({
      provider: provider.name,
      publishableKey: provider.publishableKey,
      clientSecret: setup.clientSecret,
      customerId: setup.customerId,
      checkoutSecretKey,
    })
  }

  // api-v1: the local provider's card form; Stripe's documented test cards and outcomes.
  async function confirmLocalCard(
    card: LocalConfirmRequest,
  ): Promise<
    Result<
      LocalConfirmResponse,
      | Extract<PaymentError, { code: 'local_cards_disabled' | 'payment_form_expired' }>
      | Extract<PaymentError, { code: 'payment_already_saved' }>
      | { code: 'card_declined'; declineCode: SetupDeclineCode }
    >
  > {
    if (provider.name !== 'local') return err({ code: 'local_cards_disabled' })
    const setup = await setupByClientSecret(db, card.clientSecret)
    if (!setup) return err({ code: 'payment_form_expired' })
    if (setup.status === 'succeeded') return err({ code: 'payment_already_saved' })
    const current = new Date(now())
    const expired =
      card.expYear < current.getUTCFullYear() ||
      (card.expYear === current.getUTCFullYear() && card.expMonth < current.getUTCMonth() + 1)
    if (expired) {
      return err({ code: 'card_declined', declineCode: 'expired_card' })
    }
    const outcome = cardOutcome(card.cardNumber)
    if (outcome.kind === 'declined') {
      return err({ code: 'card_declined', declineCode: outcome.code })
    }
    // Only the brand and the last four digits are kept: never the number or the code.
    const saved = { brand: cardBrand(card.cardNumber), last4: card.cardNumber.slice(-4) }
    await saveLocalCard(db, {
      checkoutSecretKey: setup.checkoutSecretKey,
      paymentMethodId: `pm_local_${randomBytes(8).toString('hex')}`,
      ...saved,
      chargeOutcome: outcome.kind === 'charge_declined' ? outcome.code : null,
    })
    return ok({ status: 'succeeded', card: saved })
  }

  /**
   * The card an order pays with: the one saved for its checkout (read with the order's rows,
   * reads.ts), by the same customer, not yet bound to another order (`used`), and confirmed by the
   * provider (asked once; the answer is kept).
   */
  async function cardForOrder(
    setup: PaymentSetupRecord | null,
    customerId: string,
    used: boolean,
  ): Promise<Result<PaymentSetupRecord, CardError>> {
    if (!setup || setup.customerId !== customerId) return err({ code: 'checkout_mismatch' })
    if (used) return err({ code: 'payment_already_saved' })
    if (setup.status !== 'succeeded') {
      let check: Awaited<ReturnType<typeof provider.checkSetup>>
      try {
        check = await provider.checkSetup(setup)
      } catch (error) {
        log.error('payment provider unreachable', { error })
        return err({ code: 'payment_unavailable' })
      }
      if (!check.confirmed) return err({ code: 'setup_not_confirmed' })
      await markSetupSucceeded(db, setup.checkoutSecretKey, check.paymentMethodId)
      setup.status = 'succeeded'
      setup.paymentMethodId = check.paymentMethodId
    }
    return ok(setup)
  }

  /**
   * The card saved for a checkout by its key (an advertiser accepting a proposal), checked as an
   * order's card is: the same customer, not used already, confirmed by the provider.
   */
  async function cardForCheckout(
    checkoutSecretKey: string,
    customerId: string,
    used: boolean,
  ): Promise<Result<PaymentSetupRecord, CardError>> {
    return cardForOrder(await setupByCheckoutKey(db, checkoutSecretKey), customerId, used)
  }

  /**
   * Charges an order's card, trying the provider three times with back-off; a repeated call (after
   * a crash) charges once, since the provider keys the charge by the order.
   */
  async function charge(request: ChargeRequest): Promise<ChargeResult> {
    const result = await chargeWithRetry(request)
    if (!result.ok) deps.onPaymentError?.('declined')
    return result
  }

  async function chargeWithRetry(request: ChargeRequest): Promise<ChargeResult> {
    let lastError: unknown
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await provider.charge(request)
      } catch (error) {
        lastError = error
        log.warn('charge attempt failed', { guid: request.orderGuid, attempt, error })
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt))
      }
    }
    log.error('charge failed', { guid: request.orderGuid, error: lastError })
    deps.onPaymentError?.('provider')
    return { ok: false as const, problem: { code: 'unknown_error' }, paymentId: null }
  }

  /** Asks the provider for a pending refund, under its idempotency key; records the outcome. */
  async function sendKeyedRefund(key: string): Promise<void> {
    const refund = await pendingRefund(db, key)
    if (!refund) return
    const guid = refund.orderGuid
    if (refund.provider !== provider.name) {
      await markRefundAttemptFailed(
        db,
        key,
        {
          code: 'refund_provider_mismatch',
          params: { provider: refund.provider, current: provider.name },
        },
        REFUND_MAX_ATTEMPTS,
      )
      return
    }
    const request: RefundRequest = {
      orderGuid: guid,
      paymentId: refund.paymentId,
      amountCents: refund.amountCents,
      currency: refund.currency,
      idempotencyKey: key,
    }
    try {
      const made = await provider.refund(request)
      await markRefunded(db, key, made.refundId, made.status ?? null)
      log.info('order refunded', { guid, key, amountCents: refund.amountCents })
    } catch (error) {
      log.warn('refund failed', { guid, key, attempt: refund.attempts + 1, error })
      await markRefundAttemptFailed(
        db,
        key,
        { code: 'refund_failed', params: { reason: (error as Error).message || String(error) } },
        REFUND_MAX_ATTEMPTS,
      )
    }
  }

  /** Sends an order's pending refunds (a cancel's, its make-good slots'), each under its key. */
  async function sendRefund(guid: string): Promise<void> {
    for (const key of await pendingRefundKeys(db, guid)) await sendKeyedRefund(key)
  }

  /** A charge that waited for the cardholder, as the order keeps it (payment/reads.ts). */
  type WaitingCharge = { provider: string; paymentId: string }

  /**
   * Where a charge that waited for the cardholder stands, asked of the provider that made it (a
   * charge of another provider than this server's cannot be confirmed here: failed). Throws when the
   * provider is unreachable (the caller tries again later).
   */
  async function actionOutcome(charge: WaitingCharge): Promise<ActionOutcome> {
    if (charge.provider !== provider.name) return 'failed'
    return provider.actionOutcome(charge.paymentId)
  }

  /** Stops waiting for the cardholder; answers the charge's final outcome. */
  async function cancelAction(charge: WaitingCharge): Promise<Exclude<ActionOutcome, 'pending'>> {
    if (charge.provider !== provider.name) return 'failed'
    return provider.cancelAction(charge.paymentId)
  }

  // The local provider's test authentication screen: the cardholder completes or fails the check
  // (as on Stripe's test page); the first answer stands.
  async function authenticateLocal(
    answer: LocalAuthenticationRequest,
  ): Promise<
    Result<LocalAuthenticationResponse, { code: 'local_cards_disabled' | 'payment_form_expired' }>
  > {
    if (provider.name !== 'local') return err({ code: 'local_cards_disabled' })
    const action = await actionByClientSecret(db, answer.clientSecret)
    if (action?.provider !== 'local') return err({ code: 'payment_form_expired' })
    const status = await settleLocalCharge(
      db,
      action.paymentId,
      answer.outcome === 'complete'
        ? { status: 'succeeded' }
        : { status: 'failed', error: { code: 'authentication_failed' } },
    )
    return ok({ status })
  }

  return {
    /** The provider in use: `stripe` or `local`. */
    name: provider.name,
    /** Stripe.js's key for the app (null for the local provider). */
    publishableKey: provider.publishableKey,
    actionOutcome,
    cancelAction,
    authenticateLocal,
    createSetup,
    confirmLocalCard,
    cardForOrder,
    cardForCheckout,
    charge,
    /** Writes a refund an order owes, pending, in the caller's transaction (once per key). */
    oweRefund: (tx: Queryable, refund: OwedRefund) => insertPendingRefund(tx, refund),
    /** What an order's refunds give back or will, so a cancel refunds only the rest. */
    refundsOwedCents: (tx: Queryable, guid: string) => refundsOwedCents(tx, guid),
    sendRefund,
    /**
     * Gives back part or all of a charge no order holds (a campaign's day), under the refund's
     * key: a repeat is the same refund. The local provider took no money for such a charge (it
     * keeps no record of it), so it gives none back and answers a refund id made from the key.
     */
    async refundCharge(refund: {
      reference: string
      paymentId: string
      amountCents: number
      currency: string
      idempotencyKey: string
    }): Promise<
      Result<{ refundId: string }, { code: 'refund_failed'; params: { reason: string } }>
    > {
      if (provider.name === 'local') {
        const digest = createHash('sha256').update(refund.idempotencyKey).digest('hex')
        return ok({ refundId: `re_local_${digest.slice(0, 24)}` })
      }
      try {
        const made = await provider.refund({ ...refund, orderGuid: refund.reference })
        return ok({ refundId: made.refundId })
      } catch (error) {
        log.warn('charge refund failed', { key: refund.idempotencyKey, error })
        return err({
          code: 'refund_failed',
          params: { reason: (error as Error).message || String(error) },
        })
      }
    },
    /**
     * Sends again the refunds a crash or an outage left pending (the `refund-retry` job): safe on
     * several instances, each refund keyed. Answers how many were tried.
     */
    async retryRefunds(): Promise<number> {
      const stale = await stalePendingRefunds(db, now(), REFUND_RETRY_AFTER_MS)
      for (const key of stale) await sendKeyedRefund(key)
      return stale.length
    },
  }
}
