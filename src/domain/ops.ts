// Operations: who may do what to an order, and the lifetimes of an operator's secrets.
// Plain rules, shared by the server (which enforces them) and the console (which hides what an
// operator may not do).

import type { OrderState } from './order-state'
import { type DomainProblem, domainProblem } from './problems'

export const OPERATOR_ROLES = ['admin', 'reviewer'] as const
export type OperatorRole = (typeof OPERATOR_ROLES)[number]

/** Passwords of at least 12 characters (and a bound, so hashing stays cheap). */
export const PASSWORD_MIN_LENGTH = 12
export const PASSWORD_MAX_LENGTH = 200

/** Why the sweep cancels an order itself: its review outlived its first slot (the shopper reads it). */
export const AUTO_CANCEL_REASON: DomainProblem = domainProblem('review_outlived_first_slot')

/** Why a password is refused, or null when it is acceptable. Length counts characters, not bytes. */
export function passwordProblem(
  password: string,
): (DomainProblem & { readonly code: 'password_weak' | 'password_too_long' }) | null {
  const length = [...password].length
  if (length < PASSWORD_MIN_LENGTH)
    return { code: 'password_weak', params: { min: PASSWORD_MIN_LENGTH } }
  if (length > PASSWORD_MAX_LENGTH) {
    return { code: 'password_too_long', params: { max: PASSWORD_MAX_LENGTH } }
  }
  return null
}

/** A one-time set-password link works for 24 hours. */
export const SET_PASSWORD_LINK_TTL_MS = 24 * 3_600_000
/** A session ends after 12 hours without a call. */
export const SESSION_IDLE_MS = 12 * 3_600_000
/**
 * Failed sign-ins allowed in a window of SIGN_IN_WINDOW_MS, then 429: per account from one address
 * (a guesser there is stopped, the owner elsewhere still signs in), per address across accounts, and
 * per account across addresses (guessing from many addresses; high, so that locking the owner out
 * takes many addresses, and audited).
 */
export const SIGN_IN_FAILURE_LIMITS = { accountAtAddress: 10, address: 30, account: 100 } as const
export const SIGN_IN_WINDOW_MS = 15 * 60_000
/** Set-password attempts per address in SIGN_IN_WINDOW_MS (a link is used once). */
export const SET_PASSWORD_ATTEMPT_LIMIT = 10

/** Whether a session last seen at `lastSeenEpochMs` is still alive at `nowEpochMs`. */
export function sessionAlive(lastSeenEpochMs: number, nowEpochMs: number): boolean {
  return nowEpochMs - lastSeenEpochMs < SESSION_IDLE_MS
}

/** Whether a role may call an endpoint that asks for `required` (admins may do all reviewers do). */
export function roleAllows(role: OperatorRole, required: OperatorRole): boolean {
  return required === 'reviewer' || role === 'admin'
}

/**
 * Reviewers approve and refuse orders under review; cancelling any other order is
 * admin only. Nothing cancels an order already Cancelled or Failed (nothing is sold, nothing charged),
 * nor one still Processing or AwaitingAuthentication (its charge is under way or waits for the
 * cardholder's bank: cancel it once it settles).
 */
export type CancelVerdict =
  | { allowed: true }
  | { allowed: false; reason: 'not_cancellable' | 'reviewers_refuse_only' }

export function cancelVerdict(role: OperatorRole, state: OrderState): CancelVerdict {
  if (
    state === 'Cancelled' ||
    state === 'Failed' ||
    state === 'Processing' ||
    state === 'AwaitingAuthentication'
  ) {
    return { allowed: false, reason: 'not_cancellable' }
  }
  if (role === 'reviewer' && state !== 'UnderReview') {
    return { allowed: false, reason: 'reviewers_refuse_only' }
  }
  return { allowed: true }
}

/** Only an order under review can be approved (→ Confirmed: it plays). */
export const canApprove = (state: OrderState): boolean => state === 'UnderReview'

/**
 * What an order was charged, in cents: what the console shows as charged and what a cancel refunds
 * (a cancel refunds the whole charge). A charge succeeded when the order has a
 * payment, a total above zero, and reached Confirmed or UnderReview, where only a settled charge
 * leads (src/server/order/service.ts); a Failed order may keep the id of a refused charge. An order
 * cancelled since keeps what it was charged (its refund says what went back).
 */
export function chargedCents(order: {
  paymentId: string | null
  totalCents: number
  /** The states the order has been in (its history); its present one is enough while it is live. */
  states: readonly OrderState[]
}): number {
  const paid =
    order.paymentId !== null &&
    order.totalCents > 0 &&
    order.states.some((state) => state === 'Confirmed' || state === 'UnderReview')
  return paid ? order.totalCents : 0
}

/**
 * Where an order's charge stands, as the console shows it: nothing to charge (free), being charged
 * (Processing), charged, declined (the order failed on its payment), or never charged (cancelled
 * or failed before its charge).
 */
export const PAYMENT_STATES = ['free', 'pending', 'charged', 'declined', 'not_charged'] as const
export type PaymentState = (typeof PAYMENT_STATES)[number]

export function paymentState(order: {
  totalCents: number
  chargedCents: number
  state: OrderState
  /** the order's errors name a card decline or a failed charge */
  paymentRefused: boolean
}): PaymentState {
  if (order.totalCents === 0) return 'free'
  if (order.chargedCents > 0) return 'charged'
  if (order.state === 'Processing' || order.state === 'AwaitingAuthentication') return 'pending'
  if (order.state === 'Failed' && order.paymentRefused) return 'declined'
  return 'not_charged'
}

/**
 * An order whose first slot begins while it is still under review is cancelled and
 * refunded by itself: its content was never approved to play.
 */
export function reviewExpired(
  state: OrderState,
  firstSlotStartEpochMs: number,
  nowEpochMs: number,
): boolean {
  return state === 'UnderReview' && firstSlotStartEpochMs <= nowEpochMs
}
