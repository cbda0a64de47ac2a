// The states an order can be in: Processing until its charge settles, AwaitingAuthentication while
// the charge waits for the cardholder to confirm it with their bank (its slots stay held), then
// Confirmed, UnderReview or Failed; and Cancelled (by an operator, or by itself when its
// review ran past its first slot). The one list: the contract's OrderStateSchema, the operators'
// rules (ops.ts) and the playout's (schedule.ts) all take it from here.

export const ORDER_STATES = [
  'Processing',
  'AwaitingAuthentication',
  'Confirmed',
  'UnderReview',
  'Failed',
  'Cancelled',
] as const
export type OrderState = (typeof ORDER_STATES)[number]
