import { type DeclineCode, declineProblemCode } from '../../contract/problems.ts'
import { problem, type Refusal } from '../platform/http/errors.ts'
import type { PaymentError } from './service.ts'

// The status of each of the payment service's errors (their English is the catalogue's): answered by
// the payment routes, and by the order routes for a card an order cannot be placed with.

/** The codes a payment error is answered with: its own, or for a decline the card's reason. */
export type PaymentRefusalCode<E extends PaymentError> = E extends {
  code: 'card_declined'
  declineCode: infer D extends string
}
  ? DeclineCodeOf<D>
  : Exclude<E['code'], 'card_declined'>

/** The code a decline is answered with (declineProblemCode): its own if the catalogue has it. */
type DeclineCodeOf<D extends string> = string extends D
  ? DeclineCode
  : Extract<D, DeclineCode> | ([Exclude<D, DeclineCode>] extends [never] ? never : 'card_declined')

/** The answer to a payment error, typed by the errors it may be. */
export const paymentRefusal = <E extends PaymentError>(error: E) =>
  refusalOf(error) as Refusal<PaymentRefusalCode<E>>

function refusalOf(error: PaymentError): Refusal {
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
