import type { PromoResponse } from '../../contract/index.ts'
import { customerEmailKey } from '../../domain/index.ts'
import type { Queryable } from '../platform/db/client.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { findPromo, type PromoRow } from './repo.ts'

// spec §5 promo codes: checked when a shopper looks one up (routes.ts) and again when an order names
// one (order/place.ts), by the same rules. Whether an e-mail used a code is the order module's
// (promo_redemptions), handed in.

export type PromoError =
  /** spec §5: no such code. */
  | { code: 'promo_invalid' }
  /** spec §5: a code of another event. */
  | { code: 'promo_wrong_event' }
  /** spec §5: a once-per-customer code this e-mail used already. */
  | { code: 'promo_once_per_customer' }

export type CheckedPromo = {
  promo: PromoResponse
  /** The code as stored when it is once per customer (an order then records its redemption). */
  oncePerCustomerCode: string | null
}

/** One customer, one redemption: e-mails are compared as the mailbox they reach (src/domain). */
export const normalEmail = customerEmailKey

// spec §3: {promoCode, centsOffTotal} or {promoCode, percentOffTotal}
function promoToApi(row: PromoRow): PromoResponse {
  if (row.centsOffTotal !== null) {
    return { promoCode: row.promoCode, centsOffTotal: row.centsOffTotal }
  }
  // promo_one_discount (migrations/0001_core.sql): a promo without cents off has a percentage.
  return { promoCode: row.promoCode, percentOffTotal: row.percentOffTotal as number }
}

export type PromoCheck = ReturnType<typeof createPromoCheck>

export function createPromoCheck(deps: {
  db: Queryable
  redeemed: (promoCode: string, email: string) => Promise<boolean>
}) {
  const { db } = deps
  return {
    /** A code for this event (and, with an e-mail, not used by it yet when once per customer). */
    async check(
      code: string,
      eventSlug: string,
      email: string | null,
    ): Promise<Result<CheckedPromo, PromoError>> {
      const row = await findPromo(db, code)
      if (!row) return err({ code: 'promo_invalid' })
      if (row.eventSlug !== eventSlug) return err({ code: 'promo_wrong_event' })
      if (
        row.oncePerCustomer &&
        email &&
        (await deps.redeemed(row.promoCode, normalEmail(email)))
      ) {
        return err({ code: 'promo_once_per_customer' })
      }
      return ok({
        promo: promoToApi(row),
        oncePerCustomerCode: row.oncePerCustomer ? row.promoCode : null,
      })
    },
  }
}
