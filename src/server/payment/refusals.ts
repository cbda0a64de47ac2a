import { declineErrorCode } from '../../contract/error-codes.ts'
import { messages } from '../../domain/index.ts'
import { problem, type Refusal } from '../platform/http/errors.ts'
import { paymentMessages } from './messages.ts'
import type { PaymentError } from './service.ts'

// The status and the text of each of the payment service's errors: answered by the payment routes,
// and by the order routes for a card an order cannot be placed with.

export function paymentRefusal(error: PaymentError): Refusal {
  switch (error.code) {
    case 'checkout_mismatch':
      return { status: 400, problems: [problem(error.code, paymentMessages.checkoutMismatch)] }
    case 'payment_already_saved':
      return { status: 409, problems: [problem(error.code, messages.paymentAlreadySaved)] }
    case 'setup_not_confirmed':
      return { status: 400, problems: [problem(error.code, paymentMessages.setupNotConfirmed)] }
    case 'payment_unavailable':
      return { status: 503, problems: [problem(error.code, paymentMessages.providerUnavailable)] }
    case 'local_cards_disabled':
      return { status: 404, problems: [problem(error.code, paymentMessages.localCardsDisabled)] }
    case 'payment_form_expired':
      return { status: 404, problems: [problem(error.code, paymentMessages.paymentFormExpired)] }
    case 'card_declined':
      // Stripe's own decline code (insufficient_funds, expired_card...), as Stripe.js reports it.
      return {
        status: 402,
        problems: [problem(declineErrorCode(error.declineCode), error.message)],
      }
  }
}
