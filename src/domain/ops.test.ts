import { describe, expect, it } from 'vitest'
import {
  canApprove,
  cancelVerdict,
  chargedCents,
  passwordProblem,
  reviewExpired,
  roleAllows,
  SESSION_IDLE_MS,
  sessionAlive,
} from './ops'
import { ORDER_STATES } from './order-state'

// "Roles", "Review queue".

const STATES = ORDER_STATES

describe('operator rules', () => {
  it('wants passwords of 12 to 200 characters, counted as characters', () => {
    const tooShort = { code: 'password_weak', params: { min: 12 } }
    expect(passwordProblem('elevenchars')).toEqual(tooShort)
    expect(passwordProblem('twelve chars')).toBeNull()
    // 12 characters, more than 12 UTF-16 units below (emoji are two units each)
    expect(passwordProblem('🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑')).toEqual(tooShort)
    expect(passwordProblem('🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑')).toBeNull()
    expect(passwordProblem('x'.repeat(200))).toBeNull()
    expect(passwordProblem('x'.repeat(201))).toEqual({
      code: 'password_too_long',
      params: { max: 200 },
    })
  })

  it('lets admins do what reviewers do, not the reverse', () => {
    expect(roleAllows('admin', 'reviewer')).toBe(true)
    expect(roleAllows('admin', 'admin')).toBe(true)
    expect(roleAllows('reviewer', 'reviewer')).toBe(true)
    expect(roleAllows('reviewer', 'admin')).toBe(false)
  })

  it('ends a session after 12 hours without a call', () => {
    expect(sessionAlive(0, SESSION_IDLE_MS - 1)).toBe(true)
    expect(sessionAlive(0, SESSION_IDLE_MS)).toBe(false)
  })

  it('lets reviewers refuse only orders under review, admins cancel any live order', () => {
    const allowed = (role: 'admin' | 'reviewer') =>
      STATES.filter((s) => cancelVerdict(role, s).allowed)
    expect(allowed('reviewer')).toEqual(['UnderReview'])
    expect(allowed('admin')).toEqual(['Confirmed', 'UnderReview'])
    expect(cancelVerdict('reviewer', 'Confirmed')).toEqual({
      allowed: false,
      reason: 'reviewers_refuse_only',
    })
    for (const state of ['Failed', 'Cancelled', 'Processing'] as const) {
      expect(cancelVerdict('admin', state)).toEqual({ allowed: false, reason: 'not_cancellable' })
    }
  })

  it('approves only orders under review', () => {
    expect(STATES.filter(canApprove)).toEqual(['UnderReview'])
  })

  it('cancels an order by itself once its first slot begins under review', () => {
    expect(reviewExpired('UnderReview', 1000, 999)).toBe(false)
    expect(reviewExpired('UnderReview', 1000, 1000)).toBe(true)
    expect(reviewExpired('Confirmed', 1000, 5000)).toBe(false)
  })

  it('counts a charge once the order was confirmed or under review, never a refused one', () => {
    const paid = { paymentId: 'pi_1', totalCents: 1500 }
    expect(chargedCents({ ...paid, states: ['Processing', 'Confirmed'] })).toBe(1500)
    expect(chargedCents({ ...paid, states: ['UnderReview'] })).toBe(1500)
    // cancelled since: it was charged (the refund gives it back)
    expect(chargedCents({ ...paid, states: ['Processing', 'UnderReview', 'Cancelled'] })).toBe(1500)
    // a refused charge keeps its id on the failed order
    expect(chargedCents({ ...paid, states: ['Processing', 'Failed'] })).toBe(0)
    expect(chargedCents({ ...paid, states: ['Processing'] })).toBe(0)
    expect(chargedCents({ paymentId: null, totalCents: 1500, states: ['Confirmed'] })).toBe(0)
    // a free order (a 100 % promo) charges nothing
    expect(chargedCents({ paymentId: 'pi_1', totalCents: 0, states: ['Confirmed'] })).toBe(0)
  })
})
