// The card numbers Stripe documents for testing (docs.stripe.com/testing), with their outcomes. The
// local provider answers as Stripe's test mode would, so the whole flow works without the network.
// A refusal is Stripe's decline code; its sentence is the catalogue's (src/contract/problems.ts).

export type CardOutcome =
  | { kind: 'succeeds' }
  // saves fine, refused when charged (Stripe: "attaching succeeds, charging fails")
  | { kind: 'charge_declined'; code: string }
  | { kind: 'declined'; code: SetupDeclineCode }

/** Why a test card is refused when it is saved (never for authentication: that comes at a charge). */
export type SetupDeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'lost_card'
  | 'stolen_card'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'incorrect_number'
  | 'processing_error'

/**
 * The setup's charge outcome (payment_setups.charge_outcome) of a 3-D Secure test card: its charge
 * asks the cardholder to confirm it with their bank (the local provider's test screen).
 */
export const AUTHENTICATION_REQUIRED = 'authentication_required'

const declined = (code: SetupDeclineCode): CardOutcome => ({ kind: 'declined', code })

const OUTCOMES: Record<string, CardOutcome> = {
  '4000000000000002': declined('card_declined'),
  '4000000000009995': declined('insufficient_funds'),
  '4000000000009987': declined('lost_card'),
  '4000000000009979': declined('stolen_card'),
  '4000000000000069': declined('expired_card'),
  '4000000000000127': declined('incorrect_cvc'),
  '4000000000000119': declined('processing_error'),
  '4000000000000341': { kind: 'charge_declined', code: 'card_declined' },
  // 3-D Secure: always asks, even once set up for later use
  '4000002760003184': { kind: 'charge_declined', code: AUTHENTICATION_REQUIRED },
  // 3-D Secure 2: the charge must be confirmed by the cardholder
  '4000000000003220': { kind: 'charge_declined', code: AUTHENTICATION_REQUIRED },
}

const SUCCEEDING = new Set([
  '4242424242424242', // Visa
  '4000056655665556', // Visa (debit)
  '5555555555554444', // Mastercard
  '2223003122003222', // Mastercard (2-series)
  '5200828282828210', // Mastercard (debit)
  '378282246310005', // American Express
  '371449635398431', // American Express
  '6011111111111117', // Discover
  '3056930009020004', // Diners Club
  '3566002020360505', // JCB
  '6200000000000005', // UnionPay
  // 3-D Secure, asks unless set up for later use: the checkout saves every card for later use (a
  // SetupIntent with usage off_session), so its charge goes through without asking
  '4000002500003155',
])

export function luhnValid(number: string): boolean {
  let sum = 0
  let double = false
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = Number(number[i])
    if (double) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
    double = !double
  }
  return sum % 10 === 0
}

export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa'
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return 'mastercard'
  if (/^3[47]/.test(number)) return 'amex'
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover'
  if (/^3(0[0-5]|[68])/.test(number)) return 'diners'
  if (/^35/.test(number)) return 'jcb'
  if (/^62/.test(number)) return 'unionpay'
  return 'unknown'
}

/** Stripe test mode refuses a real (non-test) card number; an invalid number is invalid. */
export function cardOutcome(number: string): CardOutcome {
  if (!luhnValid(number)) {
    return declined('incorrect_number')
  }
  const known = OUTCOMES[number]
  if (known) return known
  if (SUCCEEDING.has(number)) return { kind: 'succeeds' }
  return declined('card_declined')
}
