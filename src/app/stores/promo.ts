import { spotlight } from '../../contract/catalogue'
import { promoCodeToFetch } from '../../domain/order-rules'
import type { ProblemData } from '../../domain/problems'
import { ApiError, callApi } from '../lib/api'
import { orderStore } from './order'
import { toggleModal } from './ui'

export type PromoLookup = { ok: true } | { ok: false; problem: ProblemData }

/**
 * spec §4 promo lookup: sets the promo on success, sets the promo error on failure, and always
 * marks promo data fetched. The problem is the server's (the spec's promo sentences), or
 * promo_problem ("There was a problem with your promo code …") when the lookup itself failed.
 */
export async function lookupPromo(code: string, eventSlug: string): Promise<PromoLookup> {
  const email = orderStore.contactInfo.email.trim()
  try {
    const promo = await callApi(spotlight.promo, {
      params: { promoCode: code.trim() },
      query: { eventSlug, email: email || undefined },
    })
    orderStore.orderPromo = promo
    orderStore.orderPromoError = null
    return { ok: true }
  } catch (error) {
    const problem: ProblemData =
      error instanceof ApiError && error.problems[0] && error.statusCode < 500
        ? error.problems[0]
        : { code: 'promo_problem', params: { promoCode: code } }
    orderStore.orderPromoError = problem
    return { ok: false, problem }
  } finally {
    orderStore.hasFetchedPromotionData = true
  }
}

/**
 * spec §4: a promo in the URL query is ignored when absent, not a plain string (e.g. repeated), or
 * equal to the order's promo; otherwise fetched, and a failure opens the promo-code-error modal.
 */
let queryLookupInFlight: string | null = null

export async function applyPromoFromQuery(value: unknown, eventSlug: string): Promise<void> {
  const code = promoCodeToFetch(value, orderStore.orderPromo?.promoCode ?? null)
  if (code === null || code === queryLookupInFlight) return
  // one lookup per code at a time: a second run of the effect must not toggle the modal shut
  queryLookupInFlight = code
  try {
    const result = await lookupPromo(code, eventSlug)
    if (!result.ok) toggleModal('PromoCodeError', { code }, result.problem)
  } finally {
    queryLookupInFlight = null
  }
}
