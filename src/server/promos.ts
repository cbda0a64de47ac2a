import { and, eq, sql } from 'drizzle-orm'
import { messages, type Promo } from '../domain/index.ts'
import { promoRedemptions, promos } from './db/schema/core.ts'
import type { Db } from './platform/db/client.ts'

export type PromoRow = typeof promos.$inferSelect
export type PromoCheck =
  | { ok: true; promo: Promo; row: PromoRow }
  | { ok: false; status: 404 | 422; error: string }

// Codes are matched without regard to case: a shopper types 'love10' for LOVE10.
export async function findPromo(db: Db, code: string): Promise<PromoRow | null> {
  const rows = await db
    .select()
    .from(promos)
    .where(sql`upper(${promos.promoCode}) = upper(${code})`)
  return rows[0] ?? null
}

export const normalEmail = (email: string) => email.trim().toLowerCase()

export async function hasRedeemed(db: Db, promoCode: string, email: string): Promise<boolean> {
  const rows = await db
    .select({ orderGuid: promoRedemptions.orderGuid })
    .from(promoRedemptions)
    .where(
      and(
        eq(promoRedemptions.promoCode, promoCode),
        eq(promoRedemptions.email, normalEmail(email)),
      ),
    )
  return rows.length > 0
}

/**
 * spec §5 promo messages: unknown code 'Promo Code Invalid' (404); a code of another event 'This promo
 * code should not be used for this event'; a once-per-customer code already used by this e-mail 'This
 * promo code should be used once for this event' (422).
 */
export async function checkPromo(
  db: Db,
  code: string,
  eventSlug: string,
  email: string | null,
): Promise<PromoCheck> {
  const row = await findPromo(db, code)
  if (!row) return { ok: false, status: 404, error: messages.promoInvalid }
  if (row.eventSlug !== eventSlug)
    return { ok: false, status: 422, error: messages.promoWrongEvent }
  if (row.oncePerCustomer && email && (await hasRedeemed(db, row.promoCode, email))) {
    return { ok: false, status: 422, error: messages.promoOncePerCustomer }
  }
  return { ok: true, promo: promoToApi(row), row }
}

// spec §3: {promoCode, centsOffTotal} or {promoCode, percentOffTotal}
export function promoToApi(row: PromoRow): Promo {
  return row.centsOffTotal !== null
    ? { promoCode: row.promoCode, centsOffTotal: row.centsOffTotal }
    : { promoCode: row.promoCode, percentOffTotal: row.percentOffTotal }
}
