// The order module's own English texts, beside the spec's (src/domain/messages.ts) and the payment
// module's (payment/messages.ts): what a shopper reads when an order cannot be placed as sent.
export const orderMessages = {
  oneBillboard: 'entries: an order is for one billboard; place one order per billboard',
  orderTypeProduction: 'orderType: must be Standard on this server',
  requestInProgress: 'An identical request is already being processed',
} as const
