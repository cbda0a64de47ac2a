// The states an order can be in: four states (Processing until its charge settles, then
// Confirmed, UnderReview or Failed) and Cancelled (by an operator, or by itself when its
// review ran past its first slot). The one list: the contract's OrderStateSchema, the operators'
// rules (ops.ts) and the playout's (schedule.ts) all take it from here.

export const ORDER_STATES = [
  'Processing',
  'Confirmed',
  'UnderReview',
  'Failed',
  'Cancelled',
] as const
export type OrderState = (typeof ORDER_STATES)[number]
