import { declineProblemCode } from '../../contract/problems.ts'
import { problem, type Refusal } from '../platform/http/errors.ts'
import type { PaymentError } from './service.ts'

// The status of each of the payment service's errors (their English is the catalogue's): answered by
// the payment routes, and by the order routes for a card an order cannot be placed with.

export function paymentRefusal(error: PaymentError): Refusal {
  switch (error.code) {
    case 'checkout_mismatch':
    case 'payment_already_saved':
    case 'setup_not_confirmed':
    case 'payment_unavailable':
    case 'local_cards_disabled':
    case 'payment_form_expired':
      return { problems: [problem(error.code)] }
    case 'card_declined':
      // Stripe's own decline code (insufficient_funds, expired_card...), as Stripe.js reports it.
      return { status: 402, problems: [{ code: declineProblemCode(error.declineCode) }] }
  }
}
