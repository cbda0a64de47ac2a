// The payment module's own English texts, beside the spec's (src/domain/messages.ts): what a shopper
// reads when a card cannot be saved or used. Routes answer them for the codes of service.ts; an order
// that fails while processed keeps its reason in orders.errors (GET status shows it).
export const paymentMessages = {
  checkoutMismatch:
    'The payment details do not belong to this checkout. Please go back to Billing Info and enter your card again.',
  setupNotConfirmed:
    'Your card has not been saved yet. Please go back to Billing Info and enter your card details.',
  providerUnavailable: 'Payments are unavailable right now. Please try again in a moment.',
  noBodyExpected: 'This request takes no body',
  localCardsDisabled: 'Cards are confirmed with Stripe on this server',
  paymentFormExpired: 'This payment form has expired. Please refresh the page.',
} as const
