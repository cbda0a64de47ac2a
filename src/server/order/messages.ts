// The order module's own English texts, beside the spec's (src/domain/messages.ts): what a shopper
// reads when a checkout cannot go on. Routes answer them for the codes of service.ts; an order that
// fails while processed keeps its reason in orders.errors (GET status shows it).
export const paymentMessages = {
  checkoutMismatch:
    'The payment details do not belong to this checkout. Please go back to Billing Info and enter your card again.',
  setupNotConfirmed:
    'Your card has not been saved yet. Please go back to Billing Info and enter your card details.',
  oneBillboard: 'entries: an order is for one billboard; place one order per billboard',
  orderTypeProduction: 'orderType: must be Standard on this server',
  providerUnavailable: 'Payments are unavailable right now. Please try again in a moment.',
  requestInProgress: 'An identical request is already being processed',
  noBodyExpected: 'This request takes no body',
  localCardsDisabled: 'Cards are confirmed with Stripe on this server',
  paymentFormExpired: 'This payment form has expired. Please refresh the page.',
} as const
